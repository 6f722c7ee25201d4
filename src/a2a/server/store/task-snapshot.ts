import type { Task } from '@a2a-js/sdk';

/**
 * A task as `BoundedMemoryTaskStore` holds it: a private deep copy made at save time, frozen all
 * the way down, so loads can share its messages, parts and metadata instead of copying them.
 *
 * Why: the SDK's result manager loads and saves the task once per event of a run (a blocking
 * `message/send` has four: submitted, working, the answer artifact, completed; its push
 * notification step and its task event mapping load it again). With a `structuredClone` on every
 * load as well as every save, copies were about 12% of a zero-latency model's serving CPU; copying
 * on save only and handing out thawed snapshots cuts that to about half (measured with
 * `bench/ab-a2a.mjs --scenario=instant`, 16 clients; see BENCHMARKS.md).
 *
 * Safe because what a loader may change is its own: `thawTask` gives a new task object with its
 * own `status`, `history` and `artifacts` arrays, artifact objects and `metadata` — everything the
 * SDK reassigns or appends to (`task.status = …`, `task.history = […]`, `task.artifacts.push`,
 * `artifact.parts = […]`). Below those (messages, parts, the contents of metadata) objects are
 * shared and frozen: changing them in place throws instead of changing the store. A task holding
 * anything but plain objects and arrays (binary parts: `Uint8Array`, which cannot be frozen) is
 * never shared: its loads are full `structuredClone`s, as before.
 */
export interface TaskSnapshot {
  /** The frozen copy (its binary parts, if any, not frozen: see `shared`). */
  readonly task: Task;
  /** Whether `task` is made only of plain objects and arrays, all frozen, so loads may share it. */
  readonly shared: boolean;
}

/** A snapshot of `task` as it is now: later changes to `task` do not reach it. */
export function snapshotTask(task: Task): TaskSnapshot {
  const copy = structuredClone(task);
  return { task: copy, shared: freezePlain(copy) };
}

/** A task for a loader to change (see `TaskSnapshot`): the snapshot never changes through it. */
export function thawTask(snapshot: TaskSnapshot): Task {
  if (!snapshot.shared) return structuredClone(snapshot.task);
  const held = snapshot.task;
  const task: Task = { ...held };
  if (held.status) task.status = { ...held.status };
  if (held.history) task.history = [...held.history];
  if (held.artifacts) task.artifacts = held.artifacts.map((a) => ({ ...a }));
  if (held.metadata) task.metadata = { ...held.metadata };
  return task;
}

/**
 * Freezes `value` and everything in it that is a plain object or array; true when that is all
 * it holds (anything else — a typed array, a date — is left unfrozen and makes it false).
 */
function freezePlain(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  let plain = true;
  if (Array.isArray(value)) {
    for (const item of value) if (!freezePlain(item)) plain = false;
  } else {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return false;
    for (const key in value) if (!freezePlain((value as Record<string, unknown>)[key])) plain = false;
  }
  Object.freeze(value);
  return plain;
}
