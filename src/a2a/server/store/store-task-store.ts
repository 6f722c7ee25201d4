import { type ListTasksRequest, type ListTasksResponse, Task, TaskState } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';

import type { StateStore } from '../../../types/storage/state.js';
import { callerOf } from '../call-owner.js';
import { RecentMap } from '../recent-map.js';
import { snapshotTask, type TaskSnapshot, thawTask } from './task-snapshot.js';

const DEFAULT_PAGE_SIZE = 50;

/** The state key prefix under which an agent's A2A tasks live (app scope). */
export function taskKeyPrefix(agent: string): string {
  return `a2a/task/${agent}/`;
}

/** The key of a stored task's owner beside the protocol's fields (which `Task.fromJSON` ignores). */
const OWNER_FIELD = 'corvid.owner';

/**
 * An A2A `TaskStore` over Corvid's key-value state (`store.state`, app scope, keys
 * `a2a/task/<agent>/<taskId>`, values in the protocol's JSON form plus the owner). Tasks survive
 * a restart and are shared by every server on the same database. Every task belongs to the
 * caller that saved it (`callerOf` the call context): loads and lists of anyone else do not see
 * it. Listing loads the agent's tasks and filters them in memory: fine for thousands of tasks,
 * not for millions.
 */
export class StoreTaskStore implements TaskStore {
  constructor(
    private readonly state: StateStore,
    private readonly agent: string,
  ) {}

  async save(task: Task, context?: ServerCallContext): Promise<void> {
    const owner = callerOf(context);
    const json = Task.toJSON(task) as Record<string, unknown>;
    await this.state.set('app', taskKeyPrefix(this.agent) + task.id, owner ? { ...json, [OWNER_FIELD]: owner } : json);
  }

  async load(taskId: string, context?: ServerCallContext): Promise<Task | undefined> {
    if (!taskId || taskId.length > 150) return undefined;
    const value = await this.state.get('app', taskKeyPrefix(this.agent) + taskId);
    return value === undefined || ownerOf(value) !== callerOf(context) ? undefined : Task.fromJSON(value);
  }

  async list(params: ListTasksRequest, context?: ServerCallContext): Promise<ListTasksResponse> {
    const owner = callerOf(context);
    const entries = await this.state.list('app', { prefix: taskKeyPrefix(this.agent) });
    return listTasks(
      entries.filter((e) => ownerOf(e.value) === owner).map((e) => Task.fromJSON(e.value)),
      params,
    );
  }
}

/** The owner recorded with a stored task (`''`: none, anonymous). */
function ownerOf(value: unknown): string {
  const owner = (value as Record<string, unknown> | null)?.[OWNER_FIELD];
  return typeof owner === 'string' ? owner : '';
}

/** The prefix of an owner's tasks in memory (length-prefixed: no owner's prefix is another's). */
function ownerPrefix(owner: string): string {
  return `${owner.length}:${owner}:`;
}

/** The key of a task in memory: its owner's and its own id, so nobody else's lookups find it. */
function memoryKey(context: ServerCallContext | undefined, taskId: string): string {
  return ownerPrefix(callerOf(context)) + taskId;
}

/**
 * An in-memory `TaskStore` for servers without a store. It keeps at least the `maxTasks` tasks
 * saved last at rest (finished, or waiting for input) and at most twice as many, forgetting older
 * ones in bulk (`RecentMap`); running tasks likewise, apart, so finished tasks never push out a
 * running one. It holds copies: `save` keeps a frozen copy of what it is given and each `load`
 * returns a task the SDK may change before saving it back, which shares only frozen parts with
 * the store (`TaskSnapshot`: messages and parts are not copied per load). Tasks are held under their owner
 * (`callerOf` the call context): nobody else finds them.
 */
export class BoundedMemoryTaskStore implements TaskStore {
  private readonly running: RecentMap<string, TaskSnapshot>;
  private readonly resting: RecentMap<string, TaskSnapshot>;

  constructor(maxTasks = 10_000) {
    this.running = new RecentMap(maxTasks);
    this.resting = new RecentMap(maxTasks);
  }

  async save(task: Task, context?: ServerCallContext): Promise<void> {
    const key = memoryKey(context, task.id);
    const state = task.status?.state;
    // A task running again (a reply to a question) may still be held at rest as it was: the
    // running one is what loads and lists see, until it rests again.
    if (state === TaskState.TASK_STATE_SUBMITTED || state === TaskState.TASK_STATE_WORKING) {
      this.running.set(key, snapshotTask(task));
      return;
    }
    this.running.delete(key);
    this.resting.set(key, snapshotTask(task));
  }

  async load(taskId: string, context?: ServerCallContext): Promise<Task | undefined> {
    const key = memoryKey(context, taskId);
    const held = this.running.get(key) ?? this.resting.get(key);
    return held && thawTask(held);
  }

  async list(params: ListTasksRequest, context?: ServerCallContext): Promise<ListTasksResponse> {
    const prefix = ownerPrefix(callerOf(context));
    const mine = (key: string) => key.startsWith(prefix);
    const all: Task[] = [];
    for (const [key, held] of this.resting.entries()) if (mine(key) && !this.running.has(key)) all.push(thawTask(held));
    for (const [key, held] of this.running.entries()) if (mine(key)) all.push(thawTask(held));
    return listTasks(all, params);
  }
}

/** Filters, sorts (newest status first) and pages tasks as `ListTasks` asks. */
export function listTasks(all: Task[], params: ListTasksRequest): ListTasksResponse {
  const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
  let tasks = all;
  if (params.contextId) tasks = tasks.filter((t) => t.contextId === params.contextId);
  if (params.status) tasks = tasks.filter((t) => t.status?.state === params.status);
  if (params.statusTimestampAfter) {
    const after = new Date(params.statusTimestampAfter).getTime();
    tasks = tasks.filter((t) => t.status?.timestamp && new Date(t.status.timestamp).getTime() > after);
  }
  // Newest first, then by id, so pages are stable.
  tasks.sort((a, b) => (b.status?.timestamp ?? '').localeCompare(a.status?.timestamp ?? '') || b.id.localeCompare(a.id));
  const totalSize = tasks.length;
  if (params.pageToken) {
    const cursor = decodeCursor(params.pageToken);
    const at = tasks.findIndex((t) => (t.status?.timestamp ?? '') === cursor.timestamp && t.id === cursor.id);
    tasks = at === -1 ? [] : tasks.slice(at + 1);
  }
  const page = tasks.slice(0, pageSize);
  const last = page[page.length - 1];
  const nextPageToken = last && tasks.length > page.length ? encodeCursor(last.status?.timestamp ?? '', last.id) : '';
  const shaped = page.map((t) => {
    const copy = { ...t };
    if (!params.includeArtifacts) copy.artifacts = [];
    if (params.historyLength !== undefined) copy.history = params.historyLength === 0 ? [] : t.history.slice(-params.historyLength);
    return copy;
  });
  return { tasks: shaped, nextPageToken, pageSize, totalSize };
}

function encodeCursor(timestamp: string, id: string): string {
  return Buffer.from(JSON.stringify([timestamp, id])).toString('base64url');
}

function decodeCursor(token: string): { timestamp: string; id: string } {
  try {
    const [timestamp, id] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown[];
    if (typeof timestamp === 'string' && typeof id === 'string') return { timestamp, id };
  } catch {
    // fall through
  }
  throw new RequestMalformedError(`Invalid pageToken "${token.slice(0, 100)}"`);
}
