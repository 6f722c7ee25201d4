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
 */
export class WaitingBusManager extends DefaultExecutionEventBusManager {
  /** Tasks whose bus is kept while they wait, by scope key, the longest-waiting first. */
  private readonly waiting = new Map<string, { taskId: string; context: ServerCallContext | undefined }>();
  private readonly maxWaiting: number;

  constructor(options: WaitingBusManagerOptions = {}) {
    super();
    this.maxWaiting = options.maxWaiting ?? 10_000;
  }

  override createOrGetByTaskId(taskId: string, context?: ServerCallContext): ExecutionEventBus {
    // The task runs again (a reply): it no longer waits.
    this.waiting.delete(scopeKey(taskId, context));
    return super.createOrGetByTaskId(taskId, context);
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
