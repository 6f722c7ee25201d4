import { TaskState } from '@a2a-js/sdk';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { defaultServerCallContextBuilder, JsonRpcTransportHandler, type ServerCallContext, UnauthenticatedUser } from '@a2a-js/sdk/server';
import { describe, expect, it, vi } from 'vitest';

import { buildAgentCard } from '../../src/a2a/server/agent-card.js';
import { type A2ATaskStart, CorvidAgentExecutor } from '../../src/a2a/server/execution/corvid-agent-executor.js';
import { GuardedPushSender } from '../../src/a2a/server/push/guarded-push-sender.js';
import { MemoryPushNotificationStore } from '../../src/a2a/server/push/memory-push-store.js';
import { BlockingSendFastPath } from '../../src/a2a/server/request-handler/blocking-send-fast-path.js';
import { CorvidRequestHandler } from '../../src/a2a/server/request-handler/corvid-request-handler.js';
import { WaitingBusManager } from '../../src/a2a/server/request-handler/waiting-bus-manager.js';
import { BoundedMemoryTaskStore } from '../../src/a2a/server/store/store-task-store.js';
import { Agent, askUserTool } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

// The fast path of blocking sends (`BlockingSendFastPath`) against its reference, the SDK's
// `DefaultRequestHandler.sendMessage`: the same requests, over v1.0 and v0.3 JSON-RPC, through a
// server with the fast path and one without, must give the same answers and leave the same
// stored tasks (ids and timestamps aside).

/** Answers "echo: …"; asks a question for "book"; fails for "fail"; waits until released for "hold". */
function model(): ScriptedModel {
  return new ScriptedModel((call) => {
    const last = [...call.prompt].reverse().find((m) => m.role === 'user');
    const text = last && last.role === 'user' ? last.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
    if (text.includes('fail')) return { error: new Error('the model is down') };
    if (text.includes('book'))
      return { text: 'One detail first.', toolCalls: [{ toolName: 'ask_user', input: { question: 'Where to?' } }] };
    return { text: `echo: ${text}` };
  });
}

/** One server's handler and the SDK transports over it; `hold` keeps tasks of "hold" messages in `beforeTask` until aborted. */
function world(fastPath: boolean) {
  const card = buildAgentCard({ name: 'echo', baseUrl: 'http://127.0.0.1:1', version: '1.0.0' });
  const agent = new Agent({ name: 'echo', instructions: 'Echo.', model: model(), tools: [askUserTool()] });
  const started: Array<(t: A2ATaskStart) => void> = [];
  const beforeTask = async (task: A2ATaskStart) => {
    if (!JSON.stringify(task.message).includes('hold')) return;
    started.shift()?.(task);
    await new Promise((_resolve, reject) => task.signal.addEventListener('abort', () => reject(task.signal.reason), { once: true }));
  };
  const taskStore = new BoundedMemoryTaskStore();
  const pushStore = new MemoryPushNotificationStore();
  const handler = new CorvidRequestHandler({
    card,
    taskStore,
    executor: new CorvidAgentExecutor({ name: 'echo', agent: () => agent, beforeTask }),
    buses: new WaitingBusManager(),
    pushStore,
    sender: new GuardedPushSender({ store: pushStore, unused: () => pushStore.unused }),
    fastPath,
  });
  return {
    handler,
    taskStore,
    v1: new JsonRpcTransportHandler(handler),
    v03: new LegacyJsonRpcTransportHandler(handler),
    nextStart: () => new Promise<A2ATaskStart>((r) => started.push(r)),
  };
}
type World = ReturnType<typeof world>;

function contextOf(version: '1.0' | '0.3'): ServerCallContext {
  return defaultServerCallContextBuilder({
    extensions: undefined,
    user: new UnauthenticatedUser(),
    headers: {},
    requestedVersion: version,
  });
}

const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;

/** `value` as JSON with ids numbered in order of appearance and timestamps blanked. */
function normal(value: unknown): unknown {
  const ids = new Map<string, string>();
  const json = JSON.stringify(value)
    .replace(ID, (id) => ids.get(id) ?? (ids.set(id, `id${ids.size}`), `id${ids.size - 1}`))
    .replace(TIME, '<time>');
  return JSON.parse(json);
}

const v1Message = (text: string, extra: Record<string, unknown> = {}) => ({
  messageId: crypto.randomUUID(),
  role: 'ROLE_USER',
  parts: [{ text }],
  ...extra,
});
const v03Message = (text: string, extra: Record<string, unknown> = {}) => ({
  kind: 'message',
  messageId: crypto.randomUUID(),
  role: 'user',
  parts: [{ kind: 'text', text }],
  ...extra,
});

/** Sends `params` to `w` over one version; returns the answer and the stored task it names. */
async function send(w: World, version: '1.0' | '0.3', method: string, params: Record<string, unknown>) {
  const context = contextOf(version);
  const transport = version === '1.0' ? w.v1 : w.v03;
  const answer = (await transport.handle({ jsonrpc: '2.0', id: 1, method, params }, context)) as Record<string, any>;
  const taskId = (answer.result?.task ?? answer.result)?.id;
  const stored = taskId ? await w.taskStore.load(taskId, context) : undefined;
  return { answer, stored };
}

const SEND = { '1.0': 'SendMessage', '0.3': 'message/send' } as const;

describe.each(['1.0', '0.3'] as const)('blocking send fast path against the SDK path (v%s)', (version) => {
  const msg = version === '1.0' ? v1Message : v03Message;
  const sendBoth = async (params: () => Record<string, unknown>) => {
    const [fast, sdk] = [world(true), world(false)];
    const taken = vi.spyOn(BlockingSendFastPath.prototype, 'send');
    const a = await send(fast, version, SEND[version], params());
    const viaFastPath = taken.mock.calls.length;
    const b = await send(sdk, version, SEND[version], params());
    // The SDK world never takes it; the fast world does unless the request needs the SDK's path.
    expect(taken.mock.calls.length).toBe(viaFastPath);
    taken.mockRestore();
    expect(viaFastPath).toBe(JSON.stringify(params()).includes('ushNotificationConfig') ? 0 : 1);
    expect(normal(a)).toEqual(normal(b));
    return a;
  };

  it('a completed task: same answer, same stored task', async () => {
    const { answer, stored } = await sendBoth(() => ({ message: msg('hi') }));
    expect(JSON.stringify(answer.result)).toContain('echo: hi');
    expect(stored?.history).toHaveLength(2);
    expect(stored?.artifacts).toHaveLength(1);
  });

  it('a task that asks its caller (input required, progress metadata): same answer and stored task', async () => {
    const { answer, stored } = await sendBoth(() => ({ message: msg('book a flight') }));
    expect(JSON.stringify(answer.result)).toContain('Where to?');
    expect(stored?.metadata).toHaveProperty('corvid');
  });

  it('a failed run: same failed task', async () => {
    const { answer } = await sendBoth(() => ({ message: msg('fail please') }));
    expect(JSON.stringify(answer.result)).toContain('the model is down');
  });

  it('historyLength 0 and 1: same trimmed answers', async () => {
    for (const historyLength of [0, 1]) {
      const { answer, stored } = await sendBoth(() => ({ message: msg('hi'), configuration: { historyLength, blocking: true } }));
      expect((answer.result.task ?? answer.result).history ?? []).toHaveLength(historyLength);
      expect(stored?.history).toHaveLength(2);
    }
  });

  it('a context id given by the caller: kept, with its conversation', async () => {
    const contextId = crypto.randomUUID();
    const { answer } = await sendBoth(() => ({ message: msg('hi', { contextId }) }));
    expect((answer.result.task ?? answer.result).contextId).toBe(contextId);
  });

  it('canceled while running: same canceled answer and stored task', async () => {
    const results = [];
    for (const w of [world(true), world(false)]) {
      const start = w.nextStart();
      const sent = send(w, version, SEND[version], { message: msg('hold on') });
      const task = await start;
      // The SDK's path stores the task's events after the run has reached the hook.
      while ((await w.taskStore.load(task.taskId, contextOf(version)))?.status?.state !== TaskState.TASK_STATE_WORKING)
        await new Promise(setImmediate);
      const cancel = await (version === '1.0' ? w.v1 : w.v03).handle(
        { jsonrpc: '2.0', id: 2, method: version === '1.0' ? 'CancelTask' : 'tasks/cancel', params: { id: task.taskId } },
        contextOf(version),
      );
      results.push({ cancel, sent: await sent });
    }
    expect(JSON.stringify(results[0].sent.answer)).toContain('canceled');
    expect(normal(results[0])).toEqual(normal(results[1]));
  });

  it('takes the fast path only for a blocking send of a new task without push config', () => {
    // Only the request and the card decide.
    const card = buildAgentCard({ name: 'echo', baseUrl: 'http://127.0.0.1:1', version: '1.0.0' });
    const fast = new BlockingSendFastPath({ card } as ConstructorParameters<typeof BlockingSendFastPath>[0]);
    const context = contextOf(version);
    const message = { messageId: 'm', role: 1, parts: [], contextId: '', taskId: '', extensions: [], referenceTaskIds: [] } as never;
    expect(fast.accepts({ message } as never, context)).toBe(true);
    expect(fast.accepts({ message: { ...(message as object), taskId: 't' } } as never, context)).toBe(false);
    expect(fast.accepts({ message, configuration: { returnImmediately: true } } as never, context)).toBe(false);
    expect(
      fast.accepts({ message, configuration: { taskPushNotificationConfig: { url: 'http://127.0.0.1:9/h' } } } as never, context),
    ).toBe(false);
  });

  it('a send with an inline push config: the SDK path in both, same answer', async () => {
    const config =
      version === '1.0'
        ? { taskPushNotificationConfig: { url: 'http://127.0.0.1:9/hook' } }
        : { pushNotificationConfig: { url: 'http://127.0.0.1:9/hook' } };
    await sendBoth(() => ({ message: msg('hi'), configuration: { ...config, blocking: true } }));
  });
});
