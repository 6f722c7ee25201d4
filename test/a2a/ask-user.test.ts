import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Agent, askUserTool } from '../../src/index.js';
import { openStore, type Store } from '../../src/storage/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { ASK_USER_RESULT } from '../../src/tools/ask-user.js';
import { fakeRuntime, startServer, type TestServer } from './harness.js';

// An agent that calls ask_user ends its turn with the question: over A2A the task goes
// input-required with the question as its status message; the reply on the same task is the
// conversation's next turn, and the task goes working → completed. Canceling a waiting task
// ends it canceled. Over real HTTP, v1.0 and v0.3 JSON-RPC, with and without a store.

/** Asks where to when told to book; answers with the last user message otherwise. */
function bookerModel(): ScriptedModel {
  return new ScriptedModel((call) => {
    const last = [...call.prompt].reverse().find((m) => m.role === 'user');
    const text = last && last.role === 'user' ? last.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
    if (text.includes('book'))
      return { text: 'One detail first.', toolCalls: [{ toolName: 'ask_user', input: { question: 'Where to?' } }] };
    return { text: `Booked a flight to ${text}.` };
  });
}

const textOf = (message: { parts: Array<{ text?: string }> } | undefined): string | undefined =>
  message?.parts.map((p) => p.text ?? '').join('');

describe.each([
  ['in memory', false],
  ['with a store', true],
] as const)('ask_user over A2A (%s)', (_label, withStore) => {
  let server: TestServer;
  let store: Store | undefined;
  let model: ScriptedModel;

  beforeAll(async () => {
    store = withStore ? await openStore({ driver: 'memory' }) : undefined;
    model = bookerModel();
    const agent = new Agent({ name: 'booker', instructions: 'Book flights.', model, tools: [askUserTool()] });
    const runtime = fakeRuntime([agent]);
    server = await startServer({ runtime: () => runtime, visibility: () => 'public', ...(store ? { store: async () => store! } : {}) });
  });
  afterAll(async () => {
    await server.close();
    await store?.close();
  });

  async function rpc(method: string, params: unknown, version?: '1.0'): Promise<Record<string, any>> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (version) headers['A2A-Version'] = version;
    const res = await fetch(`${server.url}/a2a/booker`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, any>;
  }
  async function stream(method: string, params: unknown): Promise<Record<string, any>[]> {
    const res = await fetch(`${server.url}/a2a/booker`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', accept: 'text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 's', method, params }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    return (await res.text())
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => (JSON.parse(l.slice(5)) as { result: Record<string, any> }).result);
  }
  const legacyMessage = (text: string, extra: Record<string, unknown> = {}) => ({
    message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...extra },
  });
  const v1Message = (text: string, extra: Record<string, unknown> = {}) => ({
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra },
  });

  it('v0.3: the question makes the task input-required; the reply on the task completes it', async () => {
    const asked = (await rpc('message/send', legacyMessage('book a flight'))).result;
    expect(asked.status.state).toBe('input-required');
    expect(textOf(asked.status.message)).toBe('Where to?');
    expect(asked.status.message.metadata.corvid).toEqual({ type: 'input_required', question: 'Where to?' });

    const done = (await rpc('message/send', legacyMessage('Paris', { taskId: asked.id, contextId: asked.contextId }))).result;
    expect(done.id).toBe(asked.id);
    expect(done.status.state).toBe('completed');
    expect(textOf(done.artifacts[0])).toBe('Booked a flight to Paris.');
    // The task reads as the conversation: request, question, answer, result.
    expect(done.history.map((m: any) => [m.role, textOf(m)])).toEqual([
      ['user', 'book a flight'],
      ['agent', 'Where to?'],
      ['user', 'Paris'],
      ['agent', 'Booked a flight to Paris.'],
    ]);
    // The model got the answer as the next user message, after its ask_user call and that call's result.
    const prompt = model.calls.at(-1)!.prompt;
    expect(prompt.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    expect(JSON.stringify(prompt[3].content)).toContain(ASK_USER_RESULT);
    if (store) {
      const messages = await store.sessions.messages(asked.contextId);
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
    }
  });

  it('v1.0: the same, and a reply naming only the task id is enough', async () => {
    const asked = (await rpc('SendMessage', v1Message('please book'), '1.0')).result.task;
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(textOf(asked.status.message)).toBe('Where to?');
    const got = (await rpc('GetTask', { id: asked.id }, '1.0')).result;
    expect(got.status.state).toBe('TASK_STATE_INPUT_REQUIRED');

    const done = (await rpc('SendMessage', v1Message('Lima', { taskId: asked.id }), '1.0')).result.task;
    expect(done).toMatchObject({ id: asked.id, contextId: asked.contextId, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(textOf(done.status.message)).toBe('Booked a flight to Lima.');
  });

  it('v1.0 streaming: the stream ends at input-required, and the reply streams working → completed', async () => {
    const first = await stream('SendStreamingMessage', v1Message('book it'));
    const task = first[0].task;
    expect(task.status.state).toBe('TASK_STATE_SUBMITTED');
    const last = first.at(-1)!.statusUpdate;
    expect(last.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(textOf(last.status.message)).toBe('Where to?');

    const second = await stream('SendStreamingMessage', v1Message('Oslo', { taskId: task.id, contextId: task.contextId }));
    const states = second.map((e) => e.statusUpdate?.status.state ?? e.task?.status.state).filter(Boolean);
    expect(states[0]).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(states).toContain('TASK_STATE_WORKING');
    expect(states.at(-1)).toBe('TASK_STATE_COMPLETED');
    expect(second.every((e) => (e.task?.id ?? e.statusUpdate?.taskId ?? e.artifactUpdate?.taskId) === task.id)).toBe(true);
  });

  it('cancels a task waiting for input (v0.3 and v1.0); it then takes no reply', async () => {
    const a = (await rpc('message/send', legacyMessage('book now'))).result;
    expect(a.status.state).toBe('input-required');
    expect((await rpc('tasks/cancel', { id: a.id })).result.status.state).toBe('canceled');
    expect((await rpc('tasks/get', { id: a.id })).result.status.state).toBe('canceled');
    const late = await rpc('message/send', legacyMessage('Paris', { taskId: a.id, contextId: a.contextId }));
    expect(late.error.message).toMatch(/terminal state \(canceled\)/);

    const b = (await rpc('SendMessage', v1Message('book later'), '1.0')).result.task;
    expect((await rpc('CancelTask', { id: b.id }, '1.0')).result.status.state).toBe('TASK_STATE_CANCELED');
  });
});
