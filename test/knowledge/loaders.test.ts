import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeError } from '../../src/errors/knowledge-error.js';
import { chunkDocument } from '../../src/knowledge/chunkers/chunk-document.js';
import { directorySource } from '../../src/knowledge/directory-source.js';
import type { KnowledgeDocument } from '../../src/types/knowledge.js';
import { tinyPdf } from './support/tiny-pdf.js';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'corvid-kb-loaders-'));
  const files: Record<string, string | Buffer> = {
    'guide.md': '# User guide\n\nWelcome.\n\n## Install\n\nRun the installer.\n',
    'notes.txt': 'plain notes\nsecond line\n',
    'page.html': '<html><head><title>Pricing page</title></head><body><h1>Pricing</h1><p>The <b>team</b> plan costs 20 euros a seat per month and includes support.</p><script>alert(1)</script></body></html>',
    'src/util.py': 'def add(a, b):\n    return a + b\n',
    'data/people.csv': 'name,role\nAda,"engineer, lead"\nGrace,admiral\n',
    'data/items.json': JSON.stringify([{ sku: 'A1', name: 'anvil' }, { sku: 'B2', name: 'bucket' }]),
    'manual.pdf': tinyPdf(['Alpha page one text', 'Beta page two text'], 'The Manual'),
    'broken.pdf': '%PDF-1.4\nthis is not really a pdf\n',
    'bad.json': '{ "unterminated": ',
    'image.bin': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]),
    'node_modules/dep/readme.md': '# dependency',
    'drafts/wip.md': '# work in progress',
  };
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), content);
  }
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function list(options: Partial<Parameters<typeof directorySource>[0]> = {}): Promise<{ docs: Map<string, KnowledgeDocument>; errors: KnowledgeError[] }> {
  const errors: KnowledgeError[] = [];
  const docs = new Map<string, KnowledgeDocument>();
  for await (const d of directorySource({ path: root, ...options }).list({ report: (e) => errors.push(e) })) docs.set(d.uri, d);
  return { docs, errors };
}

describe('directory source and loaders', () => {
  it('loads each format with its metadata, skipping node_modules and excluded globs', async () => {
    const { docs, errors } = await list({ exclude: ['drafts/**'] });
    expect([...docs.keys()].sort()).toEqual(['data/items.json', 'data/people.csv', 'guide.md', 'manual.pdf', 'notes.txt', 'page.html', 'src/util.py']);
    expect(docs.get('guide.md')).toMatchObject({ source: 'directory', title: 'User guide', metadata: { path: 'guide.md', format: 'markdown' } });
    expect(docs.get('src/util.py')!.metadata).toMatchObject({ format: 'code', language: 'python' });
    const html = docs.get('page.html')!;
    expect(html.title).toBe('Pricing page');
    expect(html.text).toContain('**team** plan costs 20 euros');
    expect(html.text).not.toContain('alert(1)');
    expect(docs.get('data/people.csv')!.text).toBe('name: Ada\nrole: engineer, lead\n\nname: Grace\nrole: admiral');
    expect(docs.get('data/items.json')!.text).toBe('sku: A1\nname: anvil\n\nsku: B2\nname: bucket');
    expect(docs.get('data/items.json')!.metadata.rows).toBe(2);
    // Files that cannot be read are reported one by one, naming the file; the listing went on.
    expect(errors.map((e) => e.uri).sort()).toEqual(['bad.json', 'broken.pdf', 'image.bin']);
    for (const e of errors) {
      expect(e).toBeInstanceOf(KnowledgeError);
      expect(e.kind).toBe('load');
      expect(e.message).toContain(`Cannot load ${e.uri}:`);
    }
    expect(errors.find((e) => e.uri === 'image.bin')!.message).toContain('binary');
  });

  it('reads PDF pages and cites chunks by page', async () => {
    const { docs } = await list({ include: ['*.pdf'] });
    const pdf = docs.get('manual.pdf')!;
    expect(pdf.title).toBe('The Manual');
    expect(pdf.metadata).toMatchObject({ format: 'pdf', pages: 2 });
    expect(pdf.text).toContain('Alpha page one text');
    const chunks = chunkDocument(pdf, { maxTokens: 6, overlapTokens: 0 });
    expect(chunks.find((c) => c.text.includes('Beta'))!.location.page).toBe(2);
    expect(chunks.find((c) => c.text.includes('Alpha'))!.location.page).toBe(1);
  });

  it('includes only matching globs and refuses files over the size limit', async () => {
    const { docs, errors } = await list({ include: ['**/*.md', '*.txt'], maxBytes: 30 });
    expect([...docs.keys()].sort()).toEqual(['drafts/wip.md', 'notes.txt']);
    expect(errors.map((e) => e.uri)).toEqual(['guide.md']);
    expect(errors[0].message).toMatch(/over the 30-byte limit/);
  });
});
