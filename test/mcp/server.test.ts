import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { tool } from '../../src/core/tool.js';
import { Agent } from '../../src/index.js';
import {
  type CorvidMcpServer,
  createMcpServer,
  type McpHttpServer,
  mcpResult,
  reportProgress,
  sendLog,
  serveMcpHttp,
} from '../../src/mcp/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { CLI, ROOT, tempDir } from './support.js';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const weather = tool({
  name: 'weather',
  description: 'Weather of a city',
  input: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, temperature: 21 }),
});
const broken = tool({
  name: 'broken',
  description: 'Always fails',
  parameters: { type: 'object' },
  execute: () => Promise.reject(new Error('disk on fire')),
});

function makeServer(): CorvidMcpServer {
  const model = new ScriptedModel([{ toolCalls: [{ toolName: 'add', input: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }]);
  const mathAgent = new Agent({ name: 'mathematician', description: 'Does arithmetic', model, tools: [add] });
  return createMcpServer({ name: 'test-tools', version: '1.2.3', tools: [add, weather, broken], agents: [mathAgent] });
}

async function inMemoryClient(server: CorvidMcpServer): Promise<Client> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: 'sdk-test', version: '1' });
  await client.connect(a);
  return client;
}

describe('createMcpServer: Corvid tools and agents for MCP clients (the SDK Client)', () => {
  it('lists zod tools with JSON Schema, and agents as { message } tools', async () => {
    const client = await inMemoryClient(makeServer());
    expect(client.getServerVersion()).toMatchObject({ name: 'test-tools', version: '1.2.3' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['add', 'weather', 'broken', 'mathematician']);
    expect(tools[0]).toMatchObject({
      description: 'Add two numbers',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    });
    expect(tools[3]).toMatchObject({ description: 'Does arithmetic', inputSchema: { type: 'object', required: ['message'] } });
    await client.close();
  });

  it('returns results as text, objects also as structuredContent', async () => {
    const client = await inMemoryClient(makeServer());
    expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } })).toEqual({ content: [{ type: 'text', text: '42' }] });
    expect(await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } })).toEqual({
      content: [{ type: 'text', text: '{"city":"Oslo","temperature":21}' }],
      structuredContent: { city: 'Oslo', temperature: 21 },
    });
    await client.close();
  });

  it('reports validation and execution failures as distinct isError results, unknown tools as JSON-RPC errors', async () => {
    const client = await inMemoryClient(makeServer());
    expect(await client.callTool({ name: 'add', arguments: { a: 'two' } })).toEqual({
      content: [{ type: 'text', text: expect.stringMatching(/^Invalid arguments for tool "add": a: /) }],
      isError: true,
    });
    expect(await client.callTool({ name: 'broken', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'Tool "broken" failed: disk on fire' }],
      isError: true,
    });
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/-32602.*Unknown tool "nope"/);
    await client.close();
  });

  it('runs an agent for a { message } call, with progress notifications while it runs', async () => {
    const client = await inMemoryClient(makeServer());
    const progress: string[] = [];
    const r = await client.callTool({ name: 'mathematician', arguments: { message: 'add 2 and 3' } }, undefined, {
      onprogress: (p) => progress.push(`${p.progress} ${p.message}`),
    });
    expect(r).toEqual({ content: [{ type: 'text', text: 'The sum is 5.' }] });
    expect(progress).toEqual(['1 mathematician: step 1', '2 mathematician: calling add', '3 mathematician: step 2']);
    await client.close();
  });
});

describe('served-tool helpers: mcpResult, reportProgress, sendLog', () => {
  it('reach the SDK client as content, progress and log notifications', async () => {
    const chart = tool({
      name: 'chart',
      description: 'Draws',
      parameters: { type: 'object' },
      execute: async (_input, ctx) => {
        sendLog(ctx, 'info', 'drawing');
        reportProgress(ctx, { progress: 1, total: 2, message: 'half' });
        await new Promise((r) => setTimeout(r, 10));
        return mcpResult({
          content: [
            { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
            { type: 'text', text: 'a chart' },
          ],
        });
      },
    });
    const client = await inMemoryClient(createMcpServer({ name: 'charts', tools: [chart] }));
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    const progress: unknown[] = [];
    const r = await client.callTool({ name: 'chart', arguments: {} }, undefined, { onprogress: (p) => progress.push(p) });
    expect(r).toEqual({
      content: [
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'text', text: 'a chart' },
      ],
    });
    expect(progress).toEqual([{ progress: 1, total: 2, message: 'half' }]);
    expect(logs).toEqual([{ level: 'info', data: 'drawing' }]);
    // Inside an agent the helpers do nothing and the result is plain data.
    const agent = new Agent({
      name: 'a',
      model: new ScriptedModel([{ toolCalls: [{ toolName: 'chart', input: {} }] }, { text: 'ok' }]),
      tools: [chart],
    });
    expect((await agent.run('draw')).steps[0].toolResults[0].isError).toBe(false);
    await client.close();
  });
});

describe('serveMcpHttp: Streamable HTTP and the REST gateway', () => {
  let http: McpHttpServer;
  beforeAll(async () => {
    http = await serveMcpHttp(makeServer(), { port: 0, authenticate: (t) => t === 'secret' });
  });
  afterAll(() => http.close());

  const auth = { authorization: 'Bearer secret' };

  it('serves the SDK Client over Streamable HTTP', async () => {
    const client = new Client({ name: 'sdk-http', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.mcpUrl), { requestInit: { headers: auth } }));
    expect((await client.listTools()).tools).toHaveLength(4);
    expect(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).toEqual({ content: [{ type: 'text', text: '3' }] });
    await client.close();
  });

  it('refuses requests without the bearer token (401)', async () => {
    const client = new Client({ name: 'sdk-http', version: '1' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(http.mcpUrl)))).rejects.toThrow(/a bearer token is required/);
    const res = await fetch(`${http.url}/tools`, { headers: { authorization: 'Bearer wrong' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(await res.json()).toEqual({ error: { type: 'authentication', message: 'the bearer token was refused' } });
  });

  it('refuses foreign Host headers on loopback (DNS rebinding protection)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${http.url}/health`, { headers: { host: 'evil.example.com' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('REST: GET /health, GET /tools, POST /execute with distinct errors', async () => {
    expect(await (await fetch(`${http.url}/health`)).json()).toEqual({ status: 'ok', name: 'test-tools', version: '1.2.3', tools: 4 });
    const tools = (await (await fetch(`${http.url}/tools`, { headers: auth })).json()) as {
      tools: Array<{ name: string; description: string; inputSchema: unknown }>;
    };
    expect(tools.tools[0]).toEqual({
      name: 'add',
      description: 'Add two numbers',
      inputSchema: expect.objectContaining({ type: 'object' }),
    });
    const exec = (body: unknown) =>
      fetch(`${http.url}/execute`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    let res = await exec({ tool: 'weather', arguments: { city: 'Rome' } });
    expect([res.status, await res.json()]).toEqual([200, { result: { city: 'Rome', temperature: 21 } }]);
    res = await exec({ tool: 'add', arguments: { a: 1 } });
    expect([res.status, await res.json()]).toEqual([
      400,
      { error: { type: 'validation', message: 'Invalid arguments for tool "add": b: Invalid input: expected number, received undefined' } },
    ]);
    res = await exec({ tool: 'broken' });
    expect([res.status, await res.json()]).toEqual([500, { error: { type: 'execution', message: 'Tool "broken" failed: disk on fire' } }]);
    res = await exec({ tool: 'nope' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('not_found');
    res = await exec('{not json');
    expect([res.status, await res.json()]).toEqual([400, { error: { type: 'validation', message: 'the request body is not valid JSON' } }]);
  });
});

describe('corvid mcp serve (the built CLI) with the SDK Client', () => {
  const tmp = tempDir();
  let llm: FakeLlmServer;
  beforeAll(async () => {
    llm = await startFakeLlmServer([{ text: 'Bonjour!' }, { text: 'Salut!' }]);
    writeFileSync(
      join(tmp.dir, 'tools.mjs'),
      `import { tool } from ${JSON.stringify(join(ROOT, 'dist', 'index.js'))};\nexport const shout = tool({ name: 'shout', description: 'Upper-cases text', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, execute: ({ text }) => text.toUpperCase() });\n`,
    );
    writeFileSync(
      join(tmp.dir, 'corvid.yaml'),
      `models:\n  fake:\n    provider: openai-compatible\n    base_url: ${llm.url}/v1\n    model: test\n    retry: { max_retries: 0 }\ntools:\n  text: { module: ./tools.mjs }\nagents:\n  french:\n    model: fake\n    description: Answers in French\n    tools: [text]\n  other:\n    model: fake\n`,
    );
  });
  afterAll(async () => {
    await llm.close();
    tmp.remove();
  });
  const env = () => ({ PATH: process.env.PATH ?? '', HOME: tmp.dir, CORVID_HOME: join(tmp.dir, '.corvid') });

  it('over stdio: tools and the chosen agent', async () => {
    const client = new Client({ name: 'sdk-stdio', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', 'serve', '--agent', 'french'],
        cwd: tmp.dir,
        env: env(),
        stderr: 'pipe',
      }),
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['shout', 'french']);
    expect(await client.callTool({ name: 'shout', arguments: { text: 'hey' } })).toEqual({ content: [{ type: 'text', text: 'HEY' }] });
    expect(await client.callTool({ name: 'french', arguments: { message: 'Say hello' } })).toEqual({
      content: [{ type: 'text', text: 'Bonjour!' }],
    });
    expect(await client.callTool({ name: 'shout', arguments: {} })).toMatchObject({
      isError: true,
      content: [{ text: 'Invalid arguments for tool "shout": text: required' }],
    });
    await client.close();
  });

  it('over HTTP (--http --port 0 is not known in advance: the address is printed on stderr)', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [CLI, 'mcp', 'serve', '--http', '--port', '0', '--token', 't0k'], {
      cwd: tmp.dir,
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        child.stderr.on('data', (d: Buffer) => {
          err += d.toString();
          const m = /MCP at (http:\/\/\S+\/mcp);/.exec(err);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
      });
      const client = new Client({ name: 'sdk-http', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: 'Bearer t0k' } } }));
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['shout', 'french', 'other']);
      expect(await client.callTool({ name: 'other', arguments: { message: 'Hi' } })).toEqual({
        content: [{ type: 'text', text: 'Salut!' }],
      });
      await client.close();
      const rest = await fetch(url.replace(/\/mcp$/, '/execute'), {
        method: 'POST',
        headers: { authorization: 'Bearer t0k' },
        body: JSON.stringify({ tool: 'shout', arguments: { text: 'rest' } }),
      });
      expect(await rest.json()).toEqual({ result: 'REST' });
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
