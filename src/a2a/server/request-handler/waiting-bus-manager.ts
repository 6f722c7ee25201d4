import { TaskState } from '@a2a-js/sdk';
import { DefaultExecutionEventBusManager, type ExecutionEventBus, type ServerCallContext } from '@a2a-js/sdk/server';

/** States in which a task waits for its caller: its bus is kept for the reply. */
const WAITING_STATES = new Set<TaskState>([TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED]);

/** Options of `WaitingBusManager`. */
export interface WaitingBusManagerOptions {
  /** Buses kept for tasks waiting for input (a question, an approval); beyond it the oldest is closed. Default 10000. */
  maxWaiting?: number;
}

/**
 * The SDK's event bus manager (one bus per task and caller scope) with a bound on the buses kept
 * for tasks that wait for their caller. A task that ends input-required or auth-required keeps its
 * bus for the reply, as the SDK does, but at most `maxWaiting` of them: the bus of the task that
 * has waited longest is then closed (a reply, cancel or resubscription of that task still works;
 * a resubscriber only stops receiving its later events).
 *
 * A task run by `BlockingSendFastPath` has no bus until one is asked for: it is `expect`ed, and
 * the first `getByTaskId` or `createOrGetByTaskId` for it (a cancel, a resubscription) makes
 * the bus and hands it to the task's run, which publishes its later changes on it.
 */
export class WaitingBusManager extends DefaultExecutionEventBusManager {
  /** Tasks whose bus is kept while they wait, by scope key, the longest-waiting first. */
  private readonly waiting = new Map<string, { taskId: string; context: ServerCallContext | undefined }>();
  private readonly maxWaiting: number;
  /** Running tasks without a bus yet, by scope key: given their bus when one is asked for. */
  private readonly expected = new Map<string, (bus: ExecutionEventBus) => void>();

  constructor(options: WaitingBusManagerOptions = {}) {
    super();
    this.maxWaiting = options.maxWaiting ?? 10_000;
  }

  override createOrGetByTaskId(taskId: string, context?: ServerCallContext): ExecutionEventBus {
    // The task runs again (a reply): it no longer waits.
    this.waiting.delete(scopeKey(taskId, context));
    return this.getByTaskId(taskId, context) ?? super.createOrGetByTaskId(taskId, context);
  }

  override getByTaskId(taskId: string, context?: ServerCallContext): ExecutionEventBus | undefined {
    const bus = super.getByTaskId(taskId, context);
    if (bus || this.expected.size === 0) return bus;
    const key = scopeKey(taskId, context);
    const attach = this.expected.get(key);
    if (!attach) return undefined;
    this.expected.delete(key);
    const made = super.createOrGetByTaskId(taskId, context);
    attach(made);
    return made;
  }

  /** Task `taskId` runs here without a bus: `attach` gets the bus made when one is first asked for. */
  expect(taskId: string, context: ServerCallContext, attach: (bus: ExecutionEventBus) => void): void {
    this.expected.set(scopeKey(taskId, context), attach);
  }

  /** The run of an `expect`ed task is over: no bus is made for it any more. */
  release(taskId: string, context: ServerCallContext): void {
    this.expected.delete(scopeKey(taskId, context));
  }

  override cleanupByTaskId(taskId: string, context?: ServerCallContext): void {
    this.waiting.delete(scopeKey(taskId, context));
    super.cleanupByTaskId(taskId, context);
  }

  /** The SDK's run ended: a task waiting for its caller keeps its bus (counted); others are left to the SDK. */
  settleByTaskId(taskId: string, _bus: ExecutionEventBus, lastState: TaskState | undefined, context: ServerCallContext): boolean {
    if (lastState === undefined || !WAITING_STATES.has(lastState)) return false;
    const key = scopeKey(taskId, context);
    this.waiting.delete(key);
    this.waiting.set(key, { taskId, context });
    for (const [oldest, task] of this.waiting) {
      if (this.waiting.size <= this.maxWaiting) break;
      this.waiting.delete(oldest);
      this.getByTaskId(task.taskId, task.context)?.finished();
      super.cleanupByTaskId(task.taskId, task.context);
    }
    return true;
  }
}

/** The SDK's scope (tenant, then user name or "unknown") and the task id. */
function scopeKey(taskId: string, context?: ServerCallContext): string {
  return `${context?.tenant ?? ''}\0${context?.user?.userName || 'unknown'}\0${taskId}`;
}
