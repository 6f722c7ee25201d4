import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { elicitFromUser } from '../../src/cli/mcp-cli-options.js';
import { runCli, spawnCli } from '../cli/cli-harness.js';
import { EVERYTHING, FIXTURES, freePort, tempDir, until } from './support.js';

describe('corvid mcp list / login / logout and validate (built CLI)', () => {
  const tmp = tempDir();
  let oauth: ChildProcess;
  let base: string;
  const env = () => ({ PATH: process.env.PATH, HOME: tmp.dir, CORVID_HOME: join(tmp.dir, 'corvid-home'), LANG: 'C.UTF-8' });
  const opts = () => ({ cwd: tmp.dir, env: env() });

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    oauth = spawn(process.execPath, [join(FIXTURES, 'oauth-server.mjs'), String(port)], { stdio: 'ignore' });
    await until(
      () =>
        fetch(`${base}/stats`).then(
          (r) => r.ok,
          () => false,
        ),
      'the OAuth fixture',
      10_000,
    );
    writeFileSync(
      join(tmp.dir, 'corvid.yaml'),
      `mcp_servers:
  ev:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(EVERYTHING)}, stdio]
    include: [echo, get-sum]
  prot:
    url: ${base}/mcp
    auth: { type: oauth, callback_port: ${await freePort()} }
  keyed:
    url: ${base}/mcp
    auth: { type: bearer, token: super-secret-token }
    headers: { X-Api-Key: another-secret }
  broken:
    command: corvid-no-such-server
agents:
  helper:
    model: openai:gpt-4.1-mini
    tools: [ev.echo]
`,
    );
  });
  afterAll(() => {
    oauth.kill();
    tmp.remove();
  });

  it('validate accepts mcp_servers; --print-config masks tokens and secret headers', async () => {
    const r = await runCli(['validate', '--print-config'], opts());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/mcp_servers:\n {2}ev:\n {4}command: /);
    expect(r.stdout).toMatch(/token: "\*\*\*"/);
    expect(r.stdout).toMatch(/X-Api-Key: "\*\*\*"/);
    expect(r.stdout).not.toMatch(/super-secret-token|another-secret/);
  });

  it('login runs the browser flow (URL printed), stores the tokens encrypted; list shows status and tools; logout forgets them', async () => {
    const p = spawnCli(['mcp', 'login', 'prot'], opts());
    const text = await p.waitFor(/open this URL in a browser:\n {2}(\S+)\n/, { stream: 'stderr', timeoutMs: 10_000 });
    const url = /open this URL in a browser:\n {2}(\S+)\n/.exec(text)![1];
    const res = await fetch(url, { redirect: 'manual' });
    const page = await fetch(res.headers.get('location')!);
    expect(await page.text()).toContain('Authorization complete');
    expect(await p.exit()).toBe(0);
    expect(p.stdout).toMatch(/✓ Logged in to prot \(http:\/\/127\.0\.0\.1:\d+\/mcp\); 1 tool\(s\) available\./);

    const secrets = join(tmp.dir, 'corvid-home', 'secrets');
    const files = readdirSync(secrets).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(1);
    expect(statSync(join(secrets, files[0])).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(secrets, files[0]), 'utf8')).not.toMatch(/access_token|refresh_token/);

    const list = await runCli(['mcp', 'list', '--no-color'], opts());
    expect(list.stdout).toMatch(/● ev {2}stdio · .+ · mcp-servers\/everything .+\n {4}ev_echo, ev_get-sum\n/);
    expect(list.stdout).toMatch(/● prot {2}streamable_http · http:\/\/127\.0\.0\.1:\d+\/mcp · oauth-protected 1\.0\.0\n {4}prot_whoami\n/);
    expect(list.stdout).toMatch(/● keyed {2}http · .+\n {4}MCP server "keyed": .*refused the credentials \(HTTP 401\)/);
    expect(list.stdout).toMatch(
      /● broken {2}stdio · corvid-no-such-server\n {4}MCP server "broken" failed to start: command "corvid-no-such-server" not found/,
    );
    expect(list.code).toBe(1);

    const json = JSON.parse((await runCli(['mcp', 'list', '--json'], opts())).stdout) as Array<{
      id: string;
      state: string;
      tools?: string[];
    }>;
    expect(json.map((s) => [s.id, s.state])).toEqual([
      ['ev', 'connected'],
      ['prot', 'connected'],
      ['keyed', 'failed'],
      ['broken', 'failed'],
    ]);

    const out = await runCli(['mcp', 'logout', 'prot'], opts());
    expect([out.code, out.stdout]).toEqual([0, 'Logged out of prot: its stored tokens are deleted.\n']);
    const after = await runCli(['mcp', 'list', '--no-color'], opts());
    expect(after.stdout).toMatch(/● prot .+\n {4}MCP server "prot": needs authorization; run "corvid mcp login prot" first/);
  });

  it('usage errors', async () => {
    expect((await runCli(['mcp'], opts())).stderr).toMatch(/Missing the subcommand: corvid mcp serve \| list \| login \| logout/);
    expect((await runCli(['mcp', 'login'], opts())).code).toBe(2);
    const r = await runCli(['mcp', 'login', 'ev'], opts());
    expect([r.code, r.stderr]).toEqual([1, expect.stringContaining('MCP server "ev" does not use OAuth')]);
    expect((await runCli(['mcp', 'serve', '--port', '80'], opts())).stderr).toMatch(/--port, --host and --token need --http/);
  });
});

describe('elicitation in corvid chat', () => {
  const request = {
    server: 'forms',
    message: 'Who are you?',
    requestedSchema: {
      type: 'object' as const,
      properties: {
        name: { type: 'string', title: 'Name' },
        age: { type: 'integer' },
        admin: { type: 'boolean', default: false },
        color: { type: 'string', enum: ['red', 'blue'] },
      },
      required: ['name'],
    },
    signal: new AbortController().signal,
  };

  it('asks field by field, converting types and re-asking invalid values', async () => {
    const answers = ['y', '', 'Ann', 'old', '42', '', 'green', 'blue'];
    const asked: string[] = [];
    const r = await elicitFromUser(request, async (q) => (asked.push(q), answers.shift()));
    expect(r).toEqual({ action: 'accept', content: { name: 'Ann', age: 42, admin: false, color: 'blue' } });
    expect(asked[0]).toBe('MCP server "forms" asks: Who are you?\nAnswer? [y]es / [n]o (decline) / [c]ancel: ');
    expect(asked[1]).toBe('  Name [string, required]: ');
  });

  it('declines, cancels, and cancels when input ends', async () => {
    expect(await elicitFromUser(request, async () => 'n')).toEqual({ action: 'decline' });
    expect(await elicitFromUser(request, async () => 'c')).toEqual({ action: 'cancel' });
    expect(await elicitFromUser(request, async () => undefined)).toEqual({ action: 'cancel' });
  });
});
