import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { AgentConfig } from '../../src/config/corvid-config.js';
import type { RunningServer } from '../../src/server/app/serve.js';
import { runtimeOf } from '../../src/server/app/served-runtime.js';
import { hashApiKey } from '../../src/server/auth/api-keys.js';
import { chat, scriptedAgent, startServer } from './helpers.js';

const ISSUER = 'https://issuer.test';
const AUDIENCE = 'corvid-api';
const API_KEY = 'cvd_test_key_0123456789';

const agentConfig = (name: string, visibility: AgentConfig['visibility']): AgentConfig => ({ name, tools: [], agentTools: [], visibility });

describe('authentication, visibility and rate limits', () => {
  let jwks: Server;
  let jwksUrl: string;
  let key: CryptoKey;
  let otherKey: CryptoKey;
  let server: RunningServer;
  let url: string;

  const token = (
    claims: Record<string, unknown> = {},
    options: { key?: CryptoKey; kid?: string; alg?: string; exp?: string | number; iss?: string; aud?: string } = {},
  ) => {
    const jwt = new SignJWT({ sub: 'user-1', ...claims })
      .setProtectedHeader({ alg: options.alg ?? 'ES256', kid: options.kid ?? 'k1' })
      .setIssuer(options.iss ?? ISSUER)
      .setAudience(options.aud ?? AUDIENCE)
      .setIssuedAt();
    jwt.setExpirationTime(options.exp ?? '5m');
    return jwt.sign(options.key ?? key);
  };

  beforeAll(async () => {
    ({ privateKey: key } = await generateKeyPair('ES256'));
    ({ privateKey: otherKey } = await generateKeyPair('ES256'));
    const pub = await exportJWK((await import('node:crypto')).createPublicKey(key as unknown as import('node:crypto').KeyObject));
    const jwk: JWK = { ...pub, kid: 'k1', alg: 'ES256', use: 'sig' };
    jwks = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
    jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
    const agents = ['helper', 'ops', 'secret', 'limited'].map((n) =>
      scriptedAgent(n, { text: `${n} here`, usage: { inputTokens: 40, outputTokens: 20 } }),
    );
    const runtime = runtimeOf(agents, {
      config: {
        agents: {
          helper: agentConfig('helper', 'public'),
          ops: agentConfig('ops', 'internal'),
          secret: agentConfig('secret', 'private'),
          limited: agentConfig('limited', 'public'),
        },
      },
    });
    ({ server, url } = await startServer([], {
      runtime,
      server: {
        auth: {
          jwt: { jwksUrl, issuer: ISSUER, audience: AUDIENCE, algorithms: ['ES256'] },
          apiKeys: [{ name: 'ci', hash: hashApiKey(API_KEY) }],
        },
      },
    }));
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((r) => jwks.close(r));
  });

  it('accepts a valid JWT and a valid API key (bearer or x-api-key)', async () => {
    const res = await chat(url, 'helper', { message: 'hi' }, { authorization: `Bearer ${await token()}` });
    expect(res.status).toBe(200);
    expect((await res.json()).answer).toBe('helper here');
    expect((await chat(url, 'helper', { message: 'hi' }, { authorization: `Bearer ${API_KEY}` })).status).toBe(200);
    expect((await chat(url, 'helper', { message: 'hi' }, { 'x-api-key': API_KEY })).status).toBe(200);
  });

  it('answers 401 for every bad token, naming the reason', async () => {
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'x', iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 300 })).toString('base64url')}.`;
    const cases: Array<[string, string, RegExp]> = [
      ['no token', '', /Authentication required/],
      ['expired', await token({}, { exp: Math.floor(Date.now() / 1000) - 60 }), /expired/],
      ['wrong audience', await token({}, { aud: 'someone-else' }), /"aud" claim/],
      ['wrong issuer', await token({}, { iss: 'https://evil.test' }), /"iss" claim/],
      ['wrong key', await token({}, { key: otherKey }), /signature/],
      ['alg none', none, /not a valid JWT|algorithm/],
      ['unknown kid', await token({}, { kid: 'k-unknown' }), /no key of the JWKS/],
      ['bad API key', 'cvd_not_the_key', /Invalid/],
    ];
    for (const [name, t, reason] of cases) {
      const res = await chat(url, 'helper', { message: 'hi' }, t ? { authorization: `Bearer ${t}` } : {});
      const body = await res.json();
      expect({ name, status: res.status, www: res.headers.get('www-authenticate')?.startsWith('Bearer') }).toEqual({
        name,
        status: 401,
        www: true,
      });
      expect(body.error.message).toMatch(reason);
    }
    const malformed = await chat(url, 'helper', { message: 'hi' }, { authorization: 'Basic abc' });
    expect(malformed.status).toBe(401);
  });

  it('keeps /health, /ready and the agent card open, everything else closed', async () => {
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect((await fetch(`${url}/ready`)).status).toBe(200);
    expect((await fetch(`${url}/health`, { headers: { authorization: 'Bearer garbage' } })).status).toBe(200);
    expect((await fetch(`${url}/api/v1/agents`)).status).toBe(401);
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    expect((await fetch(`${url}/api/v1/sessions`)).status).toBe(401);
  });

  it('applies visibility: private is 404 everywhere, internal needs a token and is listed only to callers with one', async () => {
    const auth = { authorization: `Bearer ${API_KEY}` };
    const listed = await (await fetch(`${url}/api/v1/agents`, { headers: auth })).json();
    expect(listed.agents.map((a: { name: string }) => a.name)).toEqual(['helper', 'ops', 'limited']);
    const secret = await chat(url, 'secret', { message: 'hi' }, auth);
    expect(secret.status).toBe(404);
    expect((await secret.json()).error.message).not.toContain('secret,');
    expect((await fetch(`${url}/api/v1/agents/secret`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${url}/agents/secret/.well-known/agent-card.json`)).status).toBe(404);
    expect((await chat(url, 'ops', { message: 'hi' }, auth)).status).toBe(200);
    // The card paths are public, but an internal agent's card still needs a token: without one it
    // answers exactly like an unknown agent's (see also test/server/agent-enumeration.test.ts).
    expect((await fetch(`${url}/agents/ops/.well-known/agent-card.json`)).status).toBe(404);
    expect((await fetch(`${url}/agents/ops/.well-known/agent-card.json`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${url}/agents/helper/.well-known/agent-card.json`)).status).toBe(200);
    // A2A discovery: GET /agents lists internal agents only to callers with a token, never private ones.
    const cards = async (headers: Record<string, string>) =>
      ((await (await fetch(`${url}/agents`, { headers })).json()) as { agents: { name: string }[] }).agents.map((a) => a.name).sort();
    expect(await cards(auth)).toEqual(['helper', 'limited', 'ops']);
    expect((await fetch(`${url}/agents`)).status).toBe(401);
  });

  it('serves the A2A extended agent card to callers with a token, and says so on the public card', async () => {
    const auth = { authorization: `Bearer ${API_KEY}` };
    const card = await (await fetch(`${url}/agents/helper/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json();
    expect(card.capabilities.extendedAgentCard).toBe(true);
    expect((await (await fetch(`${url}/agents/helper/.well-known/agent-card.json`)).json()).supportsAuthenticatedExtendedCard).toBe(true);
    const ask = (headers: Record<string, string>) =>
      fetch(`${url}/a2a/helper`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard' }),
      });
    expect((await ask({})).status).toBe(401);
    const extended = await (await ask(auth)).json();
    expect(extended.result).toMatchObject({
      name: 'helper',
      capabilities: { extendedAgentCard: true },
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    });
  });

  it('keeps sessions per user: another user cannot read them', async () => {
    const a = await (await chat(url, 'helper', { message: 'mine' }, { authorization: `Bearer ${await token({ sub: 'alice' })}` })).json();
    const bob = { authorization: `Bearer ${await token({ sub: 'bob' })}` };
    expect((await fetch(`${url}/api/v1/sessions/${a.sessionId}`, { headers: bob })).status).toBe(404);
    expect((await chat(url, 'helper', { message: 'x', sessionId: a.sessionId }, bob)).status).toBe(404);
    const alice = { authorization: `Bearer ${await token({ sub: 'alice' })}` };
    const list = await (await fetch(`${url}/api/v1/sessions`, { headers: alice })).json();
    expect(list.sessions.map((s: { id: string; userId: string }) => [s.id, s.userId])).toEqual([[a.sessionId, 'alice']]);
  });
});

describe('internal agents without auth configured', () => {
  it('cannot be reached at all (they answer like unknown agents), public ones can', async () => {
    const runtime = runtimeOf([scriptedAgent('pub'), scriptedAgent('int')], {
      config: { agents: { int: agentConfig('int', 'internal') } },
    });
    const { server, url, logs } = await startServer([], { runtime });
    try {
      expect((await chat(url, 'pub', { message: 'x' })).status).toBe(200);
      const res = await chat(url, 'int', { message: 'x' });
      expect(res.status).toBe(404);
      const unknown = await chat(url, 'nobody', { message: 'x' });
      expect((await res.json()).error).toEqual({
        ...(await unknown.json()).error,
        message: expect.stringMatching(/^Unknown agent "int"\. Available agents: pub$/),
      });
      // The operator is told at start-up.
      expect(logs.lines.some((l) => String(l.msg).includes('internal agents (int) cannot be reached over HTTP without server.auth'))).toBe(
        true,
      );
      expect((await (await fetch(`${url}/api/v1/agents`)).json()).agents.map((a: { name: string }) => a.name)).toEqual(['pub']);
    } finally {
      await server.close();
    }
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After once a client used its requests, per client', async () => {
    const { server, url } = await startServer([scriptedAgent('helper')], {
      server: {
        auth: {
          apiKeys: [
            { name: 'a', hash: hashApiKey('key-a') },
            { name: 'b', hash: hashApiKey('key-b') },
          ],
        },
        rateLimit: { requestsPerMinute: 3, by: 'key' },
      },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await chat(url, 'helper', { message: 'x' }, { 'x-api-key': 'key-a' })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await chat(url, 'helper', { message: 'x' }, { 'x-api-key': 'key-a' });
      expect(limited.status).toBe(429);
      const retry = Number(limited.headers.get('retry-after'));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(60);
      expect((await limited.json()).error).toMatchObject({
        code: 'rate_limited',
        message: expect.stringContaining('3 requests per minute'),
      });
      expect((await chat(url, 'helper', { message: 'x' }, { 'x-api-key': 'key-b' })).status).toBe(200);
      expect((await fetch(`${url}/health`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('limits model tokens per hour', async () => {
    const agent = scriptedAgent('helper', { text: 'ok', usage: { inputTokens: 60, outputTokens: 40 } });
    const { server, url } = await startServer([agent], { server: { rateLimit: { tokensPerHour: 150, by: 'ip' } } });
    try {
      expect((await chat(url, 'helper', { message: 'x' })).status).toBe(200);
      expect((await chat(url, 'helper', { message: 'x' })).status).toBe(200);
      const res = await chat(url, 'helper', { message: 'x' });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(60);
      expect((await res.json()).error.message).toContain('150 model tokens per hour');
    } finally {
      await server.close();
    }
  });
});
