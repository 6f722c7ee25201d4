/**
 * `corvid validate` (the built CLI) on knowledge bases: search models, embedders and SQL sources
 * are checked without connecting to anything, each problem named by its path.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, CLI, cliEnv } from '../cli/cli-harness.js';

const run = promisify(execFile);
let dir: string;
beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'corvid-validate-knowledge-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function validate(config: string): Promise<{ code: number; out: string }> {
  writeFileSync(join(dir, 'corvid.yaml'), config);
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, 'validate', '-c', join(dir, 'corvid.yaml'), '--no-color'], {
      cwd: dir,
      env: cliEnv(dir),
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

const AGENT = `agents:
  helper:
    model: fast
    knowledge: [docs]
`;

describe('corvid validate: knowledge bases', () => {
  it('names every wrong search model, embedder and SQL source by its path', async () => {
    const r = await validate(`models:
  fast: { provider: openai, model: gpt-4.1-mini }
embedders:
  small: { provider: openai, model: text-embedding-3-small }
knowledge:
  docs:
    embedder: large
    search: { rerank: llm, model: smart }
    sources:
      - { type: sql, url: ./app.db, query: "with gone as (delete from articles returning id) select id from gone", text: body }
      - { type: sql, url: "mariadb://db.internal/app", query: "select id, body from articles", text: body }
      - { type: sql, url: "postgres://db.internal:port/app", query: "select id, body from articles; drop table articles", text: body }
      - { type: sql, query: "select id, body from articles" }
  faq:
    search: { rewrite: hyde, model: "nosuch:model-1" }
    sources: [{ type: directory, path: ./faq }]
${AGENT}`);
    expect(r.code).toBe(1);
    const lines = [
      'knowledge.docs.embedder: unknown embedder "large"; define it under embedders (defined: "small")',
      'knowledge.docs.search.model: unknown model "smart": define it under models (defined: "fast") or write "provider:model"',
      'knowledge.docs.sources[0].query: "query" must only read, but it contains DELETE',
      'knowledge.docs.sources[1].url: unsupported database URL scheme "mariadb://": use postgres://…, mysql://… or a SQLite file path',
      'knowledge.docs.sources[2].url: the database URL does not parse',
      'knowledge.docs.sources[2].query: "query" must be a single statement',
      'knowledge.docs.sources[3].text: "text" is required',
      'knowledge.faq.search.model: unknown provider "nosuch" in "nosuch:model-1"',
    ];
    for (const line of lines) expect(r.out).toContain(line);
    expect(r.out).toContain('is invalid: 8 problems');
  });

  it('accepts search models from models: or as provider:model, read-only queries and parseable URLs', async () => {
    const r = await validate(`models:
  fast: { provider: openai, model: gpt-4.1-mini }
knowledge:
  docs:
    search: { rerank: llm, model: fast }
    sources:
      - { type: sql, url: ./app.db, query: "select id, body from articles where body <> 'delete me'", text: body }
      - { type: sql, url: "postgres://reader:secret@db.internal:5432/app", query: "with a as (select id, body from articles) select * from a", text: body }
      - { type: sql, url: "sqlite:./other.db", query: "select id, body from notes;", text: body }
  faq:
    search: { rewrite: multi_query, model: "openai:gpt-4.1-mini" }
    sources: [{ type: directory, path: ./faq }]
${AGENT}`);
    expect(r.out).toContain('is valid (1 model, 1 agent)');
    expect(r.code).toBe(0);
  });
});
