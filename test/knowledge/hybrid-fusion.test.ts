/**
 * Hybrid search fuses the keyword and vector lists by their scores, each scaled to 0…1: a chunk far
 * ahead on keyword score keeps first place against a vector list that ranks it third by a hair,
 * where reciprocal rank fusion (one rank step = the same score whatever the gap) put the vector
 * list's first hit on top.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/load-config.js';
import { ValidationError } from '../../src/errors/validation-error.js';
import type { Embedder } from '../../src/knowledge/embedder.js';
import { contentHash } from '../../src/knowledge/hash.js';
import { createKnowledgeBase } from '../../src/knowledge/knowledge-base.js';
import type { KnowledgeSource } from '../../src/knowledge/knowledge-source.js';
import { reciprocalRankFusion } from '../../src/knowledge/rrf.js';
import { openSqliteKnowledgeStore } from '../../src/knowledge/stores/sqlite/sqlite-knowledge-store.js';

// Each page's cosine similarity to every query: the vector list is b, c, a, d, close together but for d.
const PAGES: [string, string, number][] = [
  ['a.md', 'Rotate the key, then rotate the key again.', 0.8],
  ['b.md', 'A key hangs by the door.', 0.9],
  ['c.md', 'The key of that old song is minor, they said.', 0.85],
  ['d.md', 'Otters swim in cold rivers.', 0.1],
];

const source: KnowledgeSource = {
  name: 'pages',
  async *list() {
    for (const [uri, text] of PAGES) yield { uri, source: 'pages', text, contentHash: contentHash(text), metadata: { format: 'text' } };
  },
};

/** Two dimensions: a page's vector is at the angle whose cosine is its similarity; a query is [1, 0]. */
const embedder: Embedder = {
  model: 'angles',
  dimensions: 2,
  async embed(texts) {
    return texts.map((t) => {
      const cos = PAGES.find(([, text]) => t.includes(text))?.[2] ?? 1;
      return Float32Array.from([cos, Math.sqrt(1 - cos * cos)]);
    });
  },
};

describe('hybrid fusion', () => {
  it.each(['memory', 'sqlite'] as const)('keeps the clear keyword leader first (%s store)', async (kind) => {
    const store = kind === 'sqlite' ? await openSqliteKnowledgeStore({ path: ':memory:' }) : undefined;
    try {
      const kb = createKnowledgeBase({ name: 'kb', sources: [source], embedder, store });
      await kb.ingest();
      const uris = async (mode: 'keyword' | 'vector' | 'hybrid') =>
        (await kb.search('rotate key', { mode, topK: 4 })).map((h) => h.chunk.documentUri);
      expect(await uris('keyword')).toEqual(['a.md', 'b.md', 'c.md']);
      expect(await uris('vector')).toEqual(['b.md', 'c.md', 'a.md', 'd.md']);
      expect((await uris('hybrid'))[0]).toBe('a.md');
      // Reciprocal rank fusion of the same lists: b.md (2nd and 1st) beats a.md (1st and 3rd).
      const [keyword, vector] = await Promise.all([
        kb.search('rotate key', { mode: 'keyword', topK: 20 }),
        kb.search('rotate key', { mode: 'vector', topK: 20 }),
      ]);
      expect(reciprocalRankFusion([keyword, vector])[0]!.chunk.documentUri).toBe('b.md');
    } finally {
      await store?.close();
    }
  });

  it('follows search.keywordWeight: 0 ranks by the vector list alone, 1 by the keyword list', async () => {
    for (const [weight, first] of [
      [0, 'b.md'],
      [1, 'a.md'],
    ] as const) {
      const kb = createKnowledgeBase({ name: 'kb', sources: [source], embedder, search: { keywordWeight: weight } });
      await kb.ingest();
      expect((await kb.search('rotate key'))[0]!.chunk.documentUri, `keywordWeight ${weight}`).toBe(first);
    }
    expect(() => createKnowledgeBase({ name: 'kb', sources: [source], search: { keywordWeight: 1.5 } })).toThrow(ValidationError);
  });

  it('reads search.keyword_weight from corvid.yaml and refuses one outside 0…1, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corvid-kb-weight-'));
    try {
      const load = (weight: number) => {
        writeFileSync(
          join(dir, 'corvid.yaml'),
          `knowledge:\n  docs:\n    sources: [{ type: directory, path: ./docs }]\n    search: { keyword_weight: ${weight} }\n`,
        );
        return loadConfig({ path: join(dir, 'corvid.yaml'), cwd: dir, env: {}, dotenv: false });
      };
      expect((await load(0.3)).config.knowledge?.docs?.search?.keywordWeight).toBe(0.3);
      await expect(load(1.5)).rejects.toThrow(/keyword_weight is a share from 0 to 1/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
