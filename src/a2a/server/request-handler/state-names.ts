import { taskStateName, taskStateV1Name } from '../../task-states.js';

const NUMBERED_STATE = /\bstate \((\d+)\)/g;

/**
 * The task state names an error message shows its caller: the SDK writes a task's state into
 * some messages as the v1.0 enum number ("is in a terminal state (3)"); they become the
 * protocol's names — `completed` for v0.3 callers (`legacy`), `TASK_STATE_COMPLETED` for v1.0.
 * Changes `err.message` in place and returns `err`.
 */
export function withStateNames<E>(err: E, legacy: boolean): E {
  if (!(err instanceof Error) || !err.message.includes('state (')) return err;
  err.message = err.message.replace(NUMBERED_STATE, (all, n: string) => {
    const name = legacy ? taskStateName(Number(n)) : taskStateV1Name(Number(n));
    return name === undefined ? all : `state (${name})`;
  });
  return err;
}
