import { Role, type Task, TaskState } from '@a2a-js/sdk';
import { Client, ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { LegacyRestTransport } from '@a2a-js/sdk/compat/v0_3/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cliEnv, type CliProcess, fakeModel, runCli, spawnCli, tempDir, writeConfig } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';

// End to end: `corvid serve` in a child process, the official SDK client, `corvid call`, and a
// `type: remote` agent of another config calling the served agent.

async function started(p: CliProcess): Promise<string> {
  const text = await p.waitFor(/listening on (http\S+)/, { stream: 'stderr', timeoutMs: 20_000 });
  return /listening on (http\S+)/.exec(text)![1];
}

describe('A2A through corvid serve', () => {
  let llm: FakeLlmServer;
  const tmp = tempDir('corvid-a2a-serve-');
  const children: CliProcess[] = [];

  beforeAll(async () => {
    llm = await startFakeLlmServer((req) => {
      const last = JSON.stringify(req.body?.messages?.at(-1) ?? '');
      return { text: last.includes('capital') ? 'Lima.' : 'Hello from the served agent.' };
    });
    writeConfig(
      tmp.dir,
      `models:\n${fakeModel(llm.url)}defaults:\n  model: fake\nstorage:\n  driver: sqlite\n  path: ./data/corvid.db\nagents:\n  geo:\n    description: Knows capitals.\n    instructions: Answer briefly.\n    a2a:\n      skills: [{ id: capitals, name: Capitals, examples: ["Capital of Peru?"] }]\n`,
    );
  });
  afterAll(async () => {
    for (const c of children) c.child.kill('SIGKILL');
    await llm.close();
    tmp.cleanup();
  });

  it('serves the SDK client over v1.0 JSON-RPC and REST; tasks survive a restart; corvid call and remote agents reach it', async () => {
    const env = cliEnv(tmp.dir);
    let p = spawnCli(['serve', '--port', '0'], { cwd: tmp.dir, env });
    children.push(p);
    let url = await started(p);

    const card = await (await fetch(`${url}/agents/geo/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json();
    expect(card.skills[0]).toMatchObject({ id: 'capitals', name: 'Capitals', examples: ['Capital of Peru?'] });
    expect(card.supportedInterfaces[0].url).toBe(`${url}/a2a/geo`);

    const ids: string[] = [];
    for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
      const factory = new ClientFactory({
        transports: [new JsonRpcTransportFactory(), new RestTransportFactory()],
        preferredTransports: [binding],
      });
      const client = await factory.createFromUrl(url);
      const task = (await client.sendMessage({
        tenant: '',
        message: {
          messageId: crypto.randomUUID(),
          contextId: '',
          taskId: '',
          role: Role.ROLE_USER,
          parts: [{ content: { $case: 'text', value: 'capital of Peru?' }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        },
        configuration: undefined,
        metadata: undefined,
      })) as Task;
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(task.artifacts[0].parts[0].content).toEqual({ $case: 'text', value: 'Lima.' });
      ids.push(task.id);
    }

    // v0.3 over HTTP+JSON, through the server's middleware.
    const legacy = new Client(new LegacyRestTransport({ endpoint: `${url}/a2a/geo/rest` }), card);
    const old = (await legacy.sendMessage({
      tenant: '',
      message: {
        messageId: crypto.randomUUID(),
        contextId: '',
        taskId: '',
        role: Role.ROLE_USER,
        parts: [{ content: { $case: 'text', value: 'capital of Peru?' }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: undefined,
    })) as Task;
    expect(old.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const called = await runCli(['call', url, 'say hello', '--stream'], { cwd: tmp.dir, env });
    expect(called.code).toBe(0);
    expect(called.stdout).toBe('Hello from the served agent.\n');

    // Restart: the tasks are still there (SQLite storage), and their conversations are sessions.
    p.child.kill('SIGTERM');
    expect(await p.exit()).toBe(0);
    p = spawnCli(['serve', '--port', '0'], { cwd: tmp.dir, env });
    children.push(p);
    url = await started(p);
    for (const id of ids) {
      const got = await fetch(`${url}/a2a/geo/rest/tasks/${id}`, { headers: { 'A2A-Version': '1.0' } });
      expect(got.status).toBe(200);
      expect(((await got.json()) as { status: { state: string } }).status.state).toBe('TASK_STATE_COMPLETED');
    }
    const sessions = await runCli(['sessions', 'list', '--json'], { cwd: tmp.dir, env });
    expect(sessions.code).toBe(0);
    expect(sessions.stdout).toContain('"geo"');

    // Another config whose remote agent is the served one.
    const other = tempDir('corvid-a2a-remote-');
    try {
      writeConfig(other.dir, `agents:\n  far:\n    type: remote\n    url: ${url}/agents/geo/.well-known/agent-card.json\n`);
      const r = await runCli(['call', 'far', 'capital of Peru?'], { cwd: other.dir, env: cliEnv(other.dir) });
      expect(r).toEqual({ code: 0, stdout: 'Lima.\n', stderr: '' });
    } finally {
      other.cleanup();
    }
    p.child.kill('SIGTERM');
    expect(await p.exit()).toBe(0);
  }, 60_000);
});
