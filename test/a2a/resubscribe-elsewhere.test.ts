import { type Message, Role, type StreamResponse, TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

import { Agent, tool } from '../../src/index.js';
import { openStore, type Store } from '../../src/storage/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { type Location, sqliteTarget } from '../storage/support/targets.js';
import { fakeRuntime, startServer, type TestServer } from './harness.js';

// Two server instances on one SQLite file. A task runs on A (its tool waits for the test to open
// a gate); a resubscription through B — which has no event bus for the task — follows the task
// through its log in the shared run event log, and sees the updates made after it subscribed
// and the completed state.

const gates = new Map<string, () => void>();
/** Reads of each run event log by B. */
const logReadsOnB = new Map<string, number>();

/** `store` with the reads of its run event log counted in `logReadsOnB`. */
function countingLogReads(store: Store): Store {
  const log = store.runEvents;
  const counted: Store['runEvents'] = {
    append: (runId, events) => log.append(runId, events),
    lastSeq: (runId) => log.lastSeq(runId),
    read: (runId, options) => (logReadsOnB.set(runId, (logReadsOnB.get(runId) ?? 0) + 1), log.read(runId, options)),
  };
  return new Proxy(store, {
    get: (target, key) => {
      if (key === 'runEvents') return counted;
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
let location: Location;
let storeA: Store;
let storeB: Store;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  const wait = tool({
    name: 'wait_for_gate',
    description: 'Waits until the gate opens',
    input: z.object({ gate: z.string() }),
    execute: ({ gate }) => new Promise<string>((resolve) => gates.set(gate, () => resolve(`gate ${gate} opened`))),
  });
  const model = new ScriptedModel((call) => {
    const last = call.prompt.at(-1)!;
    if (last.role === 'tool') return { text: `Finished after ${JSON.stringify(last.content).match(/gate \S+ opened/)?.[0]}` };
    const text = JSON.stringify(last.content);
    return { toolCalls: [{ toolName: 'wait_for_gate', input: { gate: /gate-[a-z0-9-]+/.exec(text)![0] } }] };
  });
  const runtime = fakeRuntime([new Agent({ name: 'waiter', instructions: '-', model, tools: [wait] })]);
  location = await sqliteTarget.createLocation();
  storeA = await openStore(location.options);
  storeB = await openStore(location.options);
  a = await startServer({ runtime: () => runtime, visibility: () => 'public', store: async () => storeA });
  b = await startServer({ runtime: () => runtime, visibility: () => 'public', store: async () => countingLogReads(storeB) });
});
afterAll(async () => {
  for (const open of gates.values()) open();
  await a.close();
  await b.close();
  await storeA.close();
  await storeB.close();
  await location.drop();
});

function userMessage(text: string): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

async function clientOf(server: TestServer, binding: 'JSONRPC' | 'HTTP+JSON'): Promise<Client> {
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory(), new RestTransportFactory()],
    preferredTransports: [binding],
  });
  return factory.createFromUrl(`${server.url}/agents/waiter/.well-known/agent-card.json`, '');
}

/** Opens gate `name` once the run on A waits at it. */
async function open(name: string): Promise<void> {
  await vi.waitFor(() => expect(gates.has(name)).toBe(true), { timeout: 5000 });
  gates.get(name)!();
}

const stateOf = (e: StreamResponse) => (e.payload?.$case === 'statusUpdate' ? e.payload.value.status?.state : undefined);
const answerOf = (events: StreamResponse[]) =>
  events
    .flatMap((e) => (e.payload?.$case === 'artifactUpdate' && e.payload.value.artifact?.name === 'answer' ? [e.payload.value] : []))
    .at(-1)
    ?.artifact?.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join('');

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('A2A v1.0 resubscription through another instance over %s', (binding) => {
  it('streams the later updates of a task running on the other instance, ending completed', async () => {
    const gate = `gate-${binding.toLowerCase().replace(/\W/g, '')}-${crypto.randomUUID().slice(0, 8)}`;
    const sending = (await clientOf(a, binding)).sendMessageStream({
      tenant: '',
      message: userMessage(`wait at ${gate}`),
      configuration: undefined,
      metadata: undefined,
    });
    const first = await sending.next();
    const taskId = first.value?.payload?.$case === 'task' ? first.value.payload.value.id : '';
    expect(taskId).not.toBe('');
    // The run on A waits at the gate (its tool call is logged) before B subscribes.
    await vi.waitFor(() => expect(gates.has(gate)).toBe(true), { timeout: 5000 });
    const resub = (await clientOf(b, binding)).resubscribeTask({ tenant: '', id: taskId });
    const snapshot = await resub.next();
    expect(snapshot.value?.payload?.$case).toBe('task');
    const task = snapshot.value?.payload?.$case === 'task' ? snapshot.value.payload.value : undefined;
    expect(task?.id).toBe(taskId);
    expect(task?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(answerOf([snapshot.value!])).toBeUndefined();
    await open(gate);
    const later: StreamResponse[] = [];
    for await (const e of resub) later.push(e);
    expect(stateOf(later.at(-1)!)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerOf(later)).toBe(`Finished after gate ${gate} opened`);
    // The tool's result reached B as a working update carrying the Corvid event.
    const progress = later.filter((e) => stateOf(e) === TaskState.TASK_STATE_WORKING);
    expect(JSON.stringify(progress.map((e) => (e.payload?.$case === 'statusUpdate' ? e.payload.value.metadata : undefined)))).toContain(
      'tool_result',
    );
    const onA: StreamResponse[] = [];
    for await (const e of sending) onA.push(e);
    expect(stateOf(onA.at(-1)!)).toBe(TaskState.TASK_STATE_COMPLETED);
    // Once it ended, the task cannot be subscribed to on either instance.
    await expect(async () => {
      for await (const e of (await clientOf(b, binding)).resubscribeTask({ tenant: '', id: taskId })) void e;
    }).rejects.toThrow(/terminal state/);
  });
});

describe('A2A v1.0 resubscription and cancel through another instance', () => {
  it('ends the stream canceled when the task running on A is canceled through B', async () => {
    const gate = `gate-cancel-${crypto.randomUUID().slice(0, 8)}`;
    const onA = await clientOf(a, 'HTTP+JSON');
    const sending = onA.sendMessageStream({
      tenant: '',
      message: userMessage(`wait at ${gate}`),
      configuration: undefined,
      metadata: undefined,
    });
    const first = await sending.next();
    const taskId = first.value?.payload?.$case === 'task' ? first.value.payload.value.id : '';
    await vi.waitFor(() => expect(gates.has(gate)).toBe(true), { timeout: 5000 });
    const onB = await clientOf(b, 'JSONRPC');
    const resub = onB.resubscribeTask({ tenant: '', id: taskId });
    expect((await resub.next()).value?.payload?.$case).toBe('task');
    const canceled = await onB.cancelTask({ tenant: '', id: taskId, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const later: StreamResponse[] = [];
    for await (const e of resub) later.push(e);
    expect(stateOf(later.at(-1)!)).toBe(TaskState.TASK_STATE_CANCELED);
    expect(answerOf(later)).toBeUndefined();
    for await (const e of sending) void e;
  });
});

describe('A2A v0.3 tasks/resubscribe through another instance', () => {
  it('stops reading the task log once the resubscriber disconnects', async () => {
    const gate = `gate-gone-${crypto.randomUUID().slice(0, 8)}`;
    const taskId = await startWaitingTask(gate);
    const leave = new AbortController();
    const res = await resubscribeOnB(taskId, leave.signal);
    const events = sseEvents(res);
    expect((await events.next()).value.result).toMatchObject({ kind: 'task', id: taskId });
    const logId = `a2a:waiter:${taskId}`;
    // B polls the log while its subscriber listens...
    const before = logReadsOnB.get(logId) ?? 0;
    await vi.waitFor(() => expect(logReadsOnB.get(logId) ?? 0).toBeGreaterThan(before + 2), { timeout: 5000 });
    leave.abort();
    // ...and stops once it has gone, though the task still runs on A.
    let last = -1;
    await vi.waitFor(
      () => {
        const now = logReadsOnB.get(logId) ?? 0;
        const settled = now === last;
        last = now;
        expect(settled).toBe(true);
      },
      { timeout: 5000, interval: 400 },
    );
    await open(gate);
  });

  it('streams the v0.3 events of a task running on the other instance, ending with the final completed update', async () => {
    const gate = `gate-v03-${crypto.randomUUID().slice(0, 8)}`;
    const taskId = await startWaitingTask(gate);
    const res = await resubscribeOnB(taskId);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = sseEvents(res);
    const first = await events.next();
    expect(first.value.result).toMatchObject({ kind: 'task', id: taskId, status: { state: 'working' } });
    await open(gate);
    const rest: any[] = [];
    for await (const e of events) rest.push(e.result);
    expect(rest.at(-1)).toMatchObject({ kind: 'status-update', taskId, final: true, status: { state: 'completed' } });
    expect(rest.filter((e) => e.kind === 'artifact-update').at(-1).artifact.parts[0].text).toBe(`Finished after gate ${gate} opened`);
  });
});

/** Sends a v0.3 non-blocking message to A whose task waits at `gate`; its id once the task is waiting. */
async function startWaitingTask(gate: string): Promise<string> {
  const sent = await fetch(`${a.url}/a2a/waiter`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: {
        message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: `wait at ${gate}` }] },
        configuration: { blocking: false },
      },
    }),
  });
  const taskId = ((await sent.json()) as any).result.id as string;
  await vi.waitFor(() => expect(gates.has(gate)).toBe(true), { timeout: 5000 });
  return taskId;
}

/** `tasks/resubscribe` (v0.3 JSON-RPC) for the task on instance B. */
const resubscribeOnB = (taskId: string, signal?: AbortSignal) =>
  fetch(`${b.url}/a2a/waiter`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 's', method: 'tasks/resubscribe', params: { id: taskId } }),
    ...(signal ? { signal } : {}),
  });

/** The `data:` payloads of an SSE response, parsed. */
async function* sseEvents(res: Response): AsyncGenerator<any> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5))
        .join('');
      buffer = buffer.slice(end + 2);
      if (data) yield JSON.parse(data);
      end = buffer.indexOf('\n\n');
    }
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
  }
}
