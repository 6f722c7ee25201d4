import { isDeepStrictEqual } from 'node:util';

import { type Message, type Part, Role, type Task, TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';

import { BoundedMemoryTaskStore } from '../../src/a2a/index.js';

const text = (value: string, mediaType = 'text/plain'): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType,
});
const message = (id: string, role: Role, parts: Part[], taskId = 't1', contextId = 'c1'): Message => ({
  messageId: id,
  contextId,
  taskId,
  role,
  parts,
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

/** A finished task as the executor leaves it: the answer is both the last history message and the status message. */
function completed(): Task {
  const answer = message('m2', Role.ROLE_AGENT, [text('ok — ünïcode "quoted"\n')]);
  return {
    id: 't1',
    contextId: 'c1',
    status: { state: TaskState.TASK_STATE_COMPLETED, message: answer, timestamp: '2026-11-26T15:51:12.496Z' },
    artifacts: [
      {
        artifactId: 't1-answer',
        name: 'answer',
        description: '',
        parts: [text('ok — ünïcode "quoted"\n')],
        metadata: undefined,
        extensions: [],
      },
    ],
    history: [message('m1', Role.ROLE_USER, [text('hello', '')]), answer],
    metadata: undefined,
  };
}

/** Same fields, same order, same values, all the way down (so the same JSON). */
function expectSame(a: unknown, b: unknown): void {
  expect(isDeepStrictEqual(a, b)).toBe(true);
  expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  const keys = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(keys) : v && typeof v === 'object' ? Object.entries(v).map(([k, x]) => [k, keys(x)]) : v;
  expect(keys(a)).toEqual(keys(b));
}

describe('BoundedMemoryTaskStore, finished and running tasks', () => {
  it('answers loads and lists of finished tasks with equal new objects, and keeps running tasks as saved', async () => {
    const store = new BoundedMemoryTaskStore();
    const done = completed();
    await store.save(done);
    const running = {
      ...completed(),
      id: 't2',
      status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: '2026-11-26T15:51:13.000Z' },
    };
    await store.save(running);
    const loaded = (await store.load('t1'))!;
    expectSame(loaded, done);
    expect(loaded).not.toBe(done);
    // A finished task changed after its save is not changed in the store.
    done.history.push(message('m5', Role.ROLE_USER, [text('later')]));
    expect((await store.load('t1'))!.history).toHaveLength(2);
    // A running task saved again as the same object: what the store has is that object's state.
    running.history.push(message('m6', Role.ROLE_USER, [text('more')]));
    await store.save(running);
    expect((await store.load('t2'))!.history).toHaveLength(3);
    const listed = await store.list({
      tenant: '',
      contextId: '',
      status: 0,
      pageToken: '',
      statusTimestampAfter: undefined,
      includeArtifacts: true,
    });
    expect(listed.tasks.map((t) => t.id)).toEqual(['t2', 't1']);
    expectSame(listed.tasks[1], (await store.load('t1'))!);
  });
});

describe('BoundedMemoryTaskStore, a task resting, running again, and resting again', () => {
  it('loads and lists the running state while it runs, and the last state after', async () => {
    const store = new BoundedMemoryTaskStore();
    const asked = {
      ...completed(),
      status: { state: TaskState.TASK_STATE_INPUT_REQUIRED, message: undefined, timestamp: '2026-11-26T10:00:00.000Z' },
    };
    await store.save(asked);
    const again = { ...asked, status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: '2026-11-26T10:00:01.000Z' } };
    await store.save(again);
    const list = () => store.list({ tenant: '', contextId: '', status: 0, pageToken: '', statusTimestampAfter: undefined });
    expect((await store.load('t1'))!.status!.state).toBe(TaskState.TASK_STATE_WORKING);
    expect((await list()).tasks.map((t) => [t.id, t.status!.state])).toEqual([['t1', TaskState.TASK_STATE_WORKING]]);
    await store.save({
      ...again,
      status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: '2026-11-26T10:00:02.000Z' },
    });
    expect((await store.load('t1'))!.status!.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((await list()).tasks.map((t) => [t.id, t.status!.state])).toEqual([['t1', TaskState.TASK_STATE_COMPLETED]]);
  });
});

describe('BoundedMemoryTaskStore, what a loader may change', () => {
  it('gives each load its own task, status, history, artifacts and metadata; messages and parts are read-only', async () => {
    const store = new BoundedMemoryTaskStore();
    await store.save({ ...completed(), metadata: { a: 1 } });
    const loaded = (await store.load('t1'))!;
    // What the SDK's result manager changes in a loaded task before saving it back.
    loaded.status = { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: '2026-11-26T15:51:13.000Z' };
    loaded.history.push(message('m3', Role.ROLE_USER, [text('more')]));
    loaded.artifacts.push({ artifactId: 'x', name: 'x', description: '', parts: [], metadata: undefined, extensions: [] });
    loaded.artifacts[0].parts = [...loaded.artifacts[0].parts, text(' and more')];
    loaded.metadata!.b = 2;
    // Deeper objects are shared with the store, frozen: changing them fails loudly.
    expect(() => {
      (loaded.history[0].parts[0].content as { value: string }).value = 'changed';
    }).toThrow(TypeError);
    expect(() => loaded.history[1].parts.push(text('x'))).toThrow(TypeError);
    expectSame(await store.load('t1'), { ...completed(), metadata: { a: 1 } });
    // Saving the changed task stores the change, and later loads see it.
    await store.save(loaded);
    const again = (await store.load('t1'))!;
    expect(again.history).toHaveLength(3);
    expect(again.artifacts.map((a) => a.parts.length)).toEqual([2, 0]);
    expect(again.metadata).toEqual({ a: 1, b: 2 });
  });
});

describe('BoundedMemoryTaskStore, unusual metadata', () => {
  it('keeps an own "__proto__" key of metadata as data, not as a prototype', async () => {
    const store = new BoundedMemoryTaskStore();
    const metadata = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    await store.save({ ...completed(), metadata });
    const loaded = (await store.load('t1'))!;
    expect(Object.keys(loaded.metadata!)).toEqual(['__proto__', 'a']);
    expect((loaded.metadata as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
