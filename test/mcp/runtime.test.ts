import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

import { ConfigError, formatConfigIssue, loadRuntime, type Runtime, validateConfigText } from '../../src/runtime/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import type { AgentEvent } from '../../src/types/events.js';
import { alive, EVERYTHING, FIXTURES, tempDir, until } from './support.js';

const BASE = `models:\n  m: { provider: openai, model: x, api_key: test }\ndefaults: { model: m }\n`;
const NODE = JSON.stringify(process.execPath);

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(yaml: string): string {
  const tmp = tempDir();
  cleanups.push(tmp.remove);
  // A local script (it imports the fixture, which resolves the SDK from this repository).
  writeFileSync(join(tmp.dir, 'server.mjs'), `import ${JSON.stringify(pathToFileURL(join(FIXTURES, 'kitchen-sink.mjs')).href)};\n`);
  writeFileSync(join(tmp.dir, 'corvid.yaml'), yaml);
  return tmp.dir;
}

async function load(dir: string, options: Parameters<typeof loadRuntime>[0] = {}): Promise<Runtime> {
  const rt = await loadRuntime({ cwd: dir, env: {}, dotenv: false, ...options });
  cleanups.push(() => rt.close());
  return rt;
}

const SERVERS = `mcp_servers:
  ev:
    command: ${NODE}
    args: [${JSON.stringify(EVERYTHING)}, stdio]
    include: [echo, get-sum]
  sink:
    command: ${NODE}
    args: [./server.mjs]
    exclude: [crash]
`;

describe('mcp_servers in corvid.yaml', () => {
  it('an agent calls MCP tools end to end through loadRuntime', async () => {
    const dir = setup(`${BASE}${SERVERS}agents:\n  helper:\n    tools: [ev.echo, sink.progress]\n  plain:\n    instructions: no tools\n`);
    const rt = await load(dir);
    const agent = rt.agent('helper');
    expect(agent.tools.map((t) => t.name)).toEqual(['ev_echo', 'sink_progress']);
    expect(rt.agent('plain').tools).toEqual([]);
    const model = new ScriptedModel([
      {
        toolCalls: [
          { toolName: 'ev_echo', input: { message: 'via yaml' } },
          { toolName: 'sink_progress', input: {} },
        ],
      },
      { text: 'all done' },
    ]);
    agent.setModel(model);
    const events: AgentEvent[] = [];
    const stream = agent.stream('go');
    for await (const e of stream) events.push(e);
    const r = await stream.result;
    expect(r.text).toBe('all done');
    expect(r.steps[0].toolResults.map((t) => t.output)).toEqual(['Echo: via yaml', 'done']);
    // The model saw the MCP tool's description and schema unchanged.
    const sent = model.calls[0].tools!.find((t) => t.name === 'ev_echo') as { description?: string; inputSchema?: unknown };
    expect(sent.description).toBe('Echoes back the input string');
    expect(sent.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
    expect(events.filter((e) => e.type === 'mcp_notification').map((e) => (e as { kind: string }).kind)).toEqual([
      'log',
      'progress',
      'progress',
      'progress',
    ]);
    expect(rt.mcp!.status().map((s) => [s.id, s.state])).toEqual([
      ['ev', 'connected'],
      ['sink', 'connected'],
    ]);
  });

  it('every tool of a server, and the default agent gets every server when the config has no agents', async () => {
    const dir = setup(`${BASE}${SERVERS}`);
    const rt = await load(dir);
    const names = rt.agent().tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['ev_echo', 'ev_get-sum', 'sink_audio', 'sink_read_file']));
    expect(names).not.toContain('sink_crash');
  });

  it('validates MCP references and entries at config time, with file:line', () => {
    const text = `${BASE}tools:\n  ev: { module: ./x.mjs }\nmcp_servers:\n  ev: { command: node }\n  both:\n    command: node\n    url: http://127.0.0.1:1/mcp\n  none: {}\n  remote:\n    url: http://127.0.0.1:1/mcp\n    args: [x]\n  authed:\n    url: http://127.0.0.1:1/mcp\n    auth: { type: basic }\nagents:\n  a:\n    tools: [nope.echo, both, both]\n`;
    const r = validateConfigText(text, { file: 'corvid.yaml' });
    expect(r.issues.map(formatConfigIssue)).toEqual([
      'corvid.yaml:7:3  mcp_servers.ev: "ev" is both a tool module (tools.ev) and an MCP server; give them different ids',
      'corvid.yaml:10:10  mcp_servers.both.url: give either "command" (stdio) or "url" (remote), not both',
      'corvid.yaml:11:9  mcp_servers.none: an MCP server needs "command" (a local stdio server) or "url" (a remote server)',
      'corvid.yaml:14:11  mcp_servers.remote.args: "args" applies only to stdio servers (with "command")',
      'corvid.yaml:17:19  mcp_servers.authed.auth.type: auth is { type: bearer, token } or { type: oauth, ... }',
      'corvid.yaml:20:13  agents.a.tools[0]: unknown tool module "nope" in "nope.echo"; tool modules: "ev"; MCP servers: "ev", "both", "none", "remote", "authed"',
      'corvid.yaml:20:30  agents.a.tools[2]: duplicate MCP server "both": agent "a" already has a tool named "both" (at tools[1])',
    ]);
  });

  it('client_metadata_url (CIMD) must be an https URL with a path; a good one reaches the normalised config', () => {
    const text = `${BASE}mcp_servers:\n  plain:\n    url: http://127.0.0.1:1/mcp\n    auth: { type: oauth, client_metadata_url: http://example.com/client.json }\n  root:\n    url: http://127.0.0.1:1/mcp\n    auth: { type: oauth, client_metadata_url: https://example.com/ }\n`;
    const issues = validateConfigText(text, { file: 'corvid.yaml' }).issues.map(formatConfigIssue);
    expect(issues).toEqual([
      expect.stringMatching(
        /^corvid\.yaml:\d+:\d+ {2}mcp_servers\.plain\.auth\.client_metadata_url: must be an https URL with a path, e\.g\. https:\/\/example\.com\/corvid\/client\.json$/,
      ),
      expect.stringMatching(/^corvid\.yaml:\d+:\d+ {2}mcp_servers\.root\.auth\.client_metadata_url: must be an https URL with a path/),
    ]);
    const good = validateConfigText(
      `${BASE}mcp_servers:\n  r:\n    url: http://127.0.0.1:1/mcp\n    auth: { type: oauth, client_metadata_url: https://example.com/corvid/client.json }\n`,
      { file: 'corvid.yaml' },
    );
    expect(good.issues).toEqual([]);
    expect(good.config?.mcpServers?.r).toMatchObject({
      auth: { type: 'oauth', clientMetadataUrl: 'https://example.com/corvid/client.json' },
    });
  });

  it('a failing server is a warning: the runtime loads and its agents keep their other tools', async () => {
    const dir = setup(`${BASE}${SERVERS}  broken:\n    command: corvid-no-such-binary\nagents:\n  helper:\n    tools: [ev, broken]\n`);
    const warnings: string[] = [];
    const rt = await load(dir, { mcp: { onWarning: (e) => warnings.push(e.message) } });
    expect(rt.agent('helper').tools.map((t) => t.name)).toEqual(['ev_echo', 'ev_get-sum']);
    expect(warnings).toEqual(['MCP server "broken" failed to start: command "corvid-no-such-binary" not found (check "command" and PATH)']);
  });

  it('a tool the server does not have is a warning naming the server and its tools', async () => {
    const dir = setup(`${BASE}${SERVERS}agents:\n  helper:\n    tools: [ev.nope, ev.echo]\n`);
    const warnings: string[] = [];
    const rt = await load(dir, { mcp: { onWarning: (e) => warnings.push(e.message) } });
    expect(rt.agent('helper').tools.map((t) => t.name)).toEqual(['ev_echo']);
    expect(warnings).toEqual(['MCP server "ev" has no tool "nope" (agent "helper"); its tools: echo, get-sum']);
  });

  it('hot reload: reload: watch restarts the server when its file changes; runtime.mcp.reload() and runtime.reload() too', async () => {
    const dir = setup(
      `${BASE}mcp_servers:\n  sink:\n    command: ${NODE}\n    args: [./server.mjs]\n    include: [pid]\n    reload: watch\nagents:\n  helper:\n    tools: [sink]\n`,
    );
    const rt = await load(dir);
    const hub = rt.mcp!;
    const pid1 = hub.connection('sink').pid!;
    expect(alive(pid1)).toBe(true);
    appendFileSync(join(dir, 'server.mjs'), '\n// edited\n');
    await until(() => hub.connection('sink').pid !== undefined && hub.connection('sink').pid !== pid1, 'the watched server to restart');
    const pid2 = hub.connection('sink').pid!;
    await until(() => !alive(pid1), 'the old process to end');
    // The agent's tool still works, on the new process.
    const call = (await rt.agent('helper').tools[0].execute({}, { signal: new AbortController().signal } as never)) as string;
    expect(call).toBe(String(pid2));

    await hub.reload('sink');
    const pid3 = hub.connection('sink').pid!;
    expect(pid3).not.toBe(pid2);

    await rt.reload();
    expect(rt.agent('helper').tools.map((t) => t.name)).toEqual(['sink_pid']);
    const pid4 = hub.connection('sink').pid!;
    expect(pid4).not.toBe(pid3);
    await rt.close();
    await until(() => ![pid1, pid2, pid3, pid4].some(alive), 'every server process to end');
  });

  it('a config error still fails loading with file:line', async () => {
    const dir = setup(`${BASE}mcp_servers:\n  ev:\n    command: node\n    include: echo\n`);
    const err = await loadRuntime({ cwd: dir, env: {}, dotenv: false }).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toMatch(/corvid\.yaml:7:14 +mcp_servers\.ev\.include: /);
  });
});
