/**
 * The Studio's knowledge and MCP routes on a runtime loaded from a real corvid.yaml: a keyword
 * knowledge base over a folder (SQLite), and a stdio MCP server (the kitchen-sink fixture).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadRuntime, type Runtime } from '../../src/runtime/index.js';
import type { RunningServer } from '../../src/server/app/serve.js';
import { FIXTURES } from '../mcp/support.js';
import { startServer } from './helpers.js';

const NODE = JSON.stringify(process.execPath);

describe('knowledge and MCP servers over the Studio routes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-studio-config-'));
  let runtime: Runtime;
  let server: RunningServer;
  let url = '';

  beforeAll(async () => {
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'herons.md'), '# Herons\n\nHerons wade in shallow water and hunt fish with their long bills.\n');
    writeFileSync(join(dir, 'docs', 'crows.md'), '# Crows\n\nCrows solve puzzles and remember faces.\n');
    writeFileSync(join(dir, 'server.mjs'), `import ${JSON.stringify(pathToFileURL(join(FIXTURES, 'kitchen-sink.mjs')).href)};\n`);
    writeFileSync(
      join(dir, 'corvid.yaml'),
      `models:\n  m: { provider: openai, model: x, api_key: test }\ndefaults: { model: m }\nstorage: { driver: sqlite, path: ./corvid.db }\n` +
        `knowledge:\n  birds:\n    sources:\n      - { type: directory, path: ./docs, include: ["**/*.md"] }\n    search: { mode: keyword }\n` +
        `mcp_servers:\n  sink:\n    command: ${NODE}\n    args: [./server.mjs]\n    include: [pid, fail]\n` +
        `agents:\n  guide:\n    knowledge: [birds]\n    tools: [sink]\n`,
    );
    runtime = await loadRuntime({ cwd: dir, env: {}, dotenv: false });
    await runtime.knowledge!.get('birds')!.ingest();
    ({ server, url } = await startServer([], { runtime }));
  });

  afterAll(async () => {
    await server?.close();
    await runtime?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the knowledge base with its stats and searches it', async () => {
    const list = await (await fetch(`${url}/api/v1/knowledge`)).json();
    expect(list.bases).toEqual([
      expect.objectContaining({ name: 'birds', indexed: true, sources: [expect.objectContaining({ type: 'directory' })] }),
    ]);
    expect(list.bases[0].stats.documents).toBe(2);
    const res = await fetch(`${url}/api/v1/knowledge/birds/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'wade fish', mode: 'keyword', topK: 2 }),
    });
    const body = await res.json();
    expect(body.hits[0]).toMatchObject({ source: expect.stringContaining('herons.md'), citation: expect.stringContaining('herons.md') });
    expect(body.hits[0].text).toContain('Herons wade');
    expect(typeof body.timings.totalMs).toBe('number');
    const unknown = await fetch(`${url}/api/v1/knowledge/fish/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'x' }),
    });
    expect(unknown.status).toBe(404);
  });

  it('shows the agent’s tool sources, lists the MCP server with its tools, and calls one by hand', async () => {
    const servers = await (await fetch(`${url}/api/v1/mcp/servers?connect=true`)).json();
    expect(servers.servers).toEqual([
      expect.objectContaining({
        name: 'sink',
        transport: 'stdio',
        status: 'connected',
        tools: expect.arrayContaining([expect.objectContaining({ name: 'pid' })]),
      }),
    ]);
    const agent = await (await fetch(`${url}/api/v1/agents/guide`)).json();
    const sources = Object.fromEntries(agent.tools.map((t: { name: string; source: string }) => [t.name, t.source]));
    expect(sources).toMatchObject({ search_knowledge: 'knowledge', sink_pid: 'mcp' });
    const call = await fetch(`${url}/api/v1/mcp/servers/sink/tools/fail/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ arguments: {} }),
    });
    expect(await call.json()).toMatchObject({ isError: true, content: [expect.objectContaining({ type: 'text' })] });
    const missing = await fetch(`${url}/api/v1/mcp/servers/sink/tools/crash/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(missing.status).toBe(404);
  });
});
