import type { Task } from '@a2a-js/sdk';

/**
 * A task as `BoundedMemoryTaskStore` holds it: a private copy made at save time, frozen all the
 * way down, so loads can share its messages, parts and metadata instead of copying them, and the
 * next save of a loaded task copies only what changed (what is still frozen is shared again).
 *
 * Why: the SDK's result manager loads and saves the task once per event of a run (a blocking
 * `message/send` has four: submitted, working, the answer artifact, completed; its task event
 * mapping loads it once more). With a `structuredClone` on every load and every save, task copies
 * took about 12% of the server's CPU with a zero-latency model at 16 clients; with snapshots
 * about 3% (CPU profiles of `bench/a2a.mjs --serve --model=instant` under 16 keep-alive clients;
 * in isolation the copies of one blocking send's task drop from ~45 µs to ~15 µs).
 *
 * Safe because what a loader may change is its own: `thawTask` gives a new task object with its
 * own `status`, `history` and `artifacts` arrays, artifact objects and `metadata` — everything the
 * SDK reassigns or appends to (`task.status = …`, `task.history = […]`, `task.artifacts.push`,
 * `artifact.parts = […]`). Below those (messages, parts, the contents of metadata) objects are
 * shared and frozen: changing them in place throws instead of changing the store. A task holding
 * anything but plain objects and arrays (binary parts: `Uint8Array`, which cannot be frozen) is
 * never shared: it is held as a `structuredClone`, and so is each load of it.
 */
export interface TaskSnapshot {
  /** The copy: frozen when `shared`, else a plain `structuredClone`. */
  readonly task: Task;
  /** Whether `task` is made only of plain objects and arrays, all frozen, so loads may share it. */
  readonly shared: boolean;
}

/**
 * A snapshot of `task` as it is now: later changes to `task` do not reach it. Frozen objects in
 * `task` are taken as the parts of an earlier snapshot a thawed task shares, and shared again.
 */
export function snapshotTask(task: Task): TaskSnapshot {
  const copy = copyPlain(task);
  return copy === NOT_PLAIN ? { task: structuredClone(task), shared: false } : { task: copy as Task, shared: true };
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

const NOT_PLAIN = Symbol('not plain');

/**
 * A deep copy of `value`, frozen all the way down (same keys in the same order, `undefined`
 * fields kept), sharing what is already frozen instead of copying it; `NOT_PLAIN` when it holds
 * anything but plain objects, arrays and primitives (a typed array, a date, an own `__proto__`
 * key), which is left to `structuredClone`.
 *
 * Only snapshots freeze: every object the SDK adds to a task is a fresh `structuredClone` of an
 * event (never frozen), so what is frozen in a task it saves came from `thawTask`.
 */
function copyPlain(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  let out: unknown[] | Record<string, unknown>;
  if (Array.isArray(value)) {
    out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const copy = copyPlain(value[i]);
      if (copy === NOT_PLAIN) return NOT_PLAIN;
      out[i] = copy;
    }
  } else {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
    out = {};
    for (const key of Object.keys(value)) {
      if (key === '__proto__') return NOT_PLAIN;
      const copy = copyPlain((value as Record<string, unknown>)[key]);
      if (copy === NOT_PLAIN) return NOT_PLAIN;
      out[key] = copy;
    }
  }
  return Object.freeze(out);
}
