import { describe, expect, it } from 'vitest';

import { chunkDocument } from '../../src/knowledge/chunkers/chunk-document.js';
import { sha256 } from '../../src/knowledge/hash.js';
import { approximateTokenCounter } from '../../src/knowledge/token-counter.js';
import type { KnowledgeDocument } from '../../src/types/knowledge.js';

function doc(uri: string, text: string, format: string): KnowledgeDocument {
  return { uri, source: 'test', text, contentHash: sha256(text), metadata: { path: uri, format } };
}

const linesOf = (text: string, [a, b]: [number, number]): string =>
  text
    .split('\n')
    .slice(a - 1, b)
    .join('\n');

describe('chunkers', () => {
  it('estimates tokens word by word', () => {
    expect(approximateTokenCounter.count('')).toBe(0);
    expect(approximateTokenCounter.count('a cat')).toBe(2);
    expect(approximateTokenCounter.count('internationalization')).toBe(5);
  });

  it('packs paragraphs under the token limit with overlap, each chunk pointing at its lines', () => {
    const paras = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} talks about topic number ${i} in a few plain words.`);
    const text = paras.join('\n\n');
    const chunks = chunkDocument(doc('notes.txt', text, 'text'), { maxTokens: 40, overlapTokens: 16 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.tokens).toBeLessThanOrEqual(40);
      expect(c.id).toBe(`notes.txt#${c.index}`);
      expect(c.hash).toBe(sha256(c.text));
      expect(linesOf(text, c.location.lines!)).toBe(c.text);
    }
    // Overlap: each chunk starts with the last paragraph of the one before it.
    const lastOfFirst = chunks[0].text.split('\n\n').at(-1)!;
    expect(chunks[1].text.startsWith(lastOfFirst)).toBe(true);
    // Nothing lost: every paragraph is in some chunk.
    for (const p of paras) expect(chunks.some((c) => c.text.includes(p))).toBe(true);
  });

  it('cuts a paragraph bigger than a chunk at sentences and words', () => {
    const text = Array.from({ length: 60 }, (_, i) => `Sentence ${i} is here.`).join(' ');
    const chunks = chunkDocument(doc('long.txt', text, 'text'), { maxTokens: 30, overlapTokens: 0 });
    expect(chunks.length).toBeGreaterThan(4);
    for (const c of chunks) {
      expect(c.tokens).toBeLessThanOrEqual(30);
      expect(c.location.lines).toEqual([1, 1]);
    }
    expect(chunks.map((c) => c.text).join(' ')).toBe(text);
  });

  it('keeps the markdown heading path with each chunk and ignores # inside code fences', () => {
    const text = [
      '# Guide',
      'Intro text.',
      '',
      '## Install',
      'Run the installer.',
      '```sh',
      '# not a heading',
      'make install',
      '```',
      '### Linux',
      'Use the package manager.',
      '## Usage',
      'Call the tool.',
    ].join('\n');
    const chunks = chunkDocument(doc('guide.md', text, 'markdown'), { maxTokens: 200 });
    expect(chunks.map((c) => c.location.headings)).toEqual([
      ['Guide'],
      ['Guide', 'Install'],
      ['Guide', 'Install', 'Linux'],
      ['Guide', 'Usage'],
    ]);
    expect(chunks[1].text).toContain('# not a heading');
    expect(chunks[2].location.lines).toEqual([10, 11]);
    expect(linesOf(text, chunks[3].location.lines!)).toBe(chunks[3].text);
  });

  it('joins a heading without text of its own to the section under it', () => {
    const text = ['# npm-link', '', '### Synopsis', '', 'npm link [<package-spec>]', '', '### Description', 'Symlinks a folder.'].join(
      '\n',
    );
    const chunks = chunkDocument(doc('link.md', text, 'markdown'), { maxTokens: 200 });
    expect(chunks.map((c) => c.location.headings)).toEqual([
      ['npm-link', 'Synopsis'],
      ['npm-link', 'Description'],
    ]);
    expect(chunks[0].text).toBe('# npm-link\n\n### Synopsis\n\nnpm link [<package-spec>]');
    expect(chunks[0].location.lines).toEqual([1, 5]);
  });

  it('cuts code at definitions and keeps a function whole when it fits', () => {
    const fn = (name: string): string[] => [
      `/** Does ${name}. */`,
      `export function ${name}(a: number): number {`,
      '  const x = a * 2;',
      '',
      '  return x + 1;',
      '}',
    ];
    const text = [...fn('alpha'), ...fn('beta'), '', ...fn('gamma')].join('\n');
    const chunks = chunkDocument(doc('src/math.ts', text, 'code'), { maxTokens: 30, overlapTokens: 0 });
    expect(chunks.map((c) => c.text.match(/function (\w+)/g))).toEqual([['function alpha'], ['function beta'], ['function gamma']]);
    expect(chunks[1].location.lines).toEqual([7, 12]);
    expect(chunks[1].text.startsWith('/** Does beta. */')).toBe(true);
  });

  it('refuses an overlap as big as the chunk', () => {
    expect(() => chunkDocument(doc('a.txt', 'x', 'text'), { maxTokens: 10, overlapTokens: 10 })).toThrow(/overlapTokens/);
  });
});
