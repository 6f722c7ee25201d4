/**
 * The url and sql sources through real components: pages served by a local HTTP server (the SSRF
 * guard told to allow 127.0.0.1), SQLite files, and Postgres/MySQL when their test URLs are set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createKnowledgeBase, sqlSource, urlSource } from '../../src/knowledge/index.js';

let server: Server;
let base = '';
let handbook =
  '<html><head><title>Handbook</title></head><body><article><h1>Handbook</h1><p>Welcome to the team handbook, read it all.</p><h2>Holidays</h2><p>Every employee gets twenty-five vacation days per year, booked in the planner.</p><h2>Expenses</h2><p>Receipts are filed in the expense tool within thirty days.</p></article></body></html>';
const dir = mkdtempSync(join(tmpdir(), 'corvid-kb-sources-'));

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/handbook') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(handbook);
    } else if (req.url === '/notes.md') {
      res.writeHead(200, { 'content-type': 'text/markdown' });
      res.end('# Notes\n\nThe staging database is rebuilt every night.\n');
    } else if (req.url === '/moved') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
      res.end();
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('urlSource', () => {
  it('indexes HTML pages as markdown and cites URL#Heading', async () => {
    const kb = createKnowledgeBase({
      name: 'web',
      sources: [urlSource({ urls: [`${base}/handbook`, `${base}/notes.md`], allowHosts: ['127.0.0.1'] })],
      chunking: { maxTokens: 30, overlapTokens: 0 },
    });
    const report = await kb.ingest();
    expect(report.added).toEqual([`${base}/handbook`, `${base}/notes.md`]);
    const [hit] = await kb.search('vacation days');
    expect(hit!.citation).toBe(`${base}/handbook#Holidays`);
    expect(hit!.chunk.text).toContain('twenty-five vacation days');
    expect((await kb.search('staging database'))[0]!.citation).toMatch(/notes\.md/);
    // Unchanged pages are not re-indexed; a changed page is.
    expect((await kb.ingest()).unchanged).toBe(2);
    handbook = handbook.replace('twenty-five', 'thirty');
    const again = await kb.ingest();
    expect(again.updated).toEqual([`${base}/handbook`]);
    expect((await kb.search('vacation days'))[0]!.chunk.text).toContain('thirty vacation days');
  });

  it('is refused by the SSRF guard on loopback unless allowed, and reports 404s and refused redirects per page', async () => {
    const refused = await createKnowledgeBase({ name: 'web', sources: [urlSource({ urls: [`${base}/handbook`] })] }).ingest();
    expect(refused.failed[0]!.message).toMatch(/loopback address.*server-side request forgery/);
    const report = await createKnowledgeBase({
      name: 'web',
      sources: [urlSource({ urls: [`${base}/missing`, `${base}/moved`, `${base}/handbook`], allowPrivate: true })],
    }).ingest();
    expect(report.added).toEqual([`${base}/handbook`]);
    expect(report.failed.map((e) => e.message)).toEqual([
      expect.stringMatching(/Cannot load .*\/missing: HTTP 404/),
      expect.stringMatching(/Redirect to http:\/\/169\.254\.169\.254.* refused.*metadata address/),
    ]);
  });

  it('rejects URLs that are not http(s)', () => {
    expect(() => urlSource({ urls: ['file:///etc/passwd'] })).toThrow(/not an http or https URL/);
  });
});

describe('sqlSource on SQLite', () => {
  const path = join(dir, 'app.db');
  beforeAll(() => {
    const db = new Database(path);
    db.exec(`CREATE TABLE articles (id INTEGER PRIMARY KEY, title TEXT, body TEXT, lang TEXT);
      INSERT INTO articles VALUES (1, 'Billing', 'Invoices are sent on the first working day of the month.', 'en'),
        (2, 'Support', 'The support desk answers within four hours on weekdays.', 'en'),
        (3, 'Factures', 'Les factures partent le premier jour ouvré.', 'fr');`);
    db.close();
  });
  const source = (query = 'select id, title, body, lang from articles') => sqlSource({ url: path, query, text: 'body', title: 'title' });

  it('makes each row a document with a stable URI; edits and deletes follow', async () => {
    const kb = createKnowledgeBase({ name: 'rows', sources: [source()] });
    const report = await kb.ingest();
    expect(report.added).toEqual(['sql:sql/1', 'sql:sql/2', 'sql:sql/3']);
    const [hit] = await kb.search('invoices month');
    expect(hit!.citation).toBe('sql:sql/1:1-3');
    expect(hit!.chunk.metadata).toMatchObject({ title: 'Billing', lang: 'en', id: 1 });
    expect((await kb.search('invoices', { filter: { lang: 'fr' } })).length).toBe(0);
    const db = new Database(path);
    db.exec("UPDATE articles SET body = 'The support desk answers within one hour.' WHERE id = 2; DELETE FROM articles WHERE id = 3;");
    db.close();
    const again = await kb.ingest();
    expect(again).toMatchObject({ updated: ['sql:sql/2'], deleted: ['sql:sql/3'], unchanged: 1 });
  });

  it('refuses anything but one SELECT, and says which column is missing', async () => {
    expect(() => source('delete from articles')).toThrow(/must be a SELECT/);
    expect(() => source('select 1; drop table articles')).toThrow(/single statement/);
    expect(() => source('with x as (delete from articles returning *) select * from x')).toThrow(/contains DELETE/);
    expect(() => source('select * into backup from articles')).toThrow(/contains INTO/);
    expect(() => source("select 'drop; delete' as id, body from articles")).not.toThrow();
    await expect(createKnowledgeBase({ name: 'x', sources: [source('select title, body from articles')] }).ingest()).rejects.toThrow(
      /returns no column "id" \(it returns title, body\)/,
    );
  });
});

const pgUrl = process.env.CORVID_TEST_POSTGRES_URL;
const mysqlUrl = process.env.CORVID_TEST_MYSQL_URL;
if (!pgUrl) console.log('sql source on Postgres skipped: CORVID_TEST_POSTGRES_URL is not set');
if (!mysqlUrl) console.log('sql source on MySQL skipped: CORVID_TEST_MYSQL_URL is not set');

describe.skipIf(!pgUrl)('sqlSource on Postgres', () => {
  it('reads rows in a read-only transaction', async () => {
    const table = `kb_src_${process.pid}`;
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      await client.query(`CREATE TABLE ${table} (id int primary key, body text)`);
      await client.query(`INSERT INTO ${table} VALUES (7, 'Postgres rows become documents')`);
      const kb = createKnowledgeBase({
        name: 'pg',
        sources: [sqlSource({ url: pgUrl!, query: `select id, body from ${table}`, text: 'body' })],
      });
      expect((await kb.ingest()).added).toEqual(['sql:sql/7']);
      // A SELECT that writes through a function is stopped by the read-only transaction.
      await client.query(`CREATE SEQUENCE ${table}_seq`);
      const sneaky = sqlSource({ url: pgUrl!, query: `select nextval('${table}_seq') as id, body from ${table}`, text: 'body' });
      await expect(createKnowledgeBase({ name: 'pg2', sources: [sneaky] }).ingest()).rejects.toThrow(/read-only transaction/);
    } finally {
      await client.query(`DROP TABLE IF EXISTS ${table}; DROP SEQUENCE IF EXISTS ${table}_seq`);
      await client.end();
    }
  });
});

describe.skipIf(!mysqlUrl)('sqlSource on MySQL', () => {
  it('reads rows', async () => {
    const table = `kb_src_${process.pid}`;
    const mysql = (await import('mysql2/promise')).default;
    const c = await mysql.createConnection(mysqlUrl!);
    try {
      await c.query(`CREATE TABLE ${table} (id int primary key, body text)`);
      await c.query(`INSERT INTO ${table} VALUES (3, 'MySQL rows become documents')`);
      const kb = createKnowledgeBase({
        name: 'my',
        sources: [sqlSource({ url: mysqlUrl!, query: `select id, body from ${table}`, text: 'body' })],
      });
      expect((await kb.ingest()).added).toEqual(['sql:sql/3']);
      expect((await kb.search('MySQL rows'))[0]!.chunk.text).toContain('MySQL rows');
    } finally {
      await c.query(`DROP TABLE IF EXISTS ${table}`);
      await c.end();
    }
  });
});
