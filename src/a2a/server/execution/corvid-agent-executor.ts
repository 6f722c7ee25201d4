import { type Message as A2AMessage, type Task, TaskState } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext, type ServerCallContext } from '@a2a-js/sdk/server';

import type { Runnable } from '../../../core/runnable.js';
import { RunAbortedError } from '../../../errors/run-aborted-error.js';
import type { AgentEvent as CorvidEvent } from '../../../types/events.js';
import type { Store } from '../../../types/storage/store.js';
import { artifactFromToolOutput } from '../../tool-artifact.js';
import { callerOf } from '../call-owner.js';
import type { CancelMarks } from '../store/cancel-marks.js';
import { ContextRunner, type TurnOutcome } from './context-runner.js';
import { LoggedTaskSink, type TaskEventLog } from './logged-task-sink.js';
import {
  agentMessage,
  approvalMessage,
  errorText,
  messageToText,
  parseDecision,
  pausedRunOf,
  progressMetadata,
  questionMessage,
  textPart,
} from './task-messages.js';
import { BusSink, type TaskSink } from './task-sink.js';

export { messageToText, parseDecision } from './task-messages.js';

/** Options for `CorvidAgentExecutor`. */
export interface CorvidAgentExecutorOptions {
  /** The agent's name (for sessions and messages). */
  name: string;
  /** The agent to run, looked up for every task so a reloaded config takes effect. */
  agent: () => Runnable | undefined;
  /** Where conversations live: A2A context id = Corvid session id. Default: in memory. */
  store?: () => Promise<Store>;
  /** In-memory conversations kept: at least the last `maxContexts` used, at most twice as many. Default 10000. */
  maxContexts?: number;
  /** Called when a task is `working`, before the agent runs (see `A2ATaskHook`). */
  beforeTask?: A2ATaskHook;
  /**
   * Cancellations made through other server instances sharing the store: while tasks run here,
   * looked up every `cancelCheckMs` (one query for all of them), so their runs stop too. Unset:
   * not looked up.
   */
  cancelMarks?: CancelMarks;
  /** Milliseconds between those lookups. Default 1000. */
  cancelCheckMs?: number;
  /** Watches each task's run (metrics, traces, token accounting). */
  observe?: A2ARunObserver;
  /**
   * Each task's changes are also appended here (`LoggedTaskSink`), so a resubscription through
   * another instance sharing the database follows the task. Unset: not logged.
   */
  eventLog?: TaskEventLog;
}

/** What an `A2ARunObserver` is told about a run about to start. */
export interface A2ARunStart {
  agent: Runnable;
  taskId: string;
  contextId: string;
  /** The server's client key of the caller (`ServerCallContext.state`), when served by `corvid serve`. */
  client: string | undefined;
}

/**
 * Called once per run of an A2A task: gets every event of the run, then `end()` when it is over
 * (answered, paused, failed or canceled). How `corvid serve` counts A2A runs, tokens and tool
 * calls in its metrics, traces them, and charges tokens to the caller's rate limit.
 */
export type A2ARunObserver = (run: A2ARunStart) => { onEvent: (event: CorvidEvent) => void; end(): void } | undefined;

/** What `beforeTask` hooks see of a task about to run. */
export interface A2ATaskStart {
  agent: string;
  taskId: string;
  contextId: string;
  /** The incoming A2A message (v1.0 form, whichever protocol version it arrived in). */
  message: A2AMessage;
  /** Aborted when the task is canceled. */
  signal: AbortSignal;
}

/**
 * A hook run for every A2A task once it is `working`, before the agent runs: for logging,
 * admission checks, or test conventions (the A2A TCK holds tasks whose message id starts with
 * `test-resubscribe-message-id`). Throwing fails the task with the error's message.
 */
export type A2ATaskHook = (task: A2ATaskStart) => void | Promise<void>;

const TEXT_FLUSH_MS = 20;

/** `ServerCallContext.state` key set to true by the routes for streaming methods. */
export const STREAMING_STATE_KEY = 'corvid.streaming';
/** `ServerCallContext.state` key holding the server's client key of the caller (rate limits). */
export const CLIENT_STATE_KEY = 'corvid.client';

/** What `CorvidAgentExecutor.run` needs to know of a task about to run. */
export interface TaskRunStart {
  taskId: string;
  contextId: string;
  /** The incoming message (with the task's and context's ids). */
  userMessage: A2AMessage;
  /** The stored task a message continues (a reply to an approval question); unset for a new task. */
  task?: Task;
  /** The context id was made for this task (the message named none): no conversation yet. */
  newContext?: boolean;
  context: ServerCallContext;
}

/**
 * Runs a Corvid agent (LLM or workflow) for A2A tasks. Each message becomes one run on the
 * conversation of its context (`contextId`): the task goes `submitted` → `working` →
 * `completed` / `failed` / `canceled`, or `input-required` when the agent asks the user something
 * (`ask_user`, answered by the next message on the same task) or a tool call awaits approval; top-level text deltas stream as chunks of the `answer`
 * artifact, replaced by the final answer at the end (which is also the completed status's message);
 * tool calls and other progress arrive as `working` status updates with the Corvid event in
 * `metadata.corvid`. Cancelling a task aborts its run.
 */
export class CorvidAgentExecutor implements AgentExecutor {
  private readonly running = new Map<string, AbortController>();
  private readonly runner: ContextRunner;

  constructor(private readonly options: CorvidAgentExecutorOptions) {
    this.runner = new ContextRunner({ name: options.name, store: options.store, maxContexts: options.maxContexts });
  }

  /** Whether context `contextId` exists and belongs to a caller other than `owner` (see `ContextRunner`). */
  contextOwnedByOther(contextId: string, owner: string): Promise<boolean> {
    return this.runner.ownedByOther(contextId, owner);
  }

  /** The SDK's entry point: runs the task with its changes published on `bus`. */
  execute = (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> =>
    this.run(
      { taskId: ctx.taskId, contextId: ctx.contextId, userMessage: ctx.userMessage, task: ctx.task, context: ctx.context },
      new BusSink(bus, ctx.taskId, ctx.contextId),
    );

  /** Runs a task, writing its changes to `sink`. Never throws: a failed run fails the task. */
  async run(start: TaskRunStart, target: TaskSink): Promise<void> {
    const { taskId, contextId, userMessage } = start;
    const stored = start.task;
    const log = this.options.eventLog;
    // A task without a stored one is new: its id was just made, so its log is empty.
    const sink = log ? new LoggedTaskSink(target, log, taskId, contextId, stored === undefined) : target;
    sink.start(
      stored ?? {
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
        artifacts: [],
        history: [userMessage],
        metadata: undefined,
      },
    );
    const cancel = new AbortController();
    this.running.set(taskId, cancel);
    this.watchCancels();
    const artifactId = `${taskId}-answer`;
    let streamed = '';
    let pending = '';
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (!pending) return;
      sink.artifact({
        taskId,
        contextId,
        artifact: { artifactId, name: 'answer', description: '', parts: [textPart(pending)], metadata: undefined, extensions: [] },
        append: streamed.length > 0,
        lastChunk: false,
        metadata: undefined,
      });
      streamed += pending;
      pending = '';
    };
    let watch: ReturnType<A2ARunObserver>;
    const onEvent = (event: CorvidEvent) => {
      watch?.onEvent(event);
      if (event.type === 'text_delta' && event.path.length === 1) {
        pending += event.delta;
        timer ??= setTimeout(flush, TEXT_FLUSH_MS);
      } else if (event.type === 'step_end') flush();
      else {
        // A top-level tool's file or data result (`toolArtifact`) is an artifact of the task.
        const artifact =
          event.type === 'tool_result' && event.path.length === 1 && !event.isError
            ? artifactFromToolOutput(event.output, `${taskId}-${event.toolCallId}`)
            : undefined;
        if (artifact) sink.artifact({ taskId, contextId, artifact, append: false, lastChunk: true, metadata: undefined });
        const meta = progressMetadata(event);
        if (meta) sink.status(TaskState.TASK_STATE_WORKING, undefined, { corvid: meta });
      }
    };
    let paused = false;
    try {
      const agent = this.options.agent();
      if (!agent) throw new Error(`Agent "${this.options.name}" is no longer configured`);
      if (this.options.observe)
        watch = this.options.observe({ agent, taskId, contextId, client: start.context.state.get(CLIENT_STATE_KEY) as string | undefined });
      const input = messageToText(userMessage);
      const streaming = start.context.state.get(STREAMING_STATE_KEY) === true;
      const waiting = stored?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED ? pausedRunOf(stored) : undefined;
      let result: TurnOutcome;
      if (waiting) {
        // The reply to an approval question: approve or deny, then continue the paused run.
        const decision = parseDecision(input);
        if (!decision) {
          paused = true;
          sink.status(
            TaskState.TASK_STATE_INPUT_REQUIRED,
            approvalMessage(waiting.runId, waiting.approvals, taskId, contextId, 'Please answer "approve" or "deny".'),
          );
          return;
        }
        sink.status(TaskState.TASK_STATE_WORKING);
        result = await this.runner.resume({
          agent,
          contextId,
          signal: cancel.signal,
          onEvent,
          streaming,
          runId: waiting.runId,
          decision,
          owner: callerOf(start.context),
        });
      } else {
        sink.status(TaskState.TASK_STATE_WORKING);
        if (this.options.beforeTask)
          await this.options.beforeTask({ agent: this.options.name, taskId, contextId, message: userMessage, signal: cancel.signal });
        result = await this.runner.turn({
          agent,
          contextId,
          input,
          signal: cancel.signal,
          onEvent,
          streaming,
          newContext: start.newContext,
          owner: callerOf(start.context),
        });
      }
      flush();
      if (result.kind === 'approval') {
        paused = true;
        sink.status(TaskState.TASK_STATE_INPUT_REQUIRED, approvalMessage(result.runId, result.approvals, taskId, contextId));
        return;
      }
      if (result.kind === 'question') {
        // The agent asked the user (ask_user): the reply on this task is the conversation's next turn.
        paused = true;
        sink.status(TaskState.TASK_STATE_INPUT_REQUIRED, questionMessage(result.question, taskId, contextId));
        return;
      }
      sink.artifact({
        taskId,
        contextId,
        artifact: { artifactId, name: 'answer', description: '', parts: [textPart(result.text)], metadata: undefined, extensions: [] },
        append: false,
        lastChunk: true,
        metadata: undefined,
      });
      sink.status(TaskState.TASK_STATE_COMPLETED, agentMessage(result.text, taskId, contextId));
    } catch (err) {
      if (timer) clearTimeout(timer);
      if (cancel.signal.aborted || err instanceof RunAbortedError)
        sink.status(TaskState.TASK_STATE_CANCELED, agentMessage('The task was canceled.', taskId, contextId));
      else sink.status(TaskState.TASK_STATE_FAILED, agentMessage(errorText(err), taskId, contextId));
    } finally {
      watch?.end();
      this.running.delete(taskId);
      sink.end(paused);
    }
  }

  private cancelTimer: NodeJS.Timeout | undefined;

  /** While tasks run here, looks for cancellations made through other instances. */
  private watchCancels(): void {
    const marks = this.options.cancelMarks;
    if (!marks || this.cancelTimer) return;
    let busy = false;
    this.cancelTimer = setInterval(() => {
      if (this.running.size === 0) {
        clearInterval(this.cancelTimer);
        this.cancelTimer = undefined;
        return;
      }
      if (busy) return;
      busy = true;
      void marks
        .take(new Set(this.running.keys()))
        .then((canceled) => {
          for (const taskId of canceled)
            this.running.get(taskId)?.abort(new RunAbortedError('The task was canceled through another server instance'));
        })
        .catch(() => undefined)
        .finally(() => (busy = false));
    }, this.options.cancelCheckMs ?? 1000);
    this.cancelTimer.unref();
  }

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const running = this.running.get(taskId);
    if (running) {
      running.abort(new RunAbortedError('The task was canceled'));
      return;
    }
    // Not running here (another instance, or already settling): record the cancellation.
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: '',
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
    bus.finished();
  };
}
