/**
 * `corvid serve` serves MCP at /mcp and the REST tool gateway (GET /tools, POST /execute) beside
 * chat and A2A, under the same auth: every tool of the config, its public agents as tools, and
 * the resources and prompts of its `mcp:` section — the same as `corvid mcp serve` of the file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningServer, serve } from '../../src/server/app/serve.js';
import { hashApiKey } from '../../src/server/auth/api-keys.js';
import { LogSink } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'corvid-mcp-routes-'));
const KEY = 'mcp-test-key-0123456789';

beforeAll(() => {
  writeFileSync(
    join(dir, 'tools.mjs'),
    `import { tool } from ${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)};
import { z } from 'zod';
export const add = tool({ name: 'add', description: 'Add two numbers', input: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b });
`,
  );
  writeFileSync(join(dir, 'guide.md'), '# Guide\n\nRead me first.\n');
  writeFileSync(
    join(dir, 'corvid.yaml'),
    `tools:
  math: { module: ./tools.mjs }
mcp:
  name: team-tools
  resources:
    guide: { uri: docs://guide, file: ./guide.md, description: The team guide }
    motd: { uri: text://motd, text: Ship it. }
  prompts:
    review:
      description: Review code
      arguments: { code: { description: The code }, language: { required: false } }
      template: "Review this {language} code:\\n{code}"
agents:
  helper:
    model: openai:gpt-4.1-mini
    tools: [math]
  hidden:
    model: openai:gpt-4.1-mini
    visibility: private
server:
  auth:
    api_keys: [{ name: ci, hash: "${hashApiKey(KEY)}" }]
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('MCP and the REST tool gateway in corvid serve', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve({
      load: { cwd: dir, configPath: 'corvid.yaml', env: { OPENAI_API_KEY: 'sk-test' } },
      port: 0,
      logDestination: new LogSink(),
    });
  });
  afterAll(() => server?.close());

  it('refuses callers without a credential, like every other route', async () => {
    expect((await fetch(`${server.url}/tools`)).status).toBe(401);
    const init = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(init.status).toBe(401);
  });

  it('serves tools, public agents, resources and prompts of the config over MCP', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { 'x-api-key': KEY } } }),
    );
    try {
      expect(client.getServerVersion()?.name).toBe('team-tools');
      const tools = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(tools).toEqual(['add', 'helper']);
      const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
      expect(sum.content).toEqual([{ type: 'text', text: '5' }]);
      const resources = (await client.listResources()).resources.map((r) => [r.name, r.uri, r.mimeType]);
      expect(resources).toEqual([
        ['guide', 'docs://guide', 'text/markdown'],
        ['motd', 'text://motd', 'text/plain'],
      ]);
      expect((await client.readResource({ uri: 'docs://guide' })).contents[0]).toMatchObject({ text: '# Guide\n\nRead me first.\n' });
      const prompts = (await client.listPrompts()).prompts;
      expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])])).toEqual([
        [
          'review',
          [
            ['code', true],
            ['language', false],
          ],
        ],
      ]);
      const got = await client.getPrompt({ name: 'review', arguments: { code: 'x = 1', language: 'python' } });
      expect(got.messages[0].content).toEqual({ type: 'text', text: 'Review this python code:\nx = 1' });
    } finally {
      await client.close();
    }
  });

  it('serves the REST tool gateway', async () => {
    const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
    const listed = await (await fetch(`${server.url}/tools`, { headers })).json();
    expect(listed.tools.map((t: { name: string }) => t.name).sort()).toEqual(['add', 'helper']);
    const ok = await fetch(`${server.url}/execute`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ tool: 'add', arguments: { a: 20, b: 22 } }),
    });
    expect(await ok.json()).toEqual({ result: 42 });
    const unknown = await fetch(`${server.url}/execute`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ tool: 'hidden', arguments: {} }),
    });
    expect(unknown.status).toBe(404);
    const bad = await fetch(`${server.url}/execute`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ tool: 'add', arguments: { a: 'x' } }),
    });
    expect(bad.status).toBe(400);
  });
});
