/**
 * An anonymous caller cannot tell an internal agent from one that does not exist: every path
 * answers both the same way (status, content type and body, but for the name), on the default
 * public paths and with every path public. Callers with a credential reach internal agents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import type { AgentConfig } from '../../src/config/corvid-config.js';
import type { RunningServer } from '../../src/server/app/serve.js';
import { runtimeOf } from '../../src/server/app/served-runtime.js';
import { hashApiKey } from '../../src/server/auth/api-keys.js';
import { scriptedAgent, startServer } from './helpers.js';

const KEY = 'cvd_enum_key_0123456789';
const agentConfig = (name: string, visibility: AgentConfig['visibility']): AgentConfig => ({ name, tools: [], agentTools: [], visibility });
const v03Send = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'message/send',
  params: { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } },
});
const v1Send = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'SendMessage',
  params: { message: { messageId: 'm2', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
});
const restSend = JSON.stringify({ message: { messageId: 'm3', role: 'ROLE_USER', parts: [{ text: 'hi' }] } });
const json = { 'content-type': 'application/json' };

/** Each request an anonymous caller could probe an agent with: path for agent `n`, and init. */
const PROBES: Array<[string, (n: string) => string, RequestInit]> = [
  ['card', (n) => `/agents/${n}/.well-known/agent-card.json`, {}],
  ['card v1.0', (n) => `/agents/${n}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } }],
  ['JSON-RPC v0.3', (n) => `/a2a/${n}`, { method: 'POST', headers: json, body: v03Send }],
  ['JSON-RPC v1.0', (n) => `/a2a/${n}`, { method: 'POST', headers: { ...json, 'A2A-Version': '1.0' }, body: v1Send }],
  ['REST v1.0 send', (n) => `/a2a/${n}/rest/message:send`, { method: 'POST', headers: { ...json, 'A2A-Version': '1.0' }, body: restSend }],
  ['REST v1.0 task', (n) => `/a2a/${n}/rest/tasks/t1`, { headers: { 'A2A-Version': '1.0' } }],
  ['REST v0.3 send', (n) => `/a2a/${n}/rest/v1/message:send`, { method: 'POST', headers: json, body: v03Send }],
  ['chat', (n) => `/api/v1/agents/${n}/chat`, { method: 'POST', headers: json, body: '{"message":"hi"}' }],
  ['agent info', (n) => `/api/v1/agents/${n}`, {}],
];

async function seen(res: Response, name: string) {
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    www: res.headers.get('www-authenticate'),
    body: (await res.text()).replaceAll(name, '<agent>'),
  };
}

/** Probes the internal agent `ops` and the unknown `opz` the same way; both answers must be equal. */
async function expectSameAsUnknown(url: string, headers: Record<string, string> = {}): Promise<Map<string, number>> {
  const statuses = new Map<string, number>();
  for (const [what, path, init] of PROBES) {
    const withHeaders = { ...init, headers: { ...(init.headers as Record<string, string>), ...headers } };
    const internal = await seen(await fetch(`${url}${path('ops')}`, withHeaders), 'ops');
    const unknown = await seen(await fetch(`${url}${path('opz')}`, withHeaders), 'opz');
    expect({ what, ...internal }).toEqual({ what, ...unknown });
    expect(internal.body).not.toMatch(/internal/i);
    statuses.set(what, internal.status);
  }
  return statuses;
}

/** The status of a WebSocket upgrade to agent `name` (101 when it opens). */
function upgrade(url: string, name: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/v1/agents/${name}/ws`, { headers });
    ws.once('open', () => (ws.close(), resolve(101)));
    ws.once('unexpected-response', (_req, res) => (resolve(res.statusCode ?? 0), res.resume(), ws.terminate()));
    ws.once('error', reject);
  });
}

describe.each([
  ['the default public paths', undefined],
  ['every path public', ['/**']],
])('internal agents to anonymous callers, with %s', (_label, publicPaths) => {
  let server: RunningServer;
  let url: string;

  beforeAll(async () => {
    const agents = ['helper', 'ops', 'secret'].map((n) => scriptedAgent(n, { text: `${n} here` }));
    const runtime = runtimeOf(agents, {
      config: {
        agents: { helper: agentConfig('helper', 'public'), ops: agentConfig('ops', 'internal'), secret: agentConfig('secret', 'private') },
      },
    });
    ({ server, url } = await startServer([], {
      runtime,
      server: { auth: { apiKeys: [{ name: 'ci', hash: hashApiKey(KEY) }], ...(publicPaths ? { publicPaths } : {}) } },
    }));
  });
  afterAll(() => server?.close());

  it('answers every probe of an internal agent exactly like one of an unknown agent', async () => {
    const statuses = await expectSameAsUnknown(url);
    // The card paths are public by default: 404 there, 401 on the rest (the same 401 an unknown agent gets).
    expect(statuses.get('card')).toBe(404);
    expect(statuses.get('JSON-RPC v0.3')).toBe(publicPaths ? 404 : 401);
    expect(statuses.get('chat')).toBe(publicPaths ? 404 : 401);
    expect(await upgrade(url, 'ops')).toBe(await upgrade(url, 'opz'));
    // A wrong credential gets the same 401 for both.
    await expectSameAsUnknown(url, { 'x-api-key': 'cvd_wrong' });
  });

  it('serves internal agents to callers with a credential', async () => {
    const auth = { 'x-api-key': KEY };
    const card = await fetch(`${url}/agents/ops/.well-known/agent-card.json`, { headers: auth });
    expect((await card.json()).name).toBe('ops');
    const rpc = await fetch(`${url}/a2a/ops`, { method: 'POST', headers: { ...json, ...auth }, body: v03Send });
    expect((await rpc.json()).result.status.state).toBe('completed');
    const turn = await fetch(`${url}/api/v1/agents/ops/chat`, { method: 'POST', headers: { ...json, ...auth }, body: '{"message":"hi"}' });
    expect((await turn.json()).answer).toBe('ops here');
    expect(await upgrade(url, 'ops', auth)).toBe(101);
    // Private agents stay unknown to everyone.
    expect((await fetch(`${url}/agents/secret/.well-known/agent-card.json`, { headers: auth })).status).toBe(404);
  });
});
