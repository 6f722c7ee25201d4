import { setTimeout as sleep } from 'node:timers/promises';

import { StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { TaskNotFoundError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';

import type { RunEventRecord } from '../../../types/storage/run-events.js';
import { disconnectSignal } from '../call-context.js';
import { TASK_LOG_TYPES, type TaskEventLog, taskLogId } from '../execution/logged-task-sink.js';
import { foldTaskUpdate } from './fold-task-update.js';

const TERMINAL = new Set<TaskState>([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);
/** Where a subscription ends, as the SDK's in-process one does: a terminal state, or input required. */
const STOPS = new Set<TaskState>([...TERMINAL, TaskState.TASK_STATE_INPUT_REQUIRED]);
const LOGGED = new Set<string>(Object.values(TASK_LOG_TYPES));

/** What `followTaskLog` reads. */
export interface FollowTaskLogOptions {
  taskStore: TaskStore;
  eventLog: TaskEventLog;
  taskId: string;
  context: ServerCallContext;
  /** How often the log is read while nothing new came. Default 100 ms. */
  pollMs?: number;
  /** After this long without new events the stored task is looked at (ended elsewhere, its instance gone). Default 1000 ms. */
  storeCheckMs?: number;
}

/**
 * A resubscription to a task whose run has no event bus in this process (it runs on another
 * instance sharing the database), from the task's log in the run event log (`LoggedTaskSink`):
 * first the task as of the log's last event (the run's `a2a.task` event with the later updates
 * folded in; the stored task when the log has none), then each later status and artifact
 * update as it is appended, ending after a terminal or input-required status, as the SDK's
 * in-process resubscription does. A task the store shows ended without a logged end (canceled
 * while its instance was gone) ends with the stored status. It ends too once the caller's
 * stream is closed (`watchDisconnect`).
 * @throws TaskNotFoundError for a task the caller cannot see; UnsupportedOperationError for an ended task
 */
export async function* followTaskLog(options: FollowTaskLogOptions): AsyncGenerator<StreamResponse, void, undefined> {
  const stored = await options.taskStore.load(options.taskId, options.context);
  if (!stored) throw new TaskNotFoundError(`Task not found: ${options.taskId}`);
  const state = stored.status?.state;
  if (state !== undefined && TERMINAL.has(state))
    throw new UnsupportedOperationError(`Task ${options.taskId} is in a terminal state (${state}) and cannot be subscribed to.`);
  const id = taskLogId(options.eventLog.agent, options.taskId);
  const { task, after } = await currentTask(options, id);
  const snapshot = task ?? stored;
  yield { payload: { $case: 'task', value: snapshot } };
  const now = snapshot.status?.state;
  if (now !== undefined && TERMINAL.has(now)) return;
  yield* follow(options, id, after);
}

/** The task as of the last logged event (undefined when the log has no `a2a.task` event), and that event's seq. */
async function currentTask(options: FollowTaskLogOptions, id: string): Promise<{ task: Task | undefined; after: number }> {
  let task: Task | undefined;
  let after = 0;
  for (;;) {
    const events = await options.eventLog.log.read(id, { after, limit: 1000 });
    for (const e of events) {
      after = e.seq;
      const change = parse(e);
      if (change) task = foldTaskUpdate(task, change);
    }
    if (events.length < 1000) return { task, after };
  }
}

/** The updates logged after `after`, as they come, until the task stops (see `followTaskLog`). */
async function* follow(options: FollowTaskLogOptions, id: string, after: number): AsyncGenerator<StreamResponse, void, undefined> {
  const log = options.eventLog.log;
  const storeCheckMs = options.storeCheckMs ?? 1000;
  // A client that went away is followed no further (its stream is drained, not read).
  const gone = disconnectSignal(options.context);
  let quietSince = Date.now();
  while (!gone?.aborted) {
    const events = await log.read(id, { after, limit: 1000 });
    for (const e of events) {
      after = e.seq;
      const change = parse(e);
      if (!change) continue;
      yield change;
      const state = change.payload?.$case === 'statusUpdate' ? change.payload.value.status?.state : undefined;
      if (state !== undefined && STOPS.has(state)) return;
    }
    if (events.length > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= storeCheckMs) {
      quietSince = Date.now();
      const ended = await endedElsewhere(options, id, after);
      if (ended === 'gone') return;
      if (ended) return yield ended;
    }
    if (events.length < 1000) await sleep(options.pollMs ?? 100, undefined, { signal: gone }).catch(() => undefined);
  }
}

/**
 * The stored task's final status when the store shows it ended but its log does not (and has
 * no events after `after`); `gone` when the task is no longer stored; undefined otherwise.
 */
async function endedElsewhere(options: FollowTaskLogOptions, id: string, after: number): Promise<StreamResponse | 'gone' | undefined> {
  const task = await options.taskStore.load(options.taskId, options.context);
  if (!task) return 'gone';
  const state = task.status?.state;
  if (state === undefined || !TERMINAL.has(state) || (await options.eventLog.log.lastSeq(id)) > after) return undefined;
  return {
    payload: { $case: 'statusUpdate', value: { taskId: task.id, contextId: task.contextId, status: task.status, metadata: undefined } },
  };
}

function parse(e: RunEventRecord): StreamResponse | undefined {
  return LOGGED.has(e.type) ? StreamResponse.fromJSON(e.data) : undefined;
}
