import { describe, expect, it } from 'vitest';
import { AgentEvent, DefaultExecutionEventBus, ServerCallContext, UnauthenticatedUser, type AgentExecutionEvent, type ExecutionEventBus } from '@a2a-js/sdk/server';
import { TaskState } from '@a2a-js/sdk';
import { LightEventBus, LightEventBusManager } from '../../src/a2a/server/request-handler/light-event-bus.js';

// The event bus every A2A task runs on (tasks/cancel, resubscription and push notifications listen
// to it): it must deliver like the SDK's EventTarget bus.

const event = (n: number): AgentExecutionEvent =>
  AgentEvent.statusUpdate({ taskId: `t${n}`, contextId: 'c', status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: '' }, metadata: undefined });

describe('LightEventBus', () => {
  it('delivers events in order to listeners in the order they were added, then finished', () => {
    const bus = new LightEventBus();
    const seen: string[] = [];
    bus.on('event', (e) => seen.push(`a:${(e.data as { taskId: string }).taskId}`));
    bus.on('event', (e) => seen.push(`b:${(e.data as { taskId: string }).taskId}`));
    bus.on('finished', () => seen.push('finished'));
    bus.publish(event(1));
    bus.publish(event(2));
    bus.finished();
    expect(seen).toEqual(['a:t1', 'b:t1', 'a:t2', 'b:t2', 'finished']);
  });

  it('delivers like the SDK bus when listeners are added and removed during delivery', () => {
    // Node's EventTarget (the SDK's bus): a listener added meanwhile is reached, one removed before
    // its turn is skipped.
    const scenario = (bus: ExecutionEventBus): string[] => {
      const seen: string[] = [];
      const late = () => seen.push('late');
      const removed = () => seen.push('removed');
      bus.on('event', () => {
        seen.push('first');
        bus.on('event', late);
        bus.off('event', removed);
      });
      bus.on('event', removed);
      bus.publish(event(1));
      bus.publish(event(2));
      bus.on('finished', () => seen.push('finished'));
      bus.finished();
      return seen;
    };
    const light = scenario(new LightEventBus());
    expect(light).toEqual(scenario(new DefaultExecutionEventBus()));
    expect(light).toEqual(['first', 'late', 'first', 'late', 'late', 'finished']);
  });

  it('runs once-listeners once and stops delivering after off and removeAllListeners', () => {
    const bus = new LightEventBus();
    let once = 0;
    let on = 0;
    let finished = 0;
    const listener = () => on++;
    bus.once('event', () => once++);
    bus.on('event', listener);
    bus.once('finished', () => finished++);
    bus.publish(event(1));
    bus.publish(event(2));
    bus.off('event', listener);
    bus.publish(event(3));
    bus.finished();
    bus.finished();
    bus.on('event', listener);
    bus.removeAllListeners();
    bus.publish(event(4));
    expect({ once, on, finished }).toEqual({ once: 1, on: 2, finished: 1 });
  });

  it('keeps delivering to the other listeners when one throws, and reports the error asynchronously', async () => {
    const bus = new LightEventBus();
    const seen: number[] = [];
    const reported = new Promise<unknown>((resolve) => {
      const handler = (err: unknown) => {
        process.off('uncaughtException', handler);
        resolve(err);
      };
      process.on('uncaughtException', handler);
    });
    bus.on('event', () => {
      throw new Error('listener broke');
    });
    bus.on('event', () => seen.push(1));
    bus.publish(event(1));
    expect(seen).toEqual([1]);
    expect(((await reported) as Error).message).toBe('listener broke');
  });
});

describe('LightEventBusManager', () => {
  it('keeps one bus per task and caller scope, and forgets it on cleanup', () => {
    const manager = new LightEventBusManager();
    const anonymous = new ServerCallContext({ user: new UnauthenticatedUser() });
    const tenant = new ServerCallContext({ user: new UnauthenticatedUser(), tenant: 'acme' });
    const bus = manager.createOrGetByTaskId('task-1', anonymous);
    expect(manager.createOrGetByTaskId('task-1', anonymous)).toBe(bus);
    expect(manager.getByTaskId('task-1', anonymous)).toBe(bus);
    expect(manager.getByTaskId('task-1', tenant)).toBeUndefined();
    let delivered = 0;
    bus.on('event', () => delivered++);
    manager.cleanupByTaskId('task-1', anonymous);
    bus.publish(event(1));
    expect(delivered).toBe(0);
    expect(manager.getByTaskId('task-1', anonymous)).toBeUndefined();
    expect(manager.size).toBe(0);
  });

  it('makes a bus for an expected task when the caller of its scope first asks, and hands it over once', () => {
    const manager = new LightEventBusManager();
    const anonymous = new ServerCallContext({ user: new UnauthenticatedUser() });
    const tenant = new ServerCallContext({ user: new UnauthenticatedUser(), tenant: 'acme' });
    const attached: unknown[] = [];
    manager.expect('task-2', anonymous, (bus) => attached.push(bus));
    expect(manager.size).toBe(0);
    // Another tenant's caller gets nothing, and nothing is attached.
    expect(manager.getByTaskId('task-2', tenant)).toBeUndefined();
    expect(attached).toEqual([]);
    const bus = manager.getByTaskId('task-2', anonymous);
    expect(bus).toBeDefined();
    expect(attached).toEqual([bus]);
    expect(manager.createOrGetByTaskId('task-2', anonymous)).toBe(bus);
    expect(attached).toHaveLength(1);
    manager.release('task-2', anonymous);
    manager.cleanupByTaskId('task-2', anonymous);
    expect(manager.size).toBe(0);
  });

  it('forgets an expected task once released: nobody gets a bus for it', () => {
    const manager = new LightEventBusManager();
    const anonymous = new ServerCallContext({ user: new UnauthenticatedUser() });
    const attached: unknown[] = [];
    manager.expect('task-3', anonymous, (bus) => attached.push(bus));
    manager.release('task-3', anonymous);
    expect(manager.getByTaskId('task-3', anonymous)).toBeUndefined();
    expect(attached).toEqual([]);
    expect(manager.size).toBe(0);
  });

  it('keeps the buses of tasks waiting for input up to maxWaiting, closing the longest-waiting one beyond', () => {
    const manager = new LightEventBusManager({ maxWaiting: 2 });
    const anonymous = new ServerCallContext({ user: new UnauthenticatedUser() });
    const closed: string[] = [];
    for (const id of ['w1', 'w2']) {
      manager.createOrGetByTaskId(id, anonymous).on('finished', () => closed.push(id));
      manager.keepWaiting(id, anonymous);
    }
    // A task that finishes is not counted (the SDK cleans it up); one that waits through the SDK's settle is.
    const done = manager.createOrGetByTaskId('done', anonymous);
    expect(manager.settleByTaskId('done', done, TaskState.TASK_STATE_COMPLETED, anonymous)).toBe(false);
    manager.cleanupByTaskId('done', anonymous);
    // w1 gets a reply (it runs again), then waits again: now w2 has waited longest.
    manager.createOrGetByTaskId('w1', anonymous);
    manager.keepWaiting('w1', anonymous);
    const w3 = manager.createOrGetByTaskId('w3', anonymous);
    expect(manager.settleByTaskId('w3', w3, TaskState.TASK_STATE_INPUT_REQUIRED, anonymous)).toBe(true);
    expect(closed).toEqual(['w2']);
    expect(manager.getByTaskId('w2', anonymous)).toBeUndefined();
    expect(manager.getByTaskId('w1', anonymous)).toBeDefined();
    expect(manager.size).toBe(2);
    // A reply to the closed task gets a new bus.
    expect(manager.createOrGetByTaskId('w2', anonymous)).toBeDefined();
  });
});
