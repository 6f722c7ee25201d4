/**
 * restTools against Corvid's own REST gateway, started in-process on 127.0.0.1: the
 * `corvid mcp serve --http` server (serveMcpHttp) with a bearer token, and `corvid serve` with an
 * API key. Tools are read from GET /tools and called through POST /execute; the server's errors
 * become tool errors the model reads.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { Agent } from '../../../src/core/agent.js';
import { tool } from '../../../src/core/tool.js';
import { validateToolInput } from '../../../src/core/tool.js';
import { createMcpServer, type McpHttpServer, serveMcpHttp } from '../../../src/mcp/index.js';
import { type RunningServer, serve } from '../../../src/server/app/serve.js';
import { hashApiKey } from '../../../src/server/auth/api-keys.js';
import { ScriptedModel } from '../../../src/testing/index.js';
import { restTools } from '../../../src/tools/rest/index.js';
import type { Tool, ToolContext } from '../../../src/types/tool.js';
import { LogSink } from '../../server/helpers.js';

const TOKEN = 'gateway-token-0123456789';
const ctx = (signal = new AbortController().signal): ToolContext => ({
  signal,
  agent: 't',
  path: ['t'],
  runId: 'r',
  toolCallId: 'c',
  idempotencyKey: 'r:c',
  messages: [],
  state: undefined as never,
});

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const stock = tool({
  name: 'stock',
  description: 'Units in stock of a SKU',
  input: z.object({ sku: z.string() }),
  execute: ({ sku }) => ({ sku, units: sku === 'A-1' ? 12 : 0 }),
});
const broken = tool({
  name: 'broken',
  description: 'Always fails',
  parameters: { type: 'object' },
  execute: () => Promise.reject(new Error('disk on fire')),
});
let slowCancelled: () => void = () => undefined;
const slow = tool({
  name: 'slow',
  description: 'Never finishes before it is cancelled',
  parameters: { type: 'object' },
  execute: (_i, c) =>
    new Promise((_r, reject) =>
      c.signal.addEventListener('abort', () => {
        slowCancelled();
        reject(new Error('cancelled'));
      }),
    ),
});

let gateway: McpHttpServer;
beforeAll(async () => {
  const clerk = new Agent({
    name: 'clerk',
    description: 'Answers stock questions',
    model: new ScriptedModel(() => ({ text: 'We have 12 units of A-1.' })),
    tools: [stock],
  });
  gateway = await serveMcpHttp(createMcpServer({ name: 'inventory', tools: [add, stock, broken, slow], agents: [clerk] }), {
    port: 0,
    authenticate: (t) => t === TOKEN,
  });
});
afterAll(() => gateway.close());

const byName = (tools: Tool[]) => Object.fromEntries(tools.map((t) => [t.name, t]));

describe('restTools with corvid mcp serve --http', () => {
  it('reads GET /tools: names, descriptions and JSON Schemas, agents as tools', async () => {
    const tools = await restTools({ url: gateway.url, token: TOKEN });
    expect(tools.map((t) => t.name)).toEqual(['add', 'stock', 'broken', 'slow', 'clerk']);
    expect(tools[0]).toMatchObject({
      description: 'Add two numbers',
      jsonSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    });
    expect(tools[4]).toMatchObject({ description: 'Answers stock questions', jsonSchema: { required: ['message'] } });
  });

  it('calls POST /execute and returns the result; agents answer as tools', async () => {
    const tools = byName(await restTools({ url: `${gateway.url}/`, token: TOKEN }));
    expect(await tools.add.execute({ a: 2, b: 40 }, ctx())).toBe(42);
    expect(await tools.stock.execute({ sku: 'A-1' }, ctx())).toEqual({ sku: 'A-1', units: 12 });
    expect(await tools.clerk.execute({ message: 'How many A-1?' }, ctx())).toMatch(/12 units of A-1/);
  });

  it("passes the server's errors on: a failing tool, arguments the server rejects", async () => {
    const tools = byName(await restTools({ url: gateway.url, token: TOKEN }));
    await expect(tools.broken.execute({}, ctx())).rejects.toThrow(/^disk on fire$/);
    await expect(tools.add.execute({ a: 'two', b: 1 }, ctx())).rejects.toThrow(/^Invalid arguments for tool "add": a: /);
    // In a run the model's arguments are checked against the listed schema before any request.
    expect(await validateToolInput(tools.add, { a: 'two', b: 1 })).toEqual({ ok: false, message: 'a: expected number, got string' });
  });

  it('picks tools and prefixes their names; the server still gets its own names', async () => {
    const tools = await restTools({ url: gateway.url, token: TOKEN, tools: ['add'], prefix: 'inv_' });
    expect(tools.map((t) => t.name)).toEqual(['inv_add']);
    expect(await tools[0].execute({ a: 1, b: 1 }, ctx())).toBe(2);
    await expect(restTools({ url: gateway.url, token: TOKEN, tools: ['add', 'delete_all'] })).rejects.toThrow(
      `The tool server at ${gateway.url} has no tool "delete_all" (it has: add, stock, broken, slow, clerk)`,
    );
  });

  it('says clearly when it cannot list the tools, without the token', async () => {
    const wrong = 'not-the-token-xyz';
    const error = await restTools({ url: gateway.url, token: wrong }).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      `Could not read the tools of ${gateway.url}: GET /tools answered HTTP 401 (authentication: the bearer token was refused)`,
    );
    expect(JSON.stringify(error) + String(error)).not.toContain(wrong);
    await expect(restTools({ url: gateway.url })).rejects.toThrow(
      '(authentication: a bearer token is required (Authorization: Bearer <token>))',
    );
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await expect(restTools({ url: `http://127.0.0.1:${port}` })).rejects.toThrow(
      `Could not read the tools of http://127.0.0.1:${port}: Could not reach the tool server at http://127.0.0.1:${port}/tools: ECONNREFUSED`,
    );
    await expect(restTools({ url: 'file:///tmp' })).rejects.toThrow('restTools: url must be an http(s) URL');
  });

  it('gives up on a call after timeoutMs, and the server sees the cancellation', async () => {
    const tools = byName(await restTools({ url: gateway.url, token: TOKEN, timeoutMs: 300 }));
    const cancelled = new Promise<void>((resolve) => (slowCancelled = resolve));
    await expect(tools.slow.execute({}, ctx())).rejects.toThrow(`POST ${gateway.url}/execute timed out after 300 ms`);
    await cancelled; // the gateway aborted the tool's signal when the connection closed
  });

  it('works in a run: the model calls remote tools and reads their results and errors', async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [
          { toolName: 'stock', input: { sku: 'A-1' }, toolCallId: 's' },
          { toolName: 'broken', input: {}, toolCallId: 'b' },
        ],
      },
      { text: '12 in stock.' },
    ]);
    const agent = new Agent({ name: 'buyer', model, tools: await restTools({ url: gateway.url, token: TOKEN }) });
    const result = await agent.run('How many A-1 are left?');
    expect(result.text).toBe('12 in stock.');
    expect(result.steps[0].toolResults.map((r) => [r.output, r.isError])).toEqual([
      [{ sku: 'A-1', units: 12 }, false],
      ['Tool "broken" failed: disk on fire', true],
    ]);
  });
});

describe('restTools with corvid serve', () => {
  const KEY = 'rest-tools-key-0123456789';
  const dir = mkdtempSync(join(tmpdir(), 'corvid-rest-tools-'));
  let server: RunningServer;
  beforeAll(async () => {
    // A tool module without imports: a plain tool object.
    writeFileSync(
      join(dir, 'tools.mjs'),
      `export const shout = { kind: 'tool', name: 'shout', description: 'Upper-cases text', jsonSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, execute: ({ text }) => text.toUpperCase() };\n`,
    );
    writeFileSync(
      join(dir, 'corvid.yaml'),
      `tools:\n  text: { module: ./tools.mjs }\nagents:\n  helper:\n    model: openai:gpt-4.1-mini\n    tools: [text]\nserver:\n  auth:\n    api_keys: [{ name: ci, hash: "${hashApiKey(KEY)}" }]\n`,
    );
    server = await serve({
      load: { cwd: dir, configPath: 'corvid.yaml', env: { OPENAI_API_KEY: 'sk-test' } },
      port: 0,
      logDestination: new LogSink(),
    });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists and calls the tools of the config with an API key header', async () => {
    const tools = byName(await restTools({ url: server.url, headers: { 'x-api-key': KEY } }));
    expect(Object.keys(tools).sort()).toEqual(['helper', 'shout']);
    expect(await tools.shout.execute({ text: 'quiet please' }, ctx())).toBe('QUIET PLEASE');
    await expect(restTools({ url: server.url })).rejects.toThrow(/GET \/tools answered HTTP 401/);
  });
});
