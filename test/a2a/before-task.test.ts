import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { A2ATaskStart } from '../../src/a2a/index.js';
import { type RunningServer, serve } from '../../src/server/index.js';
import { echoAgent } from './harness.js';

// `serve({ a2a: { beforeTask } })`: a hook every A2A task passes once it is working, before its
// agent runs — here the A2A TCK's convention (a message id starting with
// "test-resubscribe-message-id" keeps its task working) and an admission check that fails tasks.

describe('A2A beforeTask hook', () => {
  let server: RunningServer;
  const seen: A2ATaskStart[] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));

  beforeAll(async () => {
    server = await serve({
      agents: [echoAgent()],
      port: 0,
      server: { logging: { level: 'silent' } },
      a2a: {
        beforeTask: async (task) => {
          seen.push(task);
          if (task.message.messageId.startsWith('test-resubscribe-message-id')) await held;
          if (task.message.messageId === 'refused') throw new Error('not today');
        },
      },
    });
  });
  afterAll(async () => {
    release();
    await server.close();
  });

  const rpc = async (method: string, params: unknown) =>
    (await (
      await fetch(`${server.url}/a2a/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
    ).json()) as any;
  const message = (messageId: string, text = 'hi') => ({
    message: { kind: 'message', messageId, role: 'user', parts: [{ kind: 'text', text }] },
  });

  it('sees each task with its message, agent and ids; holding it keeps the task working until released', async () => {
    const sent = await rpc('message/send', { ...message('test-resubscribe-message-id-1'), configuration: { blocking: false } });
    const taskId = sent.result.id;
    expect(['submitted', 'working']).toContain(sent.result.status.state);
    await expect.poll(async () => (await rpc('tasks/get', { id: taskId })).result.status.state).toBe('working');
    expect(seen.at(-1)).toMatchObject({
      agent: 'echo',
      taskId,
      contextId: sent.result.contextId,
      message: { messageId: 'test-resubscribe-message-id-1' },
    });
    expect((await rpc('tasks/get', { id: taskId })).result.status.state).toBe('working'); // still held
    release();
    await expect.poll(async () => (await rpc('tasks/get', { id: taskId })).result.status.state).toBe('completed');
    const plain = await rpc('message/send', message('m-2', 'again'));
    expect(plain.result.status.state).toBe('completed');
  });

  it('fails the task with the message of an error it throws', async () => {
    const sent = await rpc('message/send', message('refused'));
    expect(sent.result.status.state).toBe('failed');
    expect(JSON.stringify(sent.result.status.message)).toContain('not today');
  });
});
