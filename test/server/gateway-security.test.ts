/**
 * The tool gateway of `corvid serve` (`GET /tools`, `POST /execute`, `/mcp`) as an attacker with
 * a second key would try it: a real server with three API keys — A and B (no scopes) and C (only
 * `read`) — the built-in file tools over a temporary workspace, the memory tools and
 * `search_conversations` on SQLite, an agent served as a tool, and a fake model server behind the
 * chat turns and A2A messages that create A's conversations. Every call runs as its caller: B and
 * C never see A's messages or memories, C changes no file, an MCP session belongs to whoever
 * opened it, and the access log has the status actually sent.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningServer, serve } from '../../src/server/app/serve.js';
import { hashApiKey } from '../../src/server/auth/api-keys.js';
import { fakeModel } from '../cli/cli-harness.js';
import { type FakeLlmServer, type RecordedRequest, startFakeLlmServer } from '../support/fake-llm-server.js';
import { LogSink } from './helpers.js';

const KEYS = { A: 'cvd_gateway_key_a_0123456789', B: 'cvd_gateway_key_b_0123456789', C: 'cvd_gateway_key_c_0123456789' };
type Who = keyof typeof KEYS;
const SECRET_CHAT = 'PELICAN-4711';
const SECRET_A2A = 'OSPREY-0815';
const SECRET_MEMORY = 'HERON-2468';
const ORIGINAL = 'original text of the workspace file\n';
const TOOLS = [
  'read_file',
  'write_file',
  'edit_file',
  'multi_edit',
  'list_dir',
  'glob',
  'grep',
  'search_files',
  'save_memory',
  'get_memories',
  'search_memories',
  'search_conversations',
  'helper',
].sort();
/** Arguments that would change the workspace file, or read something, for each tool. */
const ARGS: Record<string, unknown> = {
  read_file: { path: 'notes.txt' },
  write_file: { path: 'notes.txt', content: 'pwned\n' },
  edit_file: { path: 'notes.txt', old_string: 'original', new_string: 'pwned' },
  multi_edit: { path: 'notes.txt', edits: [{ old_string: 'original', new_string: 'pwned' }] },
  list_dir: { path: '.' },
  glob: { pattern: '**/*' },
  grep: { pattern: 'original' },
  search_files: { pattern: 'original' },
  save_memory: { key: 'probe', value: 'probe' },
  get_memories: {},
  search_memories: { query: SECRET_MEMORY },
  search_conversations: { query: 'PELICAN OSPREY' },
  helper: { message: 'search PELICAN OSPREY' },
};

/** The text of the last message of a Chat Completions request, and its role. */
function lastMessage(req: RecordedRequest): { role: string; text: string } {
  const m = (req.body?.messages ?? []).at(-1) ?? {};
  const text = typeof m.content === 'string' ? m.content : (m.content ?? []).map((p: { text?: string }) => p.text ?? '').join('');
  return { role: m.role, text };
}

/**
 * The model: "search <words>" calls search_conversations; a tool result is answered with its
 * text (so what the tool found reaches the caller); anything else is acknowledged.
 */
function model(req: RecordedRequest) {
  const last = lastMessage(req);
  if (last.role === 'tool') return { text: `found: ${last.text}` };
  const search = /^search (.+)$/.exec(last.text);
  if (search) return { toolCalls: [{ name: 'search_conversations', arguments: { query: search[1] } }] };
  return { text: 'noted' };
}

function configText(llm: string, auth: string, moreAgents = ''): string {
  return `models:
${fakeModel(llm)}defaults:
  model: fake
storage:
  driver: sqlite
  path: ./corvid.db
tools:
  workspace:
    type: files
    root: ./ws
agents:
  helper:
    model: fake
    tools: [workspace, save_memory, get_memories, search_memories, search_conversations]
${moreAgents}${auth}`;
}

const AUTH = `server:
  auth:
    api_keys:
      - { name: a, hash: "${hashApiKey(KEYS.A)}" }
      - { name: b, hash: "${hashApiKey(KEYS.B)}" }
      - { name: c, hash: "${hashApiKey(KEYS.C)}", scopes: [read] }
`;

interface Setup {
  dir: string;
  server: RunningServer;
  logs: LogSink;
}

async function startGateway(llm: FakeLlmServer, auth: string, moreAgents = ''): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-gateway-'));
  mkdirSync(join(dir, 'ws'));
  writeFileSync(join(dir, 'ws', 'notes.txt'), ORIGINAL);
  writeFileSync(join(dir, 'corvid.yaml'), configText(llm.url, auth, moreAgents));
  const logs = new LogSink();
  const server = await serve({ load: { cwd: dir, configPath: 'corvid.yaml', env: {} }, port: 0, logDestination: logs });
  return { dir, server, logs };
}

const headersOf = (who: Who | undefined): Record<string, string> => ({
  'content-type': 'application/json',
  ...(who ? { 'x-api-key': KEYS[who] } : {}),
});

async function execute(url: string, who: Who | undefined, tool: string, args: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/execute`, { method: 'POST', headers: headersOf(who), body: JSON.stringify({ tool, arguments: args }) });
  return { status: res.status, body: await res.json() };
}

async function mcpClient(url: string, who: Who | undefined): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: `attacker-${who ?? 'anonymous'}`, version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: who ? { 'x-api-key': KEYS[who] } : {} },
  });
  await client.connect(transport);
  return { client, transport };
}

/** The text of an MCP tool result, or of the error the call threw. */
async function mcpCall(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  try {
    const r = await client.callTool({ name, arguments: args });
    const text = (r.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
    return { isError: r.isError === true, text };
  } catch (err) {
    return { isError: true, text: (err as Error).message };
  }
}

async function chat(url: string, who: Who, message: string): Promise<void> {
  const res = await fetch(`${url}/api/v1/agents/helper/chat`, {
    method: 'POST',
    headers: headersOf(who),
    body: JSON.stringify({ message }),
  });
  expect(res.status).toBe(200);
}

async function a2aMessage(url: string, who: Who, text: string): Promise<void> {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: { message: { kind: 'message', messageId: `m-${Date.now()}`, role: 'user', parts: [{ kind: 'text', text }] } },
  };
  const res = await fetch(`${url}/a2a/helper`, { method: 'POST', headers: headersOf(who), body: JSON.stringify(body) });
  expect((await res.json()).result.status.state).toBe('completed');
}

const secretsIn = (text: string) => [SECRET_CHAT, SECRET_A2A, SECRET_MEMORY].filter((s) => text.includes(s));

describe('the tool gateway of corvid serve with three API keys', () => {
  let llm: FakeLlmServer;
  let s: Setup;
  let url: string;
  const notes = () => readFileSync(join(s.dir, 'ws', 'notes.txt'), 'utf8');

  beforeAll(async () => {
    llm = await startFakeLlmServer(model);
    s = await startGateway(llm, AUTH);
    url = s.server.url;
    // A's conversations: a chat turn and an A2A message, and a memory saved through the gateway.
    await chat(url, 'A', `remember the code word ${SECRET_CHAT}`);
    await a2aMessage(url, 'A', `the A2A code word is ${SECRET_A2A}`);
    const saved = await execute(url, 'A', 'save_memory', { key: 'code', value: `A's memory ${SECRET_MEMORY}` });
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await s?.server.close();
    await llm?.close();
    if (s) rmSync(s.dir, { recursive: true, force: true });
  });

  it('lists every tool of the config to each key, C (read) included', async () => {
    for (const who of ['A', 'B', 'C'] as const) {
      const res = await fetch(`${url}/tools`, { headers: headersOf(who) });
      expect(res.status).toBe(200);
      expect((await res.json()).tools.map((t: { name: string }) => t.name).sort()).toEqual(TOOLS);
    }
  });

  it('runs /execute as its caller: A finds its own messages and memory, B finds none of them through any tool', async () => {
    const own = await execute(url, 'A', 'search_conversations', { query: 'PELICAN OSPREY' });
    expect(secretsIn(JSON.stringify(own.body))).toEqual([SECRET_CHAT, SECRET_A2A]);
    expect(secretsIn(JSON.stringify((await execute(url, 'A', 'get_memories', {})).body))).toEqual([SECRET_MEMORY]);
    expect((await execute(url, 'A', 'helper', ARGS.helper)).body.result).toContain(SECRET_CHAT);

    for (const tool of TOOLS) {
      if (['write_file', 'edit_file', 'multi_edit', 'save_memory'].includes(tool)) continue;
      const res = await execute(url, 'B', tool, ARGS[tool]);
      expect({ tool, status: res.status }).toEqual({ tool, status: 200 });
      expect({ tool, leaked: secretsIn(JSON.stringify(res.body)) }).toEqual({ tool, leaked: [] });
    }
    // B's memory stays B's: A does not read it back, and B's save did not touch A's.
    await execute(url, 'B', 'save_memory', { key: 'code', value: 'B memory KESTREL' });
    expect(JSON.stringify((await execute(url, 'A', 'get_memories', {})).body)).not.toContain('KESTREL');
    expect(secretsIn(JSON.stringify((await execute(url, 'A', 'get_memories', {})).body))).toEqual([SECRET_MEMORY]);
  });

  it('refuses every tool call of C (read scope) on /execute with 403, naming the scopes; no file changes', async () => {
    for (const tool of TOOLS) {
      const res = await execute(url, 'C', tool, ARGS[tool]);
      expect({ tool, status: res.status, type: res.body.error?.type }).toEqual({ tool, status: 403, type: 'forbidden' });
      expect(res.body.error.message).toBe('Calling a tool needs one of the scopes admin, tools:call, mcp:call; this credential has read');
    }
    expect(notes()).toBe(ORIGINAL);
    // Nothing C tried was saved either.
    expect(JSON.stringify((await execute(url, 'A', 'get_memories', {})).body)).not.toContain('probe');
  });

  it('runs /mcp as its caller: B reads nothing of A through any tool, C calls nothing', async () => {
    const a = await mcpClient(url, 'A');
    const b = await mcpClient(url, 'B');
    const c = await mcpClient(url, 'C');
    try {
      expect(secretsIn((await mcpCall(a.client, 'search_conversations', { query: 'PELICAN OSPREY' })).text)).toEqual([
        SECRET_CHAT,
        SECRET_A2A,
      ]);
      expect(secretsIn((await mcpCall(a.client, 'get_memories', {})).text)).toEqual([SECRET_MEMORY]);
      for (const tool of TOOLS) {
        const args = ARGS[tool] as Record<string, unknown>;
        if (!['write_file', 'edit_file', 'multi_edit', 'save_memory'].includes(tool)) {
          const got = await mcpCall(b.client, tool, args);
          expect({ tool, isError: got.isError, leaked: secretsIn(got.text) }).toEqual({ tool, isError: false, leaked: [] });
        }
        const refused = await mcpCall(c.client, tool, args);
        expect({ tool, isError: refused.isError }).toEqual({ tool, isError: true });
        expect(refused.text).toMatch(
          /^MCP error -32003: .*Calling a tool needs one of the scopes admin, tools:call, mcp:call; this credential has read$/,
        );
      }
      expect((await c.client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
      expect(notes()).toBe(ORIGINAL);
    } finally {
      await Promise.all([a.client.close(), b.client.close(), c.client.close()]);
    }
  });

  it("answers 404 to another key presenting an MCP session's id, and runs nothing in it", async () => {
    const a = await mcpClient(url, 'A');
    try {
      const sessionId = a.transport.sessionId!;
      expect(sessionId).toBeTruthy();
      const call = {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'search_conversations', arguments: { query: 'PELICAN' } },
      };
      const hijack = (init: RequestInit) =>
        fetch(`${url}/mcp`, {
          ...init,
          headers: {
            ...headersOf('B'),
            accept: 'application/json, text/event-stream',
            'mcp-session-id': sessionId,
            'mcp-protocol-version': '2025-06-18',
          },
        });
      for (const init of [{ method: 'POST', body: JSON.stringify(call) }, { method: 'GET' }, { method: 'DELETE' }]) {
        const res = await hijack(init);
        const text = await res.text();
        expect({ method: init.method, status: res.status }).toEqual({ method: init.method, status: 404 });
        expect(text).toContain('Unknown or expired session');
        expect(secretsIn(text)).toEqual([]);
      }
      // The session still works for A (B's DELETE did not end it).
      expect(secretsIn((await mcpCall(a.client, 'search_conversations', { query: 'PELICAN' })).text)).toEqual([SECRET_CHAT]);
    } finally {
      await a.client.close();
    }
  });

  it('refuses callers without a credential on every gateway route', async () => {
    expect((await fetch(`${url}/tools`)).status).toBe(401);
    expect((await execute(url, undefined, 'read_file', ARGS.read_file)).status).toBe(401);
    const init = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(init.status).toBe(401);
  });

  it('logs the status actually sent for an A2A v0.3 REST answer', async () => {
    const path = '/a2a/helper/rest/v1/tasks/no-such-task';
    const res = await fetch(`${url}${path}`, { headers: headersOf('A') });
    expect(res.status).toBe(404);
    await res.text();
    const line = await s.logs.waitFor((l) => l.msg === 'request' && l.path === path);
    expect(line.status).toBe(404);
  });
});

describe('the tool gateway of corvid serve made public, and without auth', () => {
  let llm: FakeLlmServer;
  beforeAll(async () => {
    llm = await startFakeLlmServer(model);
  });
  afterAll(() => llm?.close());

  it('with auth on, serves anonymous callers on public gateway paths only the tools that need no user', async () => {
    const s = await startGateway(llm, `${AUTH}    public_paths: [/health, /tools, /execute, /mcp]\n`);
    try {
      const url = s.server.url;
      await chat(url, 'A', `remember the code word ${SECRET_CHAT}`);
      expect((await execute(url, undefined, 'read_file', ARGS.read_file)).body.result.content).toContain('original text');
      for (const tool of ['search_conversations', 'get_memories', 'search_memories', 'save_memory', 'helper']) {
        const res = await execute(url, undefined, tool, ARGS[tool]);
        expect({ tool, status: res.status, type: res.body.error?.type }).toEqual({ tool, status: 403, type: 'forbidden' });
        expect(res.body.error.message).toMatch(/needs an identified caller: send a credential/);
        expect(secretsIn(JSON.stringify(res.body))).toEqual([]);
      }
      const anon = await mcpClient(url, undefined);
      try {
        const got = await mcpCall(anon.client, 'search_conversations', { query: 'PELICAN' });
        expect(got.isError).toBe(true);
        expect(got.text).toMatch(/needs an identified caller/);
        expect(secretsIn(got.text)).toEqual([]);
      } finally {
        await anon.client.close();
      }
    } finally {
      await s.server.close();
      rmSync(s.dir, { recursive: true, force: true });
    }
  });

  it('with auth on, an anonymous chat on a public path cannot speak for a user nor reach user data', async () => {
    const paths = '[/health, /api/v1/agents/helper/chat, /api/v1/agents/plain/chat, /api/v1/runs, /api/v1/sessions]';
    const plain = `  plain:\n    model: fake\n`;
    const s = await startGateway(llm, `${AUTH}    public_paths: ${paths}\n`, plain);
    try {
      const url = s.server.url;
      await chat(url, 'A', `remember the code word ${SECRET_CHAT}`);
      // helper has search_conversations and the memory tools: refused before anything runs.
      for (const body of [{ message: 'search PELICAN' }, { message: 'search PELICAN', userId: 'key:a' }]) {
        const res = await fetch(`${url}/api/v1/agents/helper/chat`, {
          method: 'POST',
          headers: headersOf(undefined),
          body: JSON.stringify(body),
        });
        const text = await res.text();
        expect({ status: res.status, secrets: secretsIn(text) }).toEqual({ status: 401, secrets: [] });
        expect(text).toMatch(/needs a credential/);
      }
      const queued = await fetch(`${url}/api/v1/runs`, {
        method: 'POST',
        headers: headersOf(undefined),
        body: JSON.stringify({ agent: 'helper', input: 'search PELICAN' }),
      });
      expect(queued.status).toBe(401);
      // An agent without such tools answers, and the body's userId does not make the session A's.
      const res = await fetch(`${url}/api/v1/agents/plain/chat`, {
        method: 'POST',
        headers: headersOf(undefined),
        body: JSON.stringify({ message: 'hello', userId: 'key:a' }),
      });
      expect(res.status).toBe(200);
      const own = await fetch(`${url}/api/v1/sessions?agent=plain`, { headers: headersOf('A') });
      expect((await own.json()).sessions).toEqual([]);
    } finally {
      await s.server.close();
      rmSync(s.dir, { recursive: true, force: true });
    }
  });

  it('without auth, keeps the documented shared behaviour: every caller is the same user', async () => {
    const s = await startGateway(llm, '');
    try {
      const url = s.server.url;
      const turn = await fetch(`${url}/api/v1/agents/helper/chat`, {
        method: 'POST',
        headers: headersOf(undefined),
        body: JSON.stringify({ message: `remember the code word ${SECRET_CHAT}` }),
      });
      expect(turn.status).toBe(200);
      expect(secretsIn(JSON.stringify((await execute(url, undefined, 'search_conversations', { query: 'PELICAN' })).body))).toEqual([
        SECRET_CHAT,
      ]);
      await execute(url, undefined, 'save_memory', { key: 'k', value: `shared ${SECRET_MEMORY}` });
      const client = await mcpClient(url, undefined);
      try {
        expect(secretsIn((await mcpCall(client.client, 'get_memories', {})).text)).toEqual([SECRET_MEMORY]);
        expect((await mcpCall(client.client, 'edit_file', ARGS.edit_file as Record<string, unknown>)).isError).toBe(false);
      } finally {
        await client.client.close();
      }
      expect(readFileSync(join(s.dir, 'ws', 'notes.txt'), 'utf8')).toBe('pwned text of the workspace file\n');
    } finally {
      await s.server.close();
      rmSync(s.dir, { recursive: true, force: true });
    }
  });
});
