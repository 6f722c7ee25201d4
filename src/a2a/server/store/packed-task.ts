import type { Artifact, Message, Part, Task } from '@a2a-js/sdk';
import { hasExactKeys } from '../../../core/has-exact-keys.js';

/**
 * A task held compactly by the in-memory task store: its strings and numbers in one array, for a
 * task whose messages and artifacts carry only plain text parts and no metadata or extensions (what
 * a Corvid agent's answer is). About 30 objects become one array, which is most of what the
 * garbage collector copies and marks for the thousands of tasks a server keeps.
 *
 * `unpackTask(packTask(task))` is a deep copy of `task`, with the same fields in the same order.
 */
export type PackedTask = readonly unknown[];

const TASK_KEYS = ['id', 'contextId', 'status', 'artifacts', 'history', 'metadata'];
const STATUS_KEYS = ['state', 'message', 'timestamp'];
const MESSAGE_KEYS = ['messageId', 'contextId', 'taskId', 'role', 'parts', 'metadata', 'extensions', 'referenceTaskIds'];
const ARTIFACT_KEYS = ['artifactId', 'name', 'description', 'parts', 'metadata', 'extensions'];
const PART_KEYS = ['content', 'metadata', 'filename', 'mediaType'];
const CONTENT_KEYS = ['$case', 'value'];

/** Slot of the status message: none, or one not in the history (follows inline). History index otherwise. */
const NO_MESSAGE = -1;
const INLINE_MESSAGE = -2;

/** Packs `task`, or returns undefined when it has anything the packed form does not hold. */
export function packTask(task: Task): PackedTask | undefined {
  const status = task.status;
  const history = task.history;
  const artifacts = task.artifacts;
  if (!hasExactKeys(task, TASK_KEYS) || task.metadata !== undefined || typeof task.id !== 'string' || typeof task.contextId !== 'string') return undefined;
  if (!status || !hasExactKeys(status, STATUS_KEYS) || typeof status.state !== 'number' || (status.timestamp !== undefined && typeof status.timestamp !== 'string')) return undefined;
  if (!Array.isArray(history) || !Array.isArray(artifacts)) return undefined;
  let size = 7;
  let said = NO_MESSAGE;
  if (status.message !== undefined) {
    said = history.indexOf(status.message);
    if (said === -1) {
      const n = messageSlots(status.message);
      if (n < 0) return undefined;
      said = INLINE_MESSAGE;
      size += n;
    }
  }
  for (let i = 0; i < history.length; i++) {
    const n = messageSlots(history[i]);
    if (n < 0) return undefined;
    size += n;
  }
  for (let i = 0; i < artifacts.length; i++) {
    const n = artifactSlots(artifacts[i]);
    if (n < 0) return undefined;
    size += n;
  }
  const out = new Array<unknown>(size);
  out[0] = task.id;
  out[1] = task.contextId;
  out[2] = status.state;
  out[3] = status.timestamp;
  out[4] = said;
  let at = 5;
  if (said === INLINE_MESSAGE) at = putMessage(out, at, status.message!);
  out[at++] = history.length;
  for (let i = 0; i < history.length; i++) at = putMessage(out, at, history[i]);
  out[at++] = artifacts.length;
  for (let i = 0; i < artifacts.length; i++) {
    const a = artifacts[i];
    out[at++] = a.artifactId;
    out[at++] = a.name;
    out[at++] = a.description;
    at = putParts(out, at, a.parts);
  }
  return out;
}

/** A new task object equal to the one packed. */
export function unpackTask(packed: PackedTask): Task {
  let at = 5;
  const said = packed[4] as number;
  let inline: Message | undefined;
  if (said === INLINE_MESSAGE) [inline, at] = takeMessage(packed, at);
  const history: Message[] = new Array(packed[at++] as number);
  let saidAt = -1;
  for (let i = 0; i < history.length; i++) {
    if (i === said) saidAt = at;
    [history[i], at] = takeMessage(packed, at);
  }
  const artifacts: Artifact[] = new Array(packed[at++] as number);
  for (let i = 0; i < artifacts.length; i++) {
    const artifactId = packed[at] as string;
    const name = packed[at + 1] as string;
    const description = packed[at + 2] as string;
    let parts: Part[];
    [parts, at] = takeParts(packed, at + 3);
    artifacts[i] = { artifactId, name, description, parts, metadata: undefined, extensions: [] };
  }
  // A status message that was also in the history: its own copy, as a deep copy would make.
  const message = said === NO_MESSAGE ? undefined : said === INLINE_MESSAGE ? inline : takeMessage(packed, saidAt)[0];
  return {
    id: packed[0] as string,
    contextId: packed[1] as string,
    status: { state: packed[2] as number, message, timestamp: packed[3] as string | undefined },
    artifacts,
    history,
    metadata: undefined,
  };
}

/** Slots a message takes, or -1 when it cannot be packed. */
function messageSlots(m: Message): number {
  if (!m || !hasExactKeys(m, MESSAGE_KEYS) || m.metadata !== undefined || !isEmptyArray(m.extensions) || !isEmptyArray(m.referenceTaskIds)) return -1;
  if (typeof m.messageId !== 'string' || typeof m.contextId !== 'string' || typeof m.taskId !== 'string' || typeof m.role !== 'number') return -1;
  const n = partsSlots(m.parts);
  return n < 0 ? -1 : 4 + n;
}

function artifactSlots(a: Artifact): number {
  if (!a || !hasExactKeys(a, ARTIFACT_KEYS) || a.metadata !== undefined || !isEmptyArray(a.extensions)) return -1;
  if (typeof a.artifactId !== 'string' || typeof a.name !== 'string' || typeof a.description !== 'string') return -1;
  const n = partsSlots(a.parts);
  return n < 0 ? -1 : 3 + n;
}

/** Slots of a part list (its length, then media type and text of each), or -1. */
function partsSlots(parts: Part[]): number {
  if (!Array.isArray(parts)) return -1;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    const c = p?.content;
    if (!c || !hasExactKeys(p, PART_KEYS) || p.metadata !== undefined || p.filename !== '' || typeof p.mediaType !== 'string') return -1;
    if (c.$case !== 'text' || typeof c.value !== 'string' || !hasExactKeys(c, CONTENT_KEYS)) return -1;
  }
  return 1 + 2 * parts.length;
}

function isEmptyArray(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0;
}

function putMessage(out: unknown[], at: number, m: Message): number {
  out[at] = m.messageId;
  out[at + 1] = m.contextId;
  out[at + 2] = m.taskId;
  out[at + 3] = m.role;
  return putParts(out, at + 4, m.parts);
}

function putParts(out: unknown[], at: number, parts: Part[]): number {
  out[at++] = parts.length;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    out[at++] = p.mediaType;
    out[at++] = (p.content as { value: string }).value;
  }
  return at;
}

function takeMessage(packed: PackedTask, at: number): [Message, number] {
  const [parts, next] = takeParts(packed, at + 4);
  const message: Message = {
    messageId: packed[at] as string,
    contextId: packed[at + 1] as string,
    taskId: packed[at + 2] as string,
    role: packed[at + 3] as number,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return [message, next];
}

function takeParts(packed: PackedTask, at: number): [Part[], number] {
  const parts: Part[] = new Array(packed[at++] as number);
  for (let i = 0; i < parts.length; i++) {
    parts[i] = { content: { $case: 'text', value: packed[at + 1] as string }, metadata: undefined, filename: '', mediaType: packed[at] as string };
    at += 2;
  }
  return [parts, at];
}
