/**
 * The A2A task states, by the number the v1.0 protocol (and the SDK's `TaskState` enum) gives them,
 * with their v0.3 names (`input-required`) and v1.0 names (`TASK_STATE_INPUT_REQUIRED`). Kept here,
 * once, so the client and the server name states alike and load without the SDK.
 */
export const TASK_STATE = {
  SUBMITTED: 1,
  WORKING: 2,
  COMPLETED: 3,
  FAILED: 4,
  CANCELED: 5,
  INPUT_REQUIRED: 6,
  REJECTED: 7,
  AUTH_REQUIRED: 8,
} as const;

/** A task state's number. */
export type TaskStateNumber = (typeof TASK_STATE)[keyof typeof TASK_STATE];

const BY_NUMBER = new Map<number, keyof typeof TASK_STATE>(Object.entries(TASK_STATE).map(([k, v]) => [v, k as keyof typeof TASK_STATE]));

/** The v0.3 name of state `n` (`completed`, `input-required`, …); undefined for an unknown number. */
export function taskStateName(n: number): string | undefined {
  return BY_NUMBER.get(n)?.toLowerCase().replace('_', '-');
}

/** The v1.0 name of state `n` (`TASK_STATE_COMPLETED`, …); undefined for an unknown number. */
export function taskStateV1Name(n: number): string | undefined {
  const key = BY_NUMBER.get(n);
  return key === undefined ? undefined : `TASK_STATE_${key}`;
}
