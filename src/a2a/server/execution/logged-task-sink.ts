import { type Message as A2AMessage, StreamResponse, type Task, type TaskArtifactUpdateEvent, type TaskState } from '@a2a-js/sdk';

import { RunEventWriter } from '../../../durable/index.js';
import type { RunEventLog } from '../../../types/storage/run-events.js';
import type { TaskSink } from './task-sink.js';

/** Where A2A tasks log their changes: the run event log shared by the server's instances, and the agent served. */
export interface TaskEventLog {
  log: RunEventLog;
  agent: string;
}

/** The types of a task log's events; each one's data is the A2A v1.0 `StreamResponse` as JSON. */
export const TASK_LOG_TYPES = { task: 'a2a.task', status: 'a2a.status', artifact: 'a2a.artifact' } as const;

/** The id of task `taskId`'s log in the run event log (`a2a:<agent>:<task id>`). */
export function taskLogId(agent: string, taskId: string): string {
  return `a2a:${agent}:${taskId}`;
}

/**
 * A `TaskSink` that passes every change on to `inner` and also appends it to the task's log in
 * the run event log (with a `RunEventWriter`, in small batches): what a resubscription on
 * another instance sharing the database reads (`followTaskLog`). Each run of the task starts with
 * an `a2a.task` event (the task as the run starts), then its status and artifact updates. Log
 * writes never hold up or fail the task.
 */
export class LoggedTaskSink implements TaskSink {
  private writer: RunEventWriter | undefined;
  private pending: [string, unknown][] | undefined = [];
  private readonly opened: Promise<void>;

  /** `fresh`: the task id was just made, so its log is empty (not read before the first write). */
  constructor(
    private readonly inner: TaskSink,
    target: TaskEventLog,
    private readonly taskId: string,
    private readonly contextId: string,
    fresh: boolean,
  ) {
    const id = taskLogId(target.agent, taskId);
    const writer = fresh ? Promise.resolve(RunEventWriter.fresh(target.log, id)) : RunEventWriter.open(target.log, id);
    this.opened = writer.then(
      (w) => {
        this.writer = w;
        for (const [type, data] of this.pending ?? []) w.add(type, data);
        this.pending = undefined;
      },
      () => void (this.pending = undefined),
    );
  }

  start(task: Task): void {
    this.inner.start(task);
    this.add(TASK_LOG_TYPES.task, { $case: 'task', value: task });
  }

  status(state: TaskState, message?: A2AMessage, metadata?: Record<string, unknown>): void {
    this.inner.status(state, message, metadata);
    const status = { state, message, timestamp: new Date().toISOString() };
    this.add(TASK_LOG_TYPES.status, { $case: 'statusUpdate', value: { taskId: this.taskId, contextId: this.contextId, status, metadata } });
  }

  artifact(update: TaskArtifactUpdateEvent): void {
    this.inner.artifact(update);
    this.add(TASK_LOG_TYPES.artifact, { $case: 'artifactUpdate', value: update });
  }

  end(waiting: boolean): void {
    this.inner.end(waiting);
    void this.opened.then(() => this.writer?.flush()).catch(() => undefined);
  }

  private add(type: string, payload: StreamResponse['payload']): void {
    const data = StreamResponse.toJSON({ payload });
    if (this.writer) this.writer.add(type, data);
    else this.pending?.push([type, data]);
  }
}
