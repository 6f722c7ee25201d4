import { type AddressInfo, createServer } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Agent } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { cliEnv, runCli, spawnCli, tempDir, writeConfig } from '../cli/cli-harness.js';
import { echoAgent, fakeRuntime, startServer, type TestServer } from './harness.js';
import { type SdkServer, startSdkServer } from './sdk-server.js';

const tmp = tempDir('corvid-call-');

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
const opts = { cwd: tmp.dir, env: cliEnv(tmp.dir) };
let server: TestServer;
let sdk: SdkServer;

beforeAll(async () => {
  // Slow replies for "slow" requests, failures for "fail", echoes otherwise.
  const model = new ScriptedModel((call) => {
    const last = call.prompt.at(-1);
    const text = last?.role === 'user' ? last.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
    if (text.includes('fail')) return { error: new Error('the model is down') };
    if (text.includes('slow')) return { text: 'never', delayMs: 60_000 };
    return { text: `echo: ${text}`, chunkSize: 3 };
  });
  const runtime = fakeRuntime([echoAgent(), new Agent({ name: 'moody', model, instructions: '-' })]);
  server = await startServer({ runtime: () => runtime, visibility: () => 'public' });
  sdk = await startSdkServer({ requireHeader: ['X-Key', 'abc'] });
});
afterAll(async () => {
  await server.close();
  await sdk.close();
  tmp.cleanup();
});

describe('corvid call', () => {
  it('prints the answer of an agent given by its server URL', async () => {
    const r = await runCli(['call', server.url, 'hello', 'there'], opts);
    expect(r).toEqual({ code: 0, stdout: 'echo: hello there\n', stderr: '' });
  });

  it('streams text to stdout and status changes to stderr', async () => {
    const r = await runCli(['call', `${server.url}/agents/moody/.well-known/agent-card.json`, 'stream this', '--stream'], opts);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('echo: stream this\n');
    expect(r.stderr).toMatch(/task .+\(context .+\)\n/);
    expect(r.stderr).toContain('[working]');
    expect(r.stderr).toContain('[completed]');
  });

  it('prints protocol JSON lines with --json --stream', async () => {
    const r = await runCli(['call', server.url, 'as json', '--stream', '--json'], opts);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(Object.keys(lines[0])).toEqual(['task']);
    expect(lines.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('continues a context with --context', async () => {
    await runCli(['call', server.url, 'one', '--context', 'cli-ctx'], opts);
    const r = await runCli(['call', server.url, 'history?', '--context', 'cli-ctx'], opts);
    expect(r.stdout).toBe('I have seen 2 user messages\n');
  });

  it('calls a remote agent of the config with its headers, or with -H', async () => {
    writeConfig(tmp.dir, `agents:\n  far:\n    type: remote\n    url: ${sdk.url}\n    headers: { X-Key: abc }\n    timeout: 10s\n`);
    const r = await runCli(['call', 'far', 'via config'], opts);
    expect(r).toEqual({ code: 0, stdout: 'remote says: via config (turn 1)\n', stderr: '' });
    const h = await runCli(['call', sdk.url, 'via flag', '-H', 'X-Key=abc'], opts);
    expect(h.stdout).toBe('remote says: via flag (turn 1)\n');
    const denied = await runCli(['call', sdk.url, 'no key'], opts);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/^error: .*401/);
  });

  it('exits 1 with the reason when the task fails', async () => {
    const r = await runCli(['call', `${server.url}/agents/moody/.well-known/agent-card.json`, 'please fail'], opts);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: the agent failed the task: .*the model is down\n$/);
  });

  it('reports bad usage and unreachable servers clearly', async () => {
    writeConfig(tmp.dir, 'agents:\n  local:\n    instructions: hi\n');
    const noMessage = await runCli(['call', server.url], opts);
    expect(noMessage.code).toBe(2);
    expect(noMessage.stderr).toContain('Missing the message');
    const local = await runCli(['call', 'local', 'hi'], opts);
    expect(local.code).toBe(2);
    expect(local.stderr).toContain('is not a remote agent');
    const unknown = await runCli(['call', 'nobody', 'hi'], opts);
    expect(unknown.stderr).toContain('neither an http(s) URL nor an agent of the config');
    const badHeader = await runCli(['call', server.url, 'hi', '-H', 'novalue'], opts);
    expect(badHeader.code).toBe(2);
    const port = await closedPort();
    const down = await runCli(['call', `http://127.0.0.1:${port}/`, 'hi'], opts);
    expect(down.code).toBe(1);
    expect(down.stderr).toBe(`error: Cannot reach the A2A agent at http://127.0.0.1:${port}/: connect ECONNREFUSED 127.0.0.1:${port}\n`);
    expect(down.stderr).not.toMatch(/^\s+at /m);
  });

  it('cancels the task on Ctrl-C', async () => {
    const p = spawnCli(['call', `${server.url}/agents/moody/.well-known/agent-card.json`, 'slow please', '--stream'], opts);
    const line = await p.waitFor(/task (\S+) /, { stream: 'stderr' });
    const taskId = /task (\S+) /.exec(line)![1];
    p.child.kill('SIGINT');
    expect(await p.exit()).toBe(130);
    const got = await fetch(`${server.url}/a2a/moody/rest/tasks/${taskId}`, { headers: { 'A2A-Version': '1.0' } });
    expect(((await got.json()) as { status: { state: string } }).status.state).toBe('TASK_STATE_CANCELED');
  });
});
