import { Role, TaskState, type AgentCard, type CancelTaskRequest, type Message, type SendMessageRequest, type StreamResponse, type Task } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  RequestContext,
  type AgentExecutionEvent,
  type AgentExecutor,
  type ExecutionEventBusManager,
  type PushNotificationStore,
  type ServerCallContext,
  type TaskStore,
} from '@a2a-js/sdk/server';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { isoNow } from '../core/iso-now.js';
import { newId } from '../core/new-id.js';
import type { CancelMarks } from './cancel-marks.js';
import type { GuardedPushSender } from './guarded-push-sender.js';

/** The parts a `CorvidRequestHandler` is built from. */
export interface CorvidRequestHandlerParts {
  card: AgentCard;
  taskStore: TaskStore;
  executor: AgentExecutor;
  buses: ExecutionEventBusManager;
  pushStore: PushNotificationStore;
  sender: GuardedPushSender;
  /** With a shared store: marks left for the instance running a task canceled here. */
  cancelMarks?: CancelMarks;
}

const TERMINAL = new Set<TaskState>([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED]);
/** States a task waits in for the caller: its event bus stays open for the follow-up message. */
const INTERRUPTED = new Set<TaskState>([TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED]);

/**
 * The SDK's `DefaultRequestHandler` with a direct path for the most common call: a blocking
 * `SendMessage` that starts a new task (no `taskId`, reference tasks or inline push config).
 * That path runs the executor on the task's event bus like the SDK (so `tasks/cancel`,
 * resubscription and push configs set meanwhile work the same), but folds the events into one
 * task object itself: no per-event store round trip, lock, or deep copy. The task is saved when it
 * is created and after each event (coalesced while a save is in flight), and the answer is sent
 * once the last save is done. Every other call goes to the SDK unchanged.
 */
export class CorvidRequestHandler extends DefaultRequestHandler {
  private readonly parts: CorvidRequestHandlerParts;

  constructor(parts: CorvidRequestHandlerParts) {
    super(parts.card, parts.taskStore, parts.executor, parts.buses, parts.pushStore, parts.sender);
    this.parts = parts;
  }

  /**
   * The SDK's cancel; when the task has no event bus here (it runs on another instance sharing
   * the store, which the SDK then marks canceled in the store), also leaves a cancel mark, so that
   * instance stops its run.
   */
  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const marks = this.parts.cancelMarks;
    const elsewhere = marks !== undefined && this.parts.buses.getByTaskId(params.id, context) === undefined;
    const task = await super.cancelTask(params, context);
    if (elsewhere && task.status?.state === TaskState.TASK_STATE_CANCELED) await marks.mark(task.id);
    return task;
  }

  override async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    const message = params.message;
    const config = params.configuration;
    if (!message?.messageId || message.taskId || message.referenceTaskIds?.length || config?.returnImmediately || config?.taskPushNotificationConfig || context.requestedExtensions?.length) {
      return super.sendMessage(params, context);
    }
    const taskId = newId();
    const contextId = message.contextId || newId();
    const userMessage: Message = { ...message, contextId, taskId };
    const requestContext = Object.assign(Object.create(RequestContext.prototype) as RequestContext, {
      request: { ...params, message: userMessage },
      taskId,
      contextId,
      context,
      task: undefined,
      referenceTasks: undefined,
    });
    const { taskStore, sender, buses } = this.parts;
    const bus = buses.createOrGetByTaskId(taskId, context);
    let task: Task | undefined;
    let final: Message | undefined;
    let dirty = false;
    let saving: Promise<void> | undefined;
    let saveError: unknown;
    // Saves the task until no event changed it since the last save. `saving` is cleared in the
    // same tick the loop sees nothing left, so a later event always starts a new flush.
    const flush = async () => {
      try {
        while (dirty) {
          dirty = false;
          await taskStore.save(task!, context);
        }
      } catch (err) {
        saveError ??= err;
      }
      saving = undefined;
    };
    const persist = () => {
      dirty = true;
      saving ??= flush();
    };
    const onEvent = (event: AgentExecutionEvent) => {
      if (event.kind === 'message') {
        final = event.data;
        return;
      }
      if (!applyEvent(event, taskId, userMessage, (t) => (task = t), task)) return;
      persist();
      if (sender.unused) return;
      // Events replace the task's fields rather than change them in place: a shallow copy is a snapshot.
      const snapshot = { ...task! };
      void sender.send(streamResponseOf(event, snapshot), context, snapshot).catch(() => undefined);
    };
    bus.on('event', onEvent);
    try {
      try {
        await this.parts.executor.execute(requestContext, bus);
      } catch (err) {
        // As the SDK does: an executor that throws fails the task.
        const status = { state: TaskState.TASK_STATE_FAILED, message: agentText(`Agent execution error: ${err instanceof Error ? err.message : String(err)}`, taskId, contextId), timestamp: isoNow() };
        if (!task) bus.publish(AgentEvent.task({ id: taskId, contextId, status, artifacts: [], history: [userMessage], metadata: {} }));
        bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status, metadata: {} }));
      }
    } finally {
      bus.off('event', onEvent);
      const state = task?.status?.state;
      if (state === undefined || !INTERRUPTED.has(state)) {
        bus.finished();
        buses.cleanupByTaskId(taskId, context);
      }
    }
    while (saving) await saving;
    if (saveError) throw saveError;
    if (final) return final;
    if (!task) throw new RequestMalformedError('Execution finished before a message or task was produced.');
    const result = { ...task };
    const historyLength = config?.historyLength;
    if (historyLength !== undefined) result.history = historyLength <= 0 ? [] : task.history.slice(-historyLength);
    return result;
  }
}

/**
 * Folds one event into the task as the SDK's result manager does. Returns false when the event
 * does not change the task (another task's event, an update to a finished task).
 */
function applyEvent(event: Exclude<AgentExecutionEvent, { kind: 'message' }>, taskId: string, userMessage: Message, set: (task: Task) => void, task: Task | undefined): boolean {
  switch (event.kind) {
    case 'task': {
      const next = event.data;
      if (next.id !== taskId) return false;
      const merged: Task = { ...next, history: next.history ?? [], artifacts: next.artifacts ?? [] };
      if (task) {
        if (merged.history.length === 0) merged.history = task.history;
        if (task.metadata || next.metadata) merged.metadata = { ...task.metadata, ...next.metadata };
      }
      if (!merged.history.some((m) => m.messageId === userMessage.messageId)) merged.history = [userMessage, ...merged.history];
      set(merged);
      return true;
    }
    case 'statusUpdate': {
      const update = event.data;
      if (!task || update.taskId !== taskId) return false;
      const state = task.status?.state;
      if (state !== undefined && TERMINAL.has(state) && update.status?.state !== state) return false;
      task.status = update.status;
      if (update.metadata) task.metadata = { ...task.metadata, ...update.metadata };
      const said = update.status?.message;
      if (said && !task.history.some((m) => m.messageId === said.messageId)) task.history = [...task.history, said];
      return true;
    }
    case 'artifactUpdate': {
      const update = event.data;
      const artifact = update.artifact;
      if (!task || !artifact || update.taskId !== taskId) return false;
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
      return true;
    }
    default: {
      const never: never = event;
      return never;
    }
  }
}

/** The stream response a push notification carries for an event (tasks as they now stand). */
function streamResponseOf(event: Exclude<AgentExecutionEvent, { kind: 'message' }>, task: Task): StreamResponse {
  switch (event.kind) {
    case 'task':
      return { payload: { $case: 'task', value: task } };
    case 'statusUpdate':
      return { payload: { $case: 'statusUpdate', value: event.data } };
    case 'artifactUpdate':
      return { payload: { $case: 'artifactUpdate', value: event.data } };
    default: {
      const never: never = event;
      return never;
    }
  }
}


function agentText(text: string, taskId: string, contextId: string): Message {
  return { messageId: newId(), contextId, taskId, role: Role.ROLE_AGENT, parts: [{ content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: {} }], metadata: {}, extensions: [], referenceTaskIds: [] };
}
