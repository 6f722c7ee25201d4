import { TaskState } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutionEvent, ServerCallContext, UnauthenticatedUser } from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';

import { WaitingBusManager } from '../../src/a2a/server/request-handler/waiting-bus-manager.js';

// The event buses of A2A tasks (tasks/cancel, resubscription and push notifications listen to
// them): one per task and caller, and a bounded number kept for tasks waiting for their caller.

const event = (n: number): AgentExecutionEvent =>
  AgentEvent.statusUpdate({
    taskId: `t${n}`,
    contextId: 'c',
    status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: '' },
    metadata: undefined,
  });

describe('WaitingBusManager', () => {
  it('keeps one bus per task and caller scope, and forgets it on cleanup', () => {
    const manager = new WaitingBusManager();
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
  });

  it('keeps the buses of tasks waiting for input up to maxWaiting, closing the longest-waiting one beyond', () => {
    const manager = new WaitingBusManager({ maxWaiting: 2 });
    const anonymous = new ServerCallContext({ user: new UnauthenticatedUser() });
    const closed: string[] = [];
    for (const id of ['w1', 'w2']) {
      const bus = manager.createOrGetByTaskId(id, anonymous);
      bus.on('finished', () => closed.push(id));
      expect(manager.settleByTaskId(id, bus, TaskState.TASK_STATE_INPUT_REQUIRED, anonymous)).toBe(true);
    }
    // A task that finishes is not counted (the SDK cleans it up); one that waits through the SDK's settle is.
    const done = manager.createOrGetByTaskId('done', anonymous);
    expect(manager.settleByTaskId('done', done, TaskState.TASK_STATE_COMPLETED, anonymous)).toBe(false);
    manager.cleanupByTaskId('done', anonymous);
    // w1 gets a reply (it runs again), then waits again: now w2 has waited longest.
    const w1 = manager.createOrGetByTaskId('w1', anonymous);
    manager.settleByTaskId('w1', w1, TaskState.TASK_STATE_INPUT_REQUIRED, anonymous);
    const w3 = manager.createOrGetByTaskId('w3', anonymous);
    expect(manager.settleByTaskId('w3', w3, TaskState.TASK_STATE_INPUT_REQUIRED, anonymous)).toBe(true);
    expect(closed).toEqual(['w2']);
    expect(manager.getByTaskId('w2', anonymous)).toBeUndefined();
    expect(manager.getByTaskId('w1', anonymous)).toBeDefined();
    expect(manager.getByTaskId('w3', anonymous)).toBeDefined();
    // A reply to the closed task gets a new bus.
    expect(manager.createOrGetByTaskId('w2', anonymous)).toBeDefined();
  });
});
