import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { tool } from '../../src/core/tool.js';
import {
  clientMetadataDocument,
  createMcpServer,
  McpError,
  McpHub,
  type McpServerConfig,
  MemoryTokenStore,
  serveMcpHttp,
} from '../../src/mcp/index.js';
import { FIXTURES, freePort, MODULES, until } from './support.js';

/** Starts a server script and resolves once `probe` answers. */
async function start(args: string[], env: NodeJS.ProcessEnv, probe: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited: ${err}`);
      return fetch(probe).then(
        (r) => r.status < 500,
        () => false,
      );
    },
    `${probe} to answer`,
    10_000,
  );
  return child;
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** The browser step, scripted: follow the authorization URL without redirects, deliver the redirect to the callback. */
function scriptedBrowser() {
  const seen = { urls: [] as URL[], pages: [] as Array<{ status: number; text: string }> };
  const open = async (url: string): Promise<void> => {
    seen.urls.push(new URL(url));
    const res = await fetch(url, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (!location) throw new Error(`no redirect from the authorization endpoint (HTTP ${res.status})`);
    const page = await fetch(location);
    seen.pages.push({ status: page.status, text: await page.text() });
  };
  return { open, seen };
}

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.close()));
});

describe('OAuth 2.1 against the SDK example server (simpleStreamableHttp.js --oauth)', () => {
  let child: ChildProcess;
  let mcpPort: number;
  beforeAll(async () => {
    mcpPort = await freePort();
    const authPort = await freePort();
    child = await start(
      [join(MODULES, 'sdk', 'dist', 'esm', 'examples', 'server', 'simpleStreamableHttp.js'), '--oauth'],
      { MCP_PORT: String(mcpPort), MCP_AUTH_PORT: String(authPort) },
      `http://localhost:${mcpPort}/.well-known/oauth-protected-resource/mcp`,
    );
  });
  afterAll(() => stop(child));

  it('discovers, registers, authorizes with PKCE S256 and the resource parameter, stores the tokens, and calls tools', async () => {
    const store = new MemoryTokenStore();
    const browser = scriptedBrowser();
    const url = `http://localhost:${mcpPort}/mcp`;
    const config: McpServerConfig = { transport: 'http', url, auth: { type: 'oauth', callbackPort: await freePort() } };
    const hub = new McpHub({ servers: { demo: config }, tokenStore: store, openUrl: browser.open });
    hubs.push(hub);
    const tools = await hub.listTools('demo');
    expect(tools.map((t) => t.name)).toContain('greet');
    const [auth] = browser.seen.urls;
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(auth.searchParams.get('resource')).toBe(url);
    expect(auth.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(auth.searchParams.get('client_id')).toBeTruthy();
    expect(browser.seen.pages).toEqual([{ status: 200, text: expect.stringContaining('Authorization complete') }]);
    const saved = await store.get(url);
    expect(saved?.tokens).toMatchObject({ access_token: expect.any(String), token_type: expect.stringMatching(/bearer/i) });
    expect(saved?.client).toMatchObject({ client_id: auth.searchParams.get('client_id') });
    const greet = await hub.callTool('demo', 'greet', { name: 'Corvid' });
    expect(JSON.stringify(greet)).toMatch(/Corvid/);

    // A second process with the same store needs no browser.
    const again = new McpHub({
      servers: { demo: config },
      tokenStore: store,
      openUrl: () => Promise.reject(new Error('no browser expected')),
    });
    hubs.push(again);
    await expect(again.listTools('demo')).resolves.toHaveLength(tools.length);
  });

  it('without authorization and non-interactive: a clear error pointing at corvid mcp login', async () => {
    const hub = new McpHub({
      servers: {
        demo: { transport: 'http', url: `http://localhost:${mcpPort}/mcp`, auth: { type: 'oauth', callbackPort: await freePort() } },
      },
      tokenStore: new MemoryTokenStore(),
      interactiveAuth: false,
    });
    hubs.push(hub);
    await expect(hub.listTools('demo')).rejects.toThrow('MCP server "demo": needs authorization; run "corvid mcp login demo" first');
  });
});

describe('OAuth: refresh, re-authorization and denial (fixture built from the SDK server auth pieces)', () => {
  let child: ChildProcess;
  let base: string;
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = await start([join(FIXTURES, 'oauth-server.mjs'), String(port)], {}, `${base}/stats`);
  });
  afterAll(() => stop(child));
  const control = (settings: object) =>
    fetch(`${base}/control`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(settings) });
  const stats = async () =>
    (await (await fetch(`${base}/stats`)).json()) as {
      authorize: number;
      codeExchanges: number;
      refreshes: number;
      registrations: number;
      clientIds: string[];
    };
  afterEach(() => control({ deny: false, expiresIn: 3600, refreshFails: false, cimd: null }));

  async function authorizedHub(store = new MemoryTokenStore()) {
    const browser = scriptedBrowser();
    const config: McpServerConfig = {
      transport: 'http',
      url: `${base}/mcp`,
      auth: { type: 'oauth', callbackPort: await freePort(), clientName: 'Corvid test' },
    };
    const hub = new McpHub({ servers: { prot: config }, tokenStore: store, openUrl: browser.open });
    hubs.push(hub);
    return { hub, browser, store };
  }

  it('refreshes a token that expires within 60 s before the call, without the browser', async () => {
    await control({ expiresIn: 30 });
    const { hub, browser, store } = await authorizedHub();
    expect(await hub.callTool('prot', 'whoami')).toMatchObject({ content: [{ text: expect.stringMatching(/^client /) }] });
    const first = (await store.get(`${base}/mcp`))!.tokens!.access_token;
    const before = await stats();
    await hub.callTool('prot', 'whoami');
    const after = await stats();
    expect(after.refreshes).toBe(before.refreshes + 1);
    expect(after.authorize).toBe(before.authorize);
    expect(browser.seen.urls).toHaveLength(1);
    expect((await store.get(`${base}/mcp`))!.tokens!.access_token).not.toBe(first);
  });

  it('authorizes again when the refresh is refused (invalid_grant)', async () => {
    await control({ expiresIn: 30 });
    const { hub, browser } = await authorizedHub();
    await hub.callTool('prot', 'whoami');
    await control({ refreshFails: true });
    await expect(hub.callTool('prot', 'whoami')).resolves.toMatchObject({ content: [{ text: expect.stringMatching(/^client /) }] });
    expect(browser.seen.urls).toHaveLength(2);
  });

  it('a denied authorization: a clear error naming the server; the browser shows the error page', async () => {
    await control({ deny: true });
    const { hub, browser } = await authorizedHub();
    const err = await hub.listTools('prot').catch((e) => e);
    expect(err).toBeInstanceOf(McpError);
    expect(err.message).toBe('MCP server "prot": authorization was denied (The user said no)');
    expect(err.kind).toBe('auth');
    expect(browser.seen.pages).toEqual([{ status: 400, text: expect.stringContaining('access_denied: The user said no') }]);
  });

  it('CIMD: with client_metadata_url, a server supporting Client ID Metadata Documents gets the URL as client id (no registration)', async () => {
    const metadataUrl = 'https://corvid.example/oauth/client.json';
    const callbackPort = await freePort();
    const document = clientMetadataDocument({ url: metadataUrl, callbackPort, clientName: 'Corvid CIMD' });
    expect(document).toMatchObject({
      client_id: metadataUrl,
      redirect_uris: [`http://127.0.0.1:${callbackPort}/callback`],
      token_endpoint_auth_method: 'none',
    });
    const config: McpServerConfig = {
      transport: 'http',
      url: `${base}/mcp`,
      auth: { type: 'oauth', callbackPort, clientMetadataUrl: metadataUrl },
    };
    const browser = scriptedBrowser();
    const before = await stats();

    await control({ cimd: { [metadataUrl]: document } });
    const hub = new McpHub({ servers: { prot: config }, tokenStore: new MemoryTokenStore(), openUrl: browser.open });
    hubs.push(hub);
    expect(await hub.callTool('prot', 'whoami')).toMatchObject({ content: [{ text: `client ${metadataUrl}` }] });
    expect(browser.seen.urls[0].searchParams.get('client_id')).toBe(metadataUrl);
    expect((await stats()).registrations).toBe(before.registrations);

    // A server without CIMD support: Corvid registers itself as before.
    await control({ cimd: null });
    const fallback = new McpHub({ servers: { prot: config }, tokenStore: new MemoryTokenStore(), openUrl: scriptedBrowser().open });
    hubs.push(fallback);
    expect(await fallback.callTool('prot', 'whoami')).toMatchObject({ content: [{ text: expect.not.stringContaining(metadataUrl) }] });
    expect((await stats()).registrations).toBe(before.registrations + 1);
  });

  it('an unreachable authorization server is reported clearly', async () => {
    const port = await freePort();
    const hub = new McpHub({
      servers: {
        gone: { transport: 'http', url: `http://127.0.0.1:${port}/mcp`, auth: { type: 'oauth', callbackPort: await freePort() } },
      },
      tokenStore: new MemoryTokenStore(),
    });
    hubs.push(hub);
    await expect(hub.listTools('gone')).rejects.toThrow(
      new RegExp(`^MCP server "gone" failed to start: cannot reach http://127.0.0.1:${port}/mcp \\(ECONNREFUSED\\)`),
    );
  });
});

describe('static bearer tokens', () => {
  it('sends the configured token; a refused one is an auth error naming the server', async () => {
    const echo = tool({
      name: 'echo',
      description: 'Echo',
      parameters: { type: 'object', properties: { t: { type: 'string' } } },
      execute: ({ t }: { t?: string }) => t ?? '',
    });
    const http = await serveMcpHttp(createMcpServer({ name: 'keyed', tools: [echo] }), { port: 0, authenticate: (t) => t === 'api-key-1' });
    try {
      const ok = new McpHub({ servers: { k: { transport: 'http', url: http.mcpUrl, auth: { type: 'bearer', token: 'api-key-1' } } } });
      const bad = new McpHub({
        servers: { k: { transport: 'streamable_http', url: http.mcpUrl, auth: { type: 'bearer', token: 'nope' } } },
      });
      hubs.push(ok, bad);
      expect(await ok.callTool('k', 'echo', { t: 'hi' })).toEqual({ content: [{ type: 'text', text: 'hi' }] });
      await expect(bad.listTools('k')).rejects.toThrow(/^MCP server "k"/);
    } finally {
      await http.close();
    }
  });
});
