import { TaskState } from '@a2a-js/sdk';
import type { AgentExecutionEvent, EventListener, ExecutionEventBus, ExecutionEventBusManager, ExecutionEventName, FinishedListener, ServerCallContext } from '@a2a-js/sdk/server';

/** One registration (the same function may be registered more than once). */
interface Registration<F> {
  fn: F;
  removed: boolean;
}

/**
 * An `ExecutionEventBus` on plain listener arrays. The SDK's default bus is an `EventTarget` that
 * allocates an event object and a wrapper per listener for every publish; this one calls the
 * listeners directly, delivering as Node's `EventTarget` does: in the order listeners were added,
 * including those added while the event is being delivered, skipping those removed meanwhile; a
 * listener that throws does not keep the others from running (its error is rethrown
 * asynchronously).
 */
export class LightEventBus implements ExecutionEventBus {
  private events: Registration<EventListener>[] = [];
  private finishes: Registration<FinishedListener>[] = [];
  /** Deliveries in progress; removed registrations are dropped from the arrays once none is. */
  private delivering = 0;
  private removals = false;

  publish(event: AgentExecutionEvent): void {
    this.deliver(this.events, event);
  }

  finished(): void {
    this.deliver(this.finishes as Registration<(arg: undefined) => void>[], undefined);
  }

  on(eventName: 'event', listener: EventListener): this;
  on(eventName: 'finished', listener: FinishedListener): this;
  on(eventName: ExecutionEventName, listener: EventListener | FinishedListener): this {
    if (eventName === 'event') this.events.push({ fn: listener as EventListener, removed: false });
    else this.finishes.push({ fn: listener as FinishedListener, removed: false });
    return this;
  }

  off(eventName: 'event', listener: EventListener): this;
  off(eventName: 'finished', listener: FinishedListener): this;
  off(eventName: ExecutionEventName, listener: EventListener | FinishedListener): this {
    const list: Registration<unknown>[] = eventName === 'event' ? this.events : this.finishes;
    const found = list.find((r) => r.fn === listener && !r.removed);
    if (found) {
      found.removed = true;
      this.removals = true;
      this.prune();
    }
    return this;
  }

  once(eventName: 'event', listener: EventListener): this;
  once(eventName: 'finished', listener: FinishedListener): this;
  once(eventName: ExecutionEventName, listener: EventListener | FinishedListener): this {
    if (eventName === 'event') {
      const wrapped: EventListener = (event) => {
        this.off('event', wrapped);
        (listener as EventListener)(event);
      };
      return this.on('event', wrapped);
    }
    const wrapped: FinishedListener = () => {
      this.off('finished', wrapped);
      (listener as FinishedListener)();
    };
    return this.on('finished', wrapped);
  }

  removeAllListeners(eventName?: ExecutionEventName): this {
    if (eventName === undefined || eventName === 'event') for (const r of this.events) r.removed = true;
    if (eventName === undefined || eventName === 'finished') for (const r of this.finishes) r.removed = true;
    this.removals = true;
    this.prune();
    return this;
  }

  private deliver<T>(list: Registration<(arg: T) => void>[], arg: T): void {
    this.delivering++;
    try {
      // By index over the live array: registrations added meanwhile are reached too.
      for (let i = 0; i < list.length; i++) if (!list[i].removed) call(list[i].fn, arg);
    } finally {
      this.delivering--;
      this.prune();
    }
  }

  private prune(): void {
    if (this.delivering > 0 || !this.removals) return;
    this.removals = false;
    this.events = this.events.filter((r) => !r.removed);
    this.finishes = this.finishes.filter((r) => !r.removed);
  }
}

function call<T>(listener: (arg: T) => void, arg: T): void {
  try {
    listener(arg);
  } catch (err) {
    queueMicrotask(() => {
      throw err;
    });
  }
}

/** States in which a task waits for its caller: its bus is kept for the reply. */
const WAITING_STATES = new Set<TaskState>([TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED]);

/** Options of `LightEventBusManager`. */
export interface LightEventBusManagerOptions {
  /** Buses kept for tasks waiting for input (a question, an approval); beyond it the oldest is closed. Default 10000. */
  maxWaiting?: number;
}

/**
 * Keeps one `LightEventBus` per task, scoped like the SDK's default manager by tenant and user,
 * so one caller's task ids never reach another caller's bus. A task that waits for its caller
 * (input-required) keeps its bus for the reply, as the SDK does, but at most `maxWaiting` of them:
 * the bus of the task that has waited longest is then closed (a reply, cancel or resubscription
 * of that task still works; a resubscriber only stops receiving its later events).
 */
export class LightEventBusManager implements ExecutionEventBusManager {
  private readonly buses = new Map<string, LightEventBus>();
  /** Keys of buses kept for waiting tasks, the longest-waiting first. */
  private readonly waiting = new Set<string>();
  private readonly maxWaiting: number;

  constructor(options: LightEventBusManagerOptions = {}) {
    this.maxWaiting = options.maxWaiting ?? 10_000;
  }
  /** Tasks running without a bus (blocking sends), by task id: a bus is made when asked for. */
  private readonly expected = new Map<string, { context: ServerCallContext | undefined; attach: (bus: ExecutionEventBus) => void }>();

  createOrGetByTaskId(taskId: string, context?: ServerCallContext): ExecutionEventBus {
    const key = scopeKey(taskId, context);
    let bus = this.buses.get(key) ?? this.attach(taskId, key);
    if (!bus) {
      bus = new LightEventBus();
      this.buses.set(key, bus);
    }
    // The task runs again (a reply): it no longer waits.
    this.waiting.delete(key);
    return bus;
  }

  getByTaskId(taskId: string, context?: ServerCallContext): ExecutionEventBus | undefined {
    const key = scopeKey(taskId, context);
    return this.buses.get(key) ?? this.attach(taskId, key);
  }

  cleanupByTaskId(taskId: string, context?: ServerCallContext): void {
    const key = scopeKey(taskId, context);
    this.buses.get(key)?.removeAllListeners();
    this.buses.delete(key);
    this.waiting.delete(key);
  }

  /** The SDK's run ended: a task waiting for its caller keeps its bus (counted, see `keepWaiting`); others are cleaned up by the SDK. */
  settleByTaskId(taskId: string, _bus: ExecutionEventBus, lastState: TaskState | undefined, context: ServerCallContext): boolean {
    if (lastState === undefined || !WAITING_STATES.has(lastState)) return false;
    this.keepWaiting(taskId, context);
    return true;
  }

  /** Keeps the bus of a task now waiting for its caller; beyond `maxWaiting`, closes the longest-waiting one. */
  keepWaiting(taskId: string, context?: ServerCallContext): void {
    const key = scopeKey(taskId, context);
    if (!this.buses.has(key)) return;
    this.waiting.delete(key);
    this.waiting.add(key);
    for (const oldest of this.waiting) {
      if (this.waiting.size <= this.maxWaiting) break;
      this.waiting.delete(oldest);
      const bus = this.buses.get(oldest);
      this.buses.delete(oldest);
      bus?.finished();
      bus?.removeAllListeners();
    }
  }

  /**
   * Registers a task that runs without a bus: the first caller (in the same scope) asking for its
   * bus gets a new one, handed to `attach` so the run publishes on it from then on.
   */
  expect(taskId: string, context: ServerCallContext | undefined, attach: (bus: ExecutionEventBus) => void): void {
    this.expected.set(taskId, { context, attach });
  }

  /** The task registered with `expect` no longer runs (a bus made for it stays until cleaned up). */
  release(taskId: string, _context?: ServerCallContext): void {
    this.expected.delete(taskId);
  }

  /** Buses open now (tasks running or waiting for input). */
  get size(): number {
    return this.buses.size;
  }

  private attach(taskId: string, key: string): LightEventBus | undefined {
    const waiting = this.expected.get(taskId);
    if (!waiting || scopeKey(taskId, waiting.context) !== key) return undefined;
    this.expected.delete(taskId);
    const bus = new LightEventBus();
    this.buses.set(key, bus);
    waiting.attach(bus);
    return bus;
  }
}

/** The SDK's scope (tenant, then user name or "unknown") and the task id. */
function scopeKey(taskId: string, context?: ServerCallContext): string {
  return `${context?.tenant ?? ''}\0${context?.user?.userName || 'unknown'}\0${taskId}`;
}
