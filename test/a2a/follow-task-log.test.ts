import { type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { OwnerUser } from '../../src/a2a/server/call-owner.js';
import { LoggedTaskSink, type TaskEventLog } from '../../src/a2a/server/execution/logged-task-sink.js';
import type { TaskSink } from '../../src/a2a/server/execution/task-sink.js';
import { followTaskLog } from '../../src/a2a/server/request-handler/follow-task-log.js';
import { StoreTaskStore } from '../../src/a2a/server/store/store-task-store.js';
import { openStore, type Store } from '../../src/storage/index.js';
import { announceSkip, type Location, mysqlTarget, postgresTarget, sqliteTarget } from '../storage/support/targets.js';

// The log a task's run writes (`LoggedTaskSink`) read back by a resubscription on an instance
// that does not run the task (`followTaskLog`), on SQLite, Postgres and MySQL stores.

let store: Store;
let log: TaskEventLog;
const ctx = new ServerCallContext({ requestedVersion: '1.0' });
const nowhere: TaskSink = { start: () => undefined, status: () => undefined, artifact: () => undefined, end: () => undefined };

function newTask(id: string): Task {
  return {
    id,
    contextId: 'ctx-1',
    status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
    artifacts: [],
    history: [],
    metadata: undefined,
  };
}

function chunk(taskId: string, text: string, append: boolean) {
  return {
    taskId,
    contextId: 'ctx-1',
    artifact: {
      artifactId: `${taskId}-answer`,
      name: 'answer',
      description: '',
      parts: [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: '' }],
      metadata: undefined,
      extensions: [],
    },
    append,
    lastChunk: false,
    metadata: undefined,
  };
}

/** Logs a task that is working with two chunks of its answer streamed; resolves once they are written. */
async function loggedWorkingTask(taskId: string): Promise<LoggedTaskSink> {
  const tasks = new StoreTaskStore(store.state, 'echo');
  await tasks.save({ ...newTask(taskId), status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: '' } }, ctx);
  const sink = new LoggedTaskSink(nowhere, log, taskId, 'ctx-1', true);
  sink.start(newTask(taskId));
  sink.status(TaskState.TASK_STATE_WORKING);
  sink.artifact(chunk(taskId, 'Hello ', false));
  sink.artifact(chunk(taskId, 'wor', true));
  const deadline = Date.now() + 5000;
  while ((await store.runEvents.lastSeq(`a2a:echo:${taskId}`)) < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  return sink;
}

const textOf = (task: Task | undefined) =>
  task?.artifacts.flatMap((a) => a.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : ''))).join('');

for (const target of [sqliteTarget, postgresTarget, mysqlTarget]) {
  announceSkip(target);
  describe.skipIf(target.skip !== undefined)(`following a task through its log on ${target.name}`, () => {
    let location: Location;
    beforeAll(async () => {
      location = await target.createLocation();
      store = await openStore(location.options);
      log = { log: store.runEvents, agent: 'echo' };
    });
    afterAll(async () => {
      await store.close();
      await location.drop();
    });
    it('starts with the task as of the log (chunks folded in), then streams the later updates until the task completes', async () => {
      const sink = await loggedWorkingTask('t-live');
      const follower = followTaskLog({
        taskStore: new StoreTaskStore(store.state, 'echo'),
        eventLog: log,
        taskId: 't-live',
        context: ctx,
        pollMs: 10,
      });
      const first = (await follower.next()).value as StreamResponse;
      const snapshot = first.payload?.$case === 'task' ? first.payload.value : undefined;
      expect(snapshot?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
      expect(textOf(snapshot)).toBe('Hello wor');
      sink.artifact(chunk('t-live', 'ld', true));
      sink.status(TaskState.TASK_STATE_COMPLETED);
      sink.end(false);
      const rest: StreamResponse[] = [];
      for await (const e of follower) rest.push(e);
      expect(rest.map((e) => e.payload?.$case)).toEqual(['artifactUpdate', 'statusUpdate']);
      expect(rest[1].payload?.$case === 'statusUpdate' && rest[1].payload.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    });

    it('ends with the stored status when the store shows the task ended but its log never will (its instance is gone)', async () => {
      await loggedWorkingTask('t-gone');
      const tasks = new StoreTaskStore(store.state, 'echo');
      const follower = followTaskLog({ taskStore: tasks, eventLog: log, taskId: 't-gone', context: ctx, pollMs: 10, storeCheckMs: 50 });
      expect((await follower.next()).value?.payload?.$case).toBe('task');
      // Canceled through another instance while the one running it was down: only the store says so.
      const stored = (await tasks.load('t-gone', ctx))!;
      await tasks.save(
        { ...stored, status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() } },
        ctx,
      );
      const rest: StreamResponse[] = [];
      for await (const e of follower) rest.push(e);
      expect(rest).toHaveLength(1);
      expect(rest[0].payload?.$case === 'statusUpdate' && rest[0].payload.value.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    });

    it('refuses an unknown task, another caller’s task and an ended one, as the SDK does', async () => {
      const tasks = new StoreTaskStore(store.state, 'echo');
      const follow = (taskId: string, context = ctx) => followTaskLog({ taskStore: tasks, eventLog: log, taskId, context }).next();
      await expect(follow('no-such-task')).rejects.toThrow(/Task not found/);
      await tasks.save(newTask('t-alice'), new ServerCallContext({ requestedVersion: '1.0', user: new OwnerUser('alice') }));
      await expect(follow('t-alice', new ServerCallContext({ requestedVersion: '1.0', user: new OwnerUser('bob') }))).rejects.toThrow(
        /Task not found/,
      );
      const done = { ...newTask('t-done'), status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: '' } };
      await tasks.save(done, ctx);
      await expect(follow('t-done')).rejects.toThrow(/terminal state/);
    });
  });
}
