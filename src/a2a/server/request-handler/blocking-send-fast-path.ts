import {
  type AgentCard,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
  type TaskArtifactUpdateEvent,
  TaskState,
  type TaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutionEvent, type ExecutionEventBus, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';

import { newId } from '../../../http/new-id.js';
import type { CorvidAgentExecutor } from '../execution/corvid-agent-executor.js';
import type { TaskSink } from '../execution/task-sink.js';
import type { GuardedPushSender } from '../push/guarded-push-sender.js';
import type { WaitingBusManager } from './waiting-bus-manager.js';

const TERMINAL = new Set<TaskState>([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

/** What `BlockingSendFastPath` works with: the same parts the SDK's request handler is given. */
export interface BlockingSendFastPathParts {
  card: AgentCard;
  taskStore: TaskStore;
  executor: CorvidAgentExecutor;
  buses: WaitingBusManager;
  sender: GuardedPushSender;
}

/**
 * The one fast path of Corvid's A2A server: a blocking `message/send` that starts a new task
 * (no task id, reference tasks, inline push config, extensions, or `returnImmediately`),
 * chosen in `CorvidRequestHandler.sendMessage`. Its reference is the SDK's
 * `DefaultRequestHandler.sendMessage`: `test/a2a/blocking-send-fast-path.test.ts` runs the same
 * requests through both and compares answers and stored tasks.
 *
 * Why: on the SDK's path each of a blocking send's four task events (submitted, working, the
 * answer artifact, completed) is loaded from the task store, merged, saved, and deep-copied for
 * push notifications whether or not the task has any (BENCHMARKS.md, "Serving"). Here the run's
 * changes are folded into one task object as the SDK's result manager folds them, saved at most
 * once per tick, and copied for push notifications only when a webhook may be registered.
 *
 * The task gets an SDK event bus as soon as one is asked for (`WaitingBusManager.expect`: a
 * `tasks/cancel`, a resubscription), and its later changes are published on it, so those and a
 * task left waiting for input work as on the SDK's path; most tasks never need one.
 */
export class BlockingSendFastPath {
  constructor(private readonly parts: BlockingSendFastPathParts) {}

  /** Whether `params` is a call this path answers exactly as the SDK's `sendMessage` would. */
  accepts(params: SendMessageRequest, context: ServerCallContext): boolean {
    const message = params.message;
    const config = params.configuration;
    return (
      message !== undefined &&
      !!message.messageId &&
      !message.taskId &&
      !message.referenceTaskIds?.length &&
      config?.returnImmediately !== true &&
      !config?.taskPushNotificationConfig &&
      !context.requestedExtensions?.length &&
      !this.parts.card.capabilities?.extensions?.some((e) => e.required)
    );
  }

  /** Runs the task to its end (or until it waits for input) and returns it, as the SDK would. */
  async send(params: SendMessageRequest, context: ServerCallContext): Promise<Task> {
    const message = params.message!;
    const taskId = newId();
    const contextId = message.contextId || newId();
    const userMessage: Message = { ...message, contextId, taskId };
    const sink = new FoldingSink(this.parts, taskId, context);
    await this.parts.executor.run({ taskId, contextId, userMessage, context, newContext: !message.contextId }, sink);
    const task = { ...(await sink.settled()) };
    const historyLength = params.configuration?.historyLength;
    if (historyLength !== undefined) task.history = historyLength <= 0 ? [] : task.history.slice(-historyLength);
    return task;
  }
}

/**
 * Folds a run's changes into one task object as the SDK's result manager would, saves it (the
 * changes of one tick in one save), publishes each change on the task's bus, and hands push
 * notifications to the sender when a webhook may be registered.
 */
class FoldingSink implements TaskSink {
  private task!: Task;
  private bus: ExecutionEventBus | undefined;
  private dirty = false;
  private saving: Promise<void> | undefined;
  private saveError: unknown;

  constructor(
    private readonly parts: BlockingSendFastPathParts,
    private readonly taskId: string,
    private readonly context: ServerCallContext,
  ) {
    parts.buses.expect(taskId, context, (bus) => (this.bus = bus));
  }

  start(task: Task): void {
    this.task = { ...task, history: [...task.history], artifacts: [...task.artifacts] };
    this.changed(AgentEvent.task(task));
  }

  status(state: TaskState, message?: Message, metadata?: Record<string, unknown>): void {
    const task = this.task;
    const current = task.status?.state;
    // A finished task stays as it finished (a late cancel after the answer, say).
    if (current !== undefined && current !== state && TERMINAL.has(current)) return;
    const status = { state, message, timestamp: new Date().toISOString() };
    task.status = status;
    if (metadata) task.metadata = { ...task.metadata, ...metadata };
    if (message && !task.history.some((m) => m.messageId === message.messageId)) task.history = [...task.history, message];
    const update: TaskStatusUpdateEvent = { taskId: task.id, contextId: task.contextId, status, metadata };
    this.changed(AgentEvent.statusUpdate(update));
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
    this.changed(AgentEvent.artifactUpdate(update));
  }

  end(waiting: boolean): void {
    const { buses } = this.parts;
    buses.release(this.taskId, this.context);
    if (waiting) {
      // As the SDK settles a bus: a task waiting for its caller keeps one for the reply.
      this.bus ??= buses.createOrGetByTaskId(this.taskId, this.context);
      if (buses.settleByTaskId(this.taskId, this.bus, this.task.status?.state, this.context)) return;
    }
    if (!this.bus) return;
    this.bus.finished();
    buses.cleanupByTaskId(this.taskId, this.context);
  }

  /** The task once every change is saved (throws what a save threw). */
  async settled(): Promise<Task> {
    while (this.saving) await this.saving;
    if (this.saveError) throw this.saveError;
    return this.task;
  }

  private changed(event: AgentExecutionEvent): void {
    this.dirty = true;
    this.saving ??= this.flush();
    this.bus?.publish(event);
    const { card, sender } = this.parts;
    if (!card.capabilities?.pushNotifications || sender.unused) return;
    // Fields are replaced, never changed in place: a shallow copy stays as it is now.
    const snapshot = { ...this.task };
    void sender.send(streamResponseOf(event, snapshot), this.context, snapshot).catch(() => undefined);
  }

  /** Saves the task until no change is left unsaved; the changes of one tick go in one save. */
  private async flush(): Promise<void> {
    try {
      await undefined;
      while (this.dirty) {
        this.dirty = false;
        await this.parts.taskStore.save(this.task, this.context);
      }
    } catch (err) {
      this.saveError ??= err;
    }
    this.saving = undefined;
  }
}

/** The stream response a push notification carries for a change (a task event: the task as it now stands). */
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
