import { TaskState, type Message as A2AMessage, type StreamResponse, type Task, type TaskArtifactUpdateEvent, type TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutionEvent, type ExecutionEventBus, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';
import { isoNow } from '../../../core/iso-now.js';
import type { GuardedPushSender } from '../push/guarded-push-sender.js';
import type { LightEventBusManager } from './light-event-bus.js';
import type { TaskSink } from '../execution/task-sink.js';

const TERMINAL = new Set<TaskState>([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED]);

/** What a `DirectTask` needs. */
export interface DirectTaskOptions {
  taskId: string;
  context: ServerCallContext;
  store: TaskStore;
  sender: GuardedPushSender;
  buses: LightEventBusManager;
}

/**
 * The `TaskSink` of a blocking `SendMessage`: folds the run's changes into one task object as
 * the SDK's result manager would (no event objects, no per-event store round trip or copy), saves
 * it (the changes of one tick in one save), sends push notifications when configs exist, and
 * waits with the answer until the last save is done (`settled`).
 *
 * It has no event bus of its own. When one is asked for while the task runs (another caller
 * resubscribes, or cancels it), the bus manager makes one and attaches it here; from then on
 * every change is also published on it, as the SDK's path would.
 */
export class DirectTask implements TaskSink {
  task!: Task;
  private bus: ExecutionEventBus | undefined;
  private dirty = false;
  private saving: Promise<void> | undefined;
  private saveError: unknown;

  constructor(private readonly options: DirectTaskOptions) {
    options.buses.expect(options.taskId, options.context, (bus) => (this.bus = bus));
  }

  start(task: Task): void {
    this.task = { ...task, history: task.history ?? [], artifacts: task.artifacts ?? [] };
    this.changed(undefined);
  }

  status(state: TaskState, message?: A2AMessage, metadata?: Record<string, unknown>): void {
    const task = this.task;
    const current = task.status?.state;
    // A finished task stays as it finished (a late cancel after the answer, say).
    if (current !== undefined && current !== state && TERMINAL.has(current)) return;
    const status = { state, message, timestamp: isoNow() };
    task.status = status;
    if (metadata) task.metadata = { ...task.metadata, ...metadata };
    // Replaced, not changed in place: a shallow copy of the task stays a snapshot.
    if (message) task.history = [...task.history, message];
    this.changed({ taskId: task.id, contextId: task.contextId, status, metadata });
  }

  artifact(update: TaskArtifactUpdateEvent): void {
    const task = this.task;
    const artifact = update.artifact;
    if (!artifact) return;
    const artifacts = [...task.artifacts];
    const at = artifacts.findIndex((a) => a.artifactId === artifact.artifactId);
    if (at === -1) artifacts.push(artifact);
    else if (update.append) {
      const old = artifacts[at];
      artifacts[at] = {
        ...old,
        parts: [...old.parts, ...artifact.parts],
        ...(artifact.description ? { description: artifact.description } : {}),
        ...(artifact.name ? { name: artifact.name } : {}),
        ...(artifact.metadata ? { metadata: { ...old.metadata, ...artifact.metadata } } : {}),
      };
    } else artifacts[at] = artifact;
    task.artifacts = artifacts;
    if (update.metadata) task.metadata = { ...task.metadata, ...update.metadata };
    this.changed(update);
  }

  end(waiting: boolean): void {
    const { buses, taskId, context } = this.options;
    buses.release(taskId, context);
    if (waiting) {
      // Waiting for the caller's reply: its bus stays open for it, as on the SDK's path.
      this.bus ??= buses.createOrGetByTaskId(taskId, context);
      buses.keepWaiting(taskId, context);
      return;
    }
    if (this.bus) {
      this.bus.finished();
      buses.cleanupByTaskId(taskId, context);
    }
  }

  /** The task once every change is saved (throws what a save threw). */
  async settled(): Promise<Task> {
    while (this.saving) await this.saving;
    if (this.saveError) throw this.saveError;
    return this.task;
  }

  /** Saves, notifies and publishes a change: `undefined` for the task itself, else its event. */
  private changed(event: TaskStatusUpdateEvent | TaskArtifactUpdateEvent | undefined): void {
    this.dirty = true;
    this.saving ??= this.flush();
    const { sender, context } = this.options;
    if (!this.bus && sender.unused) return;
    // Fields are replaced rather than changed in place: a shallow copy is a snapshot.
    const snapshot = { ...this.task };
    const published: AgentExecutionEvent =
      event === undefined ? AgentEvent.task(snapshot) : 'status' in event ? AgentEvent.statusUpdate(event) : AgentEvent.artifactUpdate(event);
    this.bus?.publish(published);
    if (!sender.unused) void sender.send(streamResponseOf(published, snapshot), context, snapshot).catch(() => undefined);
  }

  /** Saves the task until no change is left unsaved; the changes of one tick go in one save. */
  private async flush(): Promise<void> {
    try {
      await undefined;
      while (this.dirty) {
        this.dirty = false;
        await this.options.store.save(this.task, this.options.context);
      }
    } catch (err) {
      this.saveError ??= err;
    }
    this.saving = undefined;
  }
}

/** The stream response a push notification carries for a change (tasks as they now stand). */
function streamResponseOf(event: AgentExecutionEvent, task: Task): StreamResponse {
  switch (event.kind) {
    case 'task':
      return { payload: { $case: 'task', value: task } };
    case 'statusUpdate':
      return { payload: { $case: 'statusUpdate', value: event.data } };
    case 'artifactUpdate':
      return { payload: { $case: 'artifactUpdate', value: event.data } };
    case 'message':
      return { payload: { $case: 'message', value: event.data } };
    default: {
      const never: never = event;
      return never;
    }
  }
}
