import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { cliEnv, type CliProcess, fakeModel, runCli, spawnCli, tempDir, writeConfig } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';

const config = (llm: string, agents: string, extra = '') =>
  `models:\n${fakeModel(llm)}defaults:\n  model: fake\nagents:\n${agents}${extra}`;

async function started(p: CliProcess): Promise<string> {
  const text = await p.waitFor(/listening on (http\S+)[\s\S]*docs: /, { stream: 'stderr', timeoutMs: 15_000 });
  return /listening on (http\S+)/.exec(text)![1];
}

describe('corvid serve (child process)', () => {
  let llm: FakeLlmServer;
  let dir: string;
  let cleanup: () => void;
  const children: CliProcess[] = [];

  beforeAll(async () => {
    llm = await startFakeLlmServer((req) => {
      const last = JSON.stringify(req.body?.messages?.at(-1) ?? '');
      return last.includes('slow') ? { text: 'slow answer', delayMs: 400 } : { text: 'fake answer', usage: { input: 3, output: 2 } };
    });
    ({ dir, cleanup } = tempDir('corvid-serve-'));
  });
  afterAll(async () => {
    for (const c of children) c.child.kill('SIGKILL');
    await llm.close();
    cleanup();
  });

  it('serves chat and the A2A card, prints the URL and agents, and shuts down on SIGTERM', async () => {
    writeConfig(dir, config(llm.url, '  alpha:\n    instructions: Be brief.\n  hidden:\n    visibility: private\n'));
    const p = spawnCli(['serve', '--port', '0'], { cwd: dir, env: cliEnv(dir) });
    children.push(p);
    const url = await started(p);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(p.stderr).toContain('agents: alpha');
    expect(p.stderr).not.toMatch(/agents:.*hidden/);
    const res = await fetch(`${url}/api/v1/agents/alpha/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hi' }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).answer).toBe('fake answer');
    expect(
      (
        await fetch(`${url}/api/v1/agents/hidden/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"message":"x"}',
        })
      ).status,
    ).toBe(404);
    const card = await fetch(`${url}/.well-known/agent-card.json`);
    expect(card.status).toBe(200);
    expect(await card.json()).toMatchObject({ name: 'alpha' });
    // Logs are JSON lines on stdout with a request id; the warning about auth is there too.
    await p.waitFor(/"msg":"request"/);
    const lines = p.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.some((l) => /auth is off/.test(l.msg))).toBe(true);
    expect(lines.filter((l) => l.msg === 'request').every((l) => typeof l.reqId === 'string')).toBe(true);
    // SIGTERM lets a request in flight finish before the process exits.
    const before = llm.requests.length;
    const inflight = fetch(`${url}/api/v1/agents/alpha/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'slow please' }),
    });
    await vi.waitFor(() => expect(llm.requests.length).toBeGreaterThan(before));
    p.child.kill('SIGTERM');
    const slow = await inflight;
    expect(slow.status).toBe(200);
    expect((await slow.json()).answer).toBe('slow answer');
    expect(await p.exit()).toBe(0);
    expect(p.stderr).toContain('SIGTERM, shutting down');
  });

  it('--watch swaps in a changed config, keeps in-flight requests, and rejects a broken one naming file and line', async () => {
    const file = writeConfig(dir, config(llm.url, '  alpha:\n    instructions: Be brief.\n'));
    const p = spawnCli(['serve', '--port', '0', '--watch'], { cwd: dir, env: cliEnv(dir) });
    children.push(p);
    const url = await started(p);
    const post = (agent: string, message: string) =>
      fetch(`${url}/api/v1/agents/${agent}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message }),
      });
    expect((await post('beta', 'x')).status).toBe(404);

    const before = llm.requests.length;
    const inflight = post('alpha', 'slow please');
    await vi.waitFor(() => expect(llm.requests.length).toBeGreaterThan(before));
    let mark = p.mark();
    writeFileSync(file, config(llm.url, '  alpha:\n    instructions: Be brief.\n  beta:\n    instructions: New agent.\n'));
    await p.waitFor(/"msg":"config reloaded"/, { since: mark });
    const slow = await inflight;
    expect(slow.status).toBe(200);
    expect((await slow.json()).answer).toBe('slow answer');
    expect((await post('beta', 'x')).status).toBe(200);

    mark = p.mark();
    writeFileSync(file, config(llm.url, '  alpha:\n    instructions: Be brief.\n  beta:\n    max_steps: -3\n'));
    const rejected = await p.waitFor(/config change rejected[^\n]*/, { since: mark });
    expect(rejected).toMatch(/corvid\.yaml:\d+/);
    expect(rejected).toContain('agents.beta.max_steps');
    expect((await post('beta', 'still here')).status).toBe(200);

    // A changed server: section is reloaded with the rest, and the log says it waits for a restart.
    mark = p.mark();
    writeFileSync(
      file,
      config(
        llm.url,
        '  alpha:\n    instructions: Be brief.\n  beta:\n    instructions: New agent.\n',
        'server:\n  max_body_bytes: 2048\n',
      ),
    );
    await p.waitFor(/"msg":"config reloaded"/, { since: mark });
    expect(await p.waitFor(/the server: section changed[^"]*/, { since: mark })).toContain('take effect when the server restarts');
    p.child.kill('SIGINT');
    expect(await p.exit()).toBe(0);
  });

  it('refuses a non-loopback server.host without auth, and bad flags', async () => {
    writeConfig(dir, config(llm.url, '  alpha: {}\n', 'server:\n  host: 0.0.0.0\n'));
    const r = await runCli(['serve', '--port', '0'], { cwd: dir, env: cliEnv(dir) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('server.auth is not configured');
    expect(r.stderr).toContain('--host 0.0.0.0');
    const bad = await runCli(['serve', '--port', 'eighty'], { cwd: dir, env: cliEnv(dir) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--port must be a port number');
  });

  it('validates the server section with file:line', async () => {
    const file = join(dir, 'bad-server.yaml');
    writeFileSync(
      file,
      `agents:\n  a: {}\nserver:\n  port: 99999\n  auth:\n    api_keys:\n      - name: ci\n        hash: plain-text-key\n  streams:\n    on_disconnect: maybe\n`,
    );
    const r = await runCli(['validate', file], { cwd: dir, env: cliEnv(dir) });
    expect(r.code).toBe(1);
    const out = r.stdout + r.stderr;
    expect(out).toMatch(/bad-server\.yaml:4:\d+\s+server\.port/);
    expect(out).toMatch(
      /bad-server\.yaml:8:\d+\s+server\.auth\.api_keys\[0\]\.hash: must be "sha256:<64 hex digits>"; make one with: corvid hash-key/,
    );
    expect(out).toMatch(/bad-server\.yaml:10:\d+\s+server\.streams\.on_disconnect/);
  });

  it('hash-key prints the hash of a key, or a new key with its hash', async () => {
    const given = await runCli(['hash-key', 'my-secret-key'], { cwd: dir, env: cliEnv(dir) });
    expect(given.code).toBe(0);
    expect(given.stdout.trim()).toBe(`hash: sha256:${createHash('sha256').update('my-secret-key').digest('hex')}`);
    const fresh = await runCli(['hash-key'], { cwd: dir, env: cliEnv(dir) });
    const key = /key:\s+(\S+)/.exec(fresh.stdout)![1];
    expect(fresh.stdout).toContain(`hash: sha256:${createHash('sha256').update(key).digest('hex')}`);
  });
});
