import { orQuery, queryWords } from './query-sql.js';
import { FTS_TOKENIZE, ftsTable } from './schema.js';
import type { SqliteIndexCache } from './sqlite-index-cache.js';
import type { SqliteKnowledgeContext } from './sqlite-knowledge-context.js';

/** The FTS5 MATCH expressions of a keyword search. */
export interface KeywordMatch {
  /** The expression to run first. */
  match: string;
  /**
   * The expression with every word, when `match` leaves common words out: to run instead when
   * `match` finds fewer than topK chunks.
   */
  all?: string;
  /** The FTS5 terms of every word of the query (common ones included), each with the number of chunks holding it. */
  terms: Map<string, number>;
}

const TERMS = 'knowledge_query_terms';
const TERM_LIST = 'knowledge_query_term_list';
const vocabTable = (id: number): string => `knowledge_fts_vocab_${id}`;

/**
 * The MATCH expressions of a keyword search in index `id`, leaving out the words found in more than
 * `share` of its chunks when the text has rarer words (`undefined` when the text has no word).
 *
 * FTS5 computes BM25 for every chunk that matches, so a word found in most chunks makes a search
 * score most of the index. Its weight is small: FTS5's idf, log((N - n + 0.5) / (n + 0.5)) for a
 * word in n of N chunks, is clamped to 1e-6 from half the chunks (and below 0.69 above a third).
 * Leaving it out changes the scores of the chunks that contain rarer words by at most that weight
 * (times 2.2, BM25's bound on the term-frequency factor), and loses only the chunks that contain
 * none of them, which score at most as much; when fewer than topK chunks contain the rarer words,
 * the caller runs `all` instead and returns what a search of every word would.
 *
 * Words are turned into FTS5 terms (stemmed) by the index's own tokenizer ({@link ftsTerms});
 * their document frequencies come from an `fts5vocab` table over
 * the index (also temporary) and are cached until the index changes.
 */
export function keywordMatch(
  ctx: SqliteKnowledgeContext,
  cache: SqliteIndexCache,
  id: number,
  text: string,
  share: number,
): KeywordMatch | undefined {
  const words = queryWords(text);
  if (words.length === 0) return undefined;
  const all = orQuery(words);
  const termsOf = ftsTerms(ctx, words);
  const vocab = vocabStatement(ctx, id);
  const frequency = (term: string): number => {
    let n = cache.frequencies.get(term);
    if (n === undefined) cache.frequencies.set(term, (n = (vocab.get(term) as number | undefined) ?? 0));
    return n;
  };
  const terms = new Map(termsOf.flat().map((t) => [t, frequency(t)]));
  if (words.length === 1 || share >= 1) return { match: all, terms };
  const limit = share * cache.chunks();
  const common = words.filter((_, i) => termsOf[i]!.length === 1 && terms.get(termsOf[i]![0]!)! > limit);
  if (common.length === 0 || common.length === words.length) return { match: all, terms };
  return { match: orQuery(words.filter((w) => !common.includes(w))), all, terms };
}

/** Drops the temporary vocabulary table of index `id` (the index is being dropped). */
export function dropKeywordTables(ctx: SqliteKnowledgeContext, id: number): void {
  ctx.db.exec(`DROP TABLE IF EXISTS temp.${vocabTable(id)}`);
}

function vocabStatement(ctx: SqliteKnowledgeContext, id: number) {
  const sql = `SELECT doc FROM temp.${vocabTable(id)} WHERE term = ?`;
  try {
    return ctx.prepare(sql).pluck();
  } catch {
    ctx.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${vocabTable(id)} USING fts5vocab(main, ${ftsTable(id)}, row)`);
    return ctx.prepare(sql).pluck();
  }
}

/**
 * The FTS5 terms of each text, in order, as the index's tokenizer makes them (a word gives usually
 * one term; none or several for some characters).
 */
export function ftsTerms(ctx: SqliteKnowledgeContext, texts: string[]): string[][] {
  return withTexts(ctx, texts, () => {
    const out = texts.map((): string[] => []);
    for (const [doc, term] of ctx.prepare(`SELECT doc, term FROM temp.${TERM_LIST} ORDER BY doc, offset`).raw().all() as [number, string][])
      out[doc]!.push(term);
    return out;
  });
}

/** word → its FTS5 terms, for every index (they share one tokenizer); emptied when it reaches {@link TERM_CACHE_SIZE}. */
const termCache = new Map<string, string[]>();
const TERM_CACHE_SIZE = 200_000;

/**
 * The FTS5 terms of each word (lower-cased runs of letters and digits), from a process-wide cache;
 * the words not in it are tokenized together ({@link ftsTerms}).
 */
export function wordTerms(ctx: SqliteKnowledgeContext, words: Iterable<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const unknown = new Set<string>();
  for (const w of words) {
    const t = termCache.get(w);
    if (t) out.set(w, t);
    else unknown.add(w);
  }
  if (unknown.size > 0) {
    const missing = [...unknown];
    if (termCache.size + missing.length > TERM_CACHE_SIZE) termCache.clear();
    ftsTerms(ctx, missing).forEach((t, i) => {
      termCache.set(missing[i]!, t);
      out.set(missing[i]!, t);
    });
  }
  return out;
}

/**
 * Runs `fn` while `texts` are indexed (rowid = position) in a temporary, contentless FTS5 table of
 * this connection with the index's tokenizer; its `fts5vocab` instance table is `TERM_LIST`.
 */
function withTexts<T>(ctx: SqliteKnowledgeContext, texts: string[], fn: () => T): T {
  let insert;
  try {
    insert = ctx.prepare(`INSERT INTO temp.${TERMS} (rowid, t) VALUES (?, ?)`);
  } catch {
    ctx.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${TERMS} USING fts5(t, content='', tokenize='${FTS_TOKENIZE}')`);
    ctx.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${TERM_LIST} USING fts5vocab(temp, ${TERMS}, instance)`);
    insert = ctx.prepare(`INSERT INTO temp.${TERMS} (rowid, t) VALUES (?, ?)`);
  }
  texts.forEach((w, i) => insert.run(i, w));
  try {
    return fn();
  } finally {
    ctx.prepare(`INSERT INTO temp.${TERMS} (${TERMS}) VALUES ('delete-all')`).run();
  }
}
