import type { CommandSpec } from './command-specs.js';

/** The specs of `corvid ingest`, `search` and `knowledge`; `globalHelp` is the global options' help text. */
export function knowledgeCommandSpecs(globalHelp: string): CommandSpec[] {
  return [
    {
      name: 'ingest',
      summary: "Index the config's knowledge bases (new and changed documents only)",
      options: { watch: { type: 'boolean', short: 'w' } },
      maxPositionals: 1,
      help: `Usage: corvid ingest [name] [--watch]

Brings the knowledge bases of the config's knowledge: section (or only <name>) up to date with
their sources: new and changed documents are chunked, embedded (with an embedder) and indexed,
documents no longer there are removed, unchanged ones are skipped. Prints a line per document
added, updated, deleted or failed, then a summary per knowledge base; on a terminal a live line
shows files, chunks, embeddings, tokens, rate and time left. The index is kept in the storage
database (SQLite, default ./.corvid/corvid.db; memory storage keeps nothing).

Every document is written in one transaction: an interrupted ingest (Ctrl-C, a crash) leaves
whole documents only, and the next run picks up where it stopped.

Options:
  -w, --watch   After ingesting, follow the folders of directory sources and re-ingest a
                knowledge base shortly after its files change, until Ctrl-C

${globalHelp}

Exit codes: 0 done (documents that could not be read are listed; also after --watch is
stopped), 1 a knowledge base could not be ingested at all (e.g. its folder is missing) or the
config is invalid, 2 bad usage, 130 interrupted.

Examples:
  corvid ingest
  corvid ingest docs --watch
  corvid ingest docs -c examples/knowledge/corvid.yaml`,
    },
    {
      name: 'search',
      summary: 'Search the knowledge bases (score, citation, first lines)',
      options: {
        knowledge: { type: 'string', short: 'k' },
        mode: { type: 'string' },
        'top-k': { type: 'string', short: 'n' },
        json: { type: 'boolean' },
      },
      maxPositionals: Infinity,
      help: `Usage: corvid search <query words...> [options]

Searches what corvid ingest indexed and prints each passage's citation (file:lines), score and
first lines. Nothing is created: a knowledge base not ingested yet is reported as such.

Options:
  -k, --knowledge <name>   Search only this knowledge base (default: every one)
      --mode <mode>        keyword (BM25), vector (needs an embedder) or hybrid
                           (default: the knowledge base's search.mode)
  -n, --top-k <n>          Passages per knowledge base (default: search.top_k, else 5)
      --json               Print JSON: [{ knowledge, score, citation, uri, lines, headings, text }]

${globalHelp}

Exit codes: 0 searched (also with no matches), 1 failure, 2 bad usage.

Examples:
  corvid search "how do I rotate keys?"
  corvid search retry policy --knowledge docs --mode keyword --top-k 3 --json`,
    },
    {
      name: 'knowledge',
      summary: 'List, inspect or drop knowledge base indexes',
      options: { json: { type: 'boolean' } },
      maxPositionals: 2,
      help: `Usage: corvid knowledge list [--json]
       corvid knowledge stats <name> [--json]
       corvid knowledge drop <name>

list: the config's knowledge bases with their documents, chunks, embedder and last update.
stats: the same for one. drop: deletes an index (any index of the store, also one no longer in
the config); corvid ingest rebuilds it. list and stats create nothing.

Options:
      --json   list, stats: print JSON

${globalHelp}

Exit codes: 0 success, 1 failure (e.g. drop of an index that does not exist), 2 bad usage.

Examples:
  corvid knowledge list
  corvid knowledge drop docs && corvid ingest docs`,
    },
  ];
}
