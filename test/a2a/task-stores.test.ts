import { type ListTasksRequest, type Task, TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';

import { BoundedMemoryTaskStore, StoreTaskStore } from '../../src/a2a/index.js';
import { openStore } from '../../src/storage/index.js';

function task(i: number, contextId = 'c1', state = TaskState.TASK_STATE_COMPLETED): Task {
  return {
    id: `t${i}`,
    contextId,
    status: { state, message: undefined, timestamp: new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString() },
    artifacts: [
      {
        artifactId: 'a',
        name: 'answer',
        description: '',
        parts: [{ content: { $case: 'text', value: `answer ${i}` }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
        metadata: undefined,
        extensions: [],
      },
    ],
    history: [],
    metadata: {},
  };
}

const params = (p: Partial<ListTasksRequest> = {}): ListTasksRequest => ({
  tenant: '',
  contextId: '',
  status: 0,
  pageToken: '',
  statusTimestampAfter: undefined,
  ...p,
});

describe.each([
  ['StoreTaskStore (memory driver)', async () => new StoreTaskStore((await openStore({ driver: 'memory' })).state, 'agent')],
  ['BoundedMemoryTaskStore', async () => new BoundedMemoryTaskStore()],
])('%s', (_name, make) => {
  it('saves, loads and lists tasks newest first, in pages, with filters', async () => {
    const store = await make();
    for (let i = 1; i <= 5; i++)
      await store.save(
        task(i, i % 2 ? 'odd' : 'even', i === 5 ? TaskState.TASK_STATE_FAILED : TaskState.TASK_STATE_COMPLETED),
        undefined as never,
      );
    expect((await store.load('t3', undefined as never))?.artifacts[0].parts[0].content).toEqual({ $case: 'text', value: 'answer 3' });
    expect(await store.load('nope', undefined as never)).toBeUndefined();
    const first = await store.list(params({ pageSize: 2 }), undefined as never);
    expect(first.tasks.map((t) => t.id)).toEqual(['t5', 't4']);
    expect(first.totalSize).toBe(5);
    expect(first.tasks[0].artifacts).toEqual([]); // artifacts only when asked for
    const second = await store.list(params({ pageSize: 2, pageToken: first.nextPageToken }), undefined as never);
    expect(second.tasks.map((t) => t.id)).toEqual(['t3', 't2']);
    const third = await store.list(params({ pageSize: 2, pageToken: second.nextPageToken }), undefined as never);
    expect(third.tasks.map((t) => t.id)).toEqual(['t1']);
    expect(third.nextPageToken).toBe('');
    expect((await store.list(params({ contextId: 'even' }), undefined as never)).tasks.map((t) => t.id)).toEqual(['t4', 't2']);
    expect((await store.list(params({ status: TaskState.TASK_STATE_FAILED }), undefined as never)).tasks.map((t) => t.id)).toEqual(['t5']);
    expect((await store.list(params({ includeArtifacts: true, pageSize: 1 }), undefined as never)).tasks[0].artifacts).toHaveLength(1);
    await expect(store.list(params({ pageToken: 'garbage' }), undefined as never)).rejects.toThrow(/Invalid pageToken/);
  });
});

describe('BoundedMemoryTaskStore', () => {
  it('keeps the tasks saved last: at least its limit, at most twice as many', async () => {
    const store = new BoundedMemoryTaskStore(3);
    for (let i = 1; i <= 4; i++) await store.save(task(i));
    await store.save(task(2)); // saved again: among the most recent
    await store.save(task(5));
    await store.save(task(6));
    await store.save(task(7));
    const held = (await store.list(params())).tasks.map((t) => t.id);
    expect(held).toEqual(expect.arrayContaining(['t5', 't6', 't7']));
    expect(held).not.toContain('t1');
    expect(held.length).toBeLessThanOrEqual(6);
    expect(new Set(held).size).toBe(held.length); // a task saved twice is listed once
  });
});

describe('BoundedMemoryTaskStore under churn', () => {
  it('stays within twice its limit over many saves and keeps what was saved last', async () => {
    const store = new BoundedMemoryTaskStore(100);
    for (let i = 0; i < 5000; i++) {
      await store.save(task(i));
      await store.save(task(i)); // each task saved several times, as the SDK does per event
    }
    const all = (await store.list(params({ pageSize: 1000 }))).tasks.map((t) => t.id);
    expect(all.length).toBeGreaterThanOrEqual(100);
    expect(all.length).toBeLessThanOrEqual(200);
    for (let i = 4900; i < 5000; i++) expect(all).toContain(`t${i}`);
    expect(all).not.toContain('t4700');
    const loaded = await store.load('t4999');
    loaded!.history.push({} as never); // a loaded task is a copy
    expect((await store.load('t4999'))!.history).toEqual([]);
  });
});

describe('BoundedMemoryTaskStore copies', () => {
  it('returns deep copies that keep binary parts and undefined fields', async () => {
    const store = new BoundedMemoryTaskStore();
    const t = task(1);
    t.artifacts[0].parts.push({
      content: { $case: 'raw', value: new Uint8Array([1, 2, 3]) },
      metadata: undefined,
      filename: 'b.bin',
      mediaType: 'application/octet-stream',
    } as never);
    await store.save(t);
    const a = await store.load('t1');
    expect(a).toEqual(t);
    expect(a).not.toBe(t);
    expect(a!.artifacts[0].parts[1].content).toEqual({ $case: 'raw', value: new Uint8Array([1, 2, 3]) });
    expect(Object.keys(a!.status!)).toContain('message'); // undefined fields kept
    a!.artifacts[0].parts[0].content = { $case: 'text', value: 'changed' } as never;
    expect((await store.load('t1'))!.artifacts[0].parts[0].content).toEqual({ $case: 'text', value: 'answer 1' });
  });
});
