import {
  type AgentCard,
  type CancelTaskRequest,
  type DeleteTaskPushNotificationConfigRequest,
  type GetTaskPushNotificationConfigRequest,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
  type TaskPushNotificationConfig,
  TaskState,
} from '@a2a-js/sdk';
import { RequestMalformedError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import { DefaultRequestHandler, type PushNotificationStore, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';

import { callerOf } from '../call-owner.js';
import { contextNotFound } from '../execution/context-runner.js';
import type { CorvidAgentExecutor } from '../execution/corvid-agent-executor.js';
import type { TaskEventLog } from '../execution/logged-task-sink.js';
import type { GuardedPushSender } from '../push/guarded-push-sender.js';
import type { CancelMarks } from '../store/cancel-marks.js';
import { BlockingSendFastPath } from './blocking-send-fast-path.js';
import { followTaskLog } from './follow-task-log.js';
import { withStateNames } from './state-names.js';
import type { WaitingBusManager } from './waiting-bus-manager.js';

/** The config id the v0.3 TCK reads a config set without an id by (see `configIdFor`). */
const DEFAULT_CONFIG_ID = 'default';

/** The parts a `CorvidRequestHandler` is built from. */
export interface CorvidRequestHandlerParts {
  card: AgentCard;
  taskStore: TaskStore;
  executor: CorvidAgentExecutor;
  buses: WaitingBusManager;
  pushStore: PushNotificationStore;
  sender: GuardedPushSender;
  /** With a shared store: marks left for the instance running a task canceled here. */
  cancelMarks?: CancelMarks;
  /**
   * The run event log the executor logs tasks to (`CorvidAgentExecutorOptions.eventLog`): a
   * resubscription to a task with no event bus here follows it there (`followTaskLog`).
   */
  eventLog?: TaskEventLog;
  /** Answer blocking sends that start a new task on `BlockingSendFastPath` (default true); false: always the SDK's path. */
  fastPath?: boolean;
}

/**
 * The SDK's `DefaultRequestHandler` with Corvid's checks around it. Push configs — set on their
 * own or inline in a send, over every binding — are refused with an invalid-params error when their URL could never be delivered to (`pushUrlProblem`).
 * A config set over v0.3 without an id (stored under the task id) is also found as `"default"`.
 * Error messages name task states (`completed`, or `TASK_STATE_COMPLETED` in v1.0) instead of
 * the SDK's enum numbers. When the card says `extendedAgentCard`, the extended card is the card.
 * A blocking send that starts a new task takes `BlockingSendFastPath` (same answers, fewer task
 * loads, saves and copies). Every other call goes to the SDK unchanged.
 */
export class CorvidRequestHandler extends DefaultRequestHandler {
  private readonly parts: CorvidRequestHandlerParts;
  private readonly fastPath: BlockingSendFastPath | undefined;

  constructor(parts: CorvidRequestHandlerParts) {
    super(
      parts.card,
      parts.taskStore,
      parts.executor,
      parts.buses,
      parts.pushStore,
      parts.sender,
      parts.card.capabilities?.extendedAgentCard ? parts.card : undefined,
    );
    this.parts = parts;
    this.fastPath = parts.fastPath === false ? undefined : new BlockingSendFastPath(parts);
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

  /**
   * Refuses a message that names a context another caller started, as if it did not exist (a
   * task id is checked by the task store's load, which finds only the caller's own tasks).
   */
  private async checkContext(message: Message | undefined, context: ServerCallContext): Promise<void> {
    const contextId = message?.contextId;
    if (contextId && !message.taskId && (await this.parts.executor.contextOwnedByOther(contextId, callerOf(context))))
      throw contextNotFound(contextId);
  }

  override async createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    // An unknown task is reported as such before the webhook URL is looked at.
    if (this.parts.card.capabilities?.pushNotifications && params.taskId && !(await this.parts.taskStore.load(params.taskId, context)))
      throw new TaskNotFoundError(`Task not found: ${params.taskId.slice(0, 150)}`);
    this.checkPushConfig(params, context, 'set');
    return super.createTaskPushNotificationConfig(params, context);
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    this.checkPushConfig(params.configuration?.taskPushNotificationConfig, context, 'inline');
    await this.checkContext(params.message, context);
    try {
      yield* super.sendMessageStream(params, context);
    } catch (err) {
      throw withStateNames(err, isLegacy(context));
    }
  }

  /**
   * The SDK's resubscription while the task has an event bus here (it runs, or waits for input,
   * in this process); otherwise, with a shared store, the task followed through its log in the
   * run event log (`followTaskLog`): it runs on another instance sharing the database.
   */
  override async *resubscribe(params: SubscribeToTaskRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    try {
      const eventLog = this.parts.eventLog;
      const elsewhere =
        eventLog !== undefined &&
        !!params.id &&
        this.parts.card.capabilities?.streaming === true &&
        this.parts.buses.getByTaskId(params.id, context) === undefined;
      if (elsewhere) yield* followTaskLog({ taskStore: this.parts.taskStore, eventLog, taskId: params.id, context });
      else yield* super.resubscribe(params, context);
    } catch (err) {
      throw withStateNames(err, isLegacy(context));
    }
  }

  override async getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return super.getTaskPushNotificationConfig({ ...params, id: await this.configIdFor(params.taskId, params.id, context) }, context);
  }

  override async deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<void> {
    return super.deleteTaskPushNotificationConfig({ ...params, id: await this.configIdFor(params.taskId, params.id, context) }, context);
  }

  /**
   * The id a get or delete means: `"default"` names the config set without an id (v0.3 stores
   * it under the task id, as the v0.3 SDKs do) unless a config is really called `"default"`.
   */
  private async configIdFor(taskId: string, id: string, context: ServerCallContext): Promise<string> {
    if (id !== DEFAULT_CONFIG_ID || !taskId) return id;
    const ids = new Set((await this.parts.pushStore.load(taskId, context)).map((c) => c.id));
    return !ids.has(DEFAULT_CONFIG_ID) && ids.has(taskId) ? taskId : id;
  }

  /** Refuses a push config whose URL can never be delivered to (bad scheme, credentials, host not allowed). */
  private checkPushConfig(config: TaskPushNotificationConfig | undefined, context: ServerCallContext, how: 'set' | 'inline'): void {
    if (!config || !this.parts.card.capabilities?.pushNotifications) return;
    const problem = this.parts.sender.problem(config.url);
    if (problem === undefined) return;
    const what =
      how === 'set'
        ? 'push notification config'
        : context.requestedVersion.startsWith('0.')
          ? 'configuration.pushNotificationConfig'
          : 'configuration.taskPushNotificationConfig';
    throw new RequestMalformedError(`Invalid ${what}: ${problem}`);
  }

  override async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    this.checkPushConfig(params.configuration?.taskPushNotificationConfig, context, 'inline');
    await this.checkContext(params.message, context);
    // The one place the fast path is chosen (its reference: the SDK's path below).
    if (this.fastPath?.accepts(params, context)) return this.fastPath.send(params, context);
    return super.sendMessage(params, context).catch((err: unknown) => {
      throw withStateNames(err, isLegacy(context));
    });
  }
}

function isLegacy(context: ServerCallContext): boolean {
  return context.requestedVersion.startsWith('0.');
}
