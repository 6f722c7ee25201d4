import { ValidationError } from '../../errors/validation-error.js';
import type { ConversationSearchMode, MemoryInput, MemoryScope } from '../../types/storage/memories.js';
import type { ApprovalInput, CheckpointInput, RunStatus } from '../../types/storage/runs.js';
import type { SessionEntryInput, SessionInput } from '../../types/storage/sessions.js';
import type { StateScope } from '../../types/storage/state.js';

/** A non-empty string of at most `max` characters, or a ValidationError naming `what`. */
export function checkId(what: string, value: unknown, max = 191): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw new ValidationError(`${what} must be a non-empty string of at most ${max} characters (got ${describe(value)})`);
  }
  return value;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  return value === undefined ? 'nothing' : typeof value;
}

/** A page size in 1..max, `fallback` when absent. */
export function checkLimit(limit: number | undefined, fallback: number, max = 1000): number {
  if (limit === undefined) return fallback;
  if (!Number.isInteger(limit) || limit < 1 || limit > max)
    throw new ValidationError(`limit must be an integer from 1 to ${max} (got ${limit})`);
  return limit;
}

/**
 * The mode of a search on a store without an embedder: `keyword` (the default), or a
 * ValidationError saying how to get vector search.
 */
export function checkKeywordMode(mode: ConversationSearchMode | undefined): void {
  if (mode === undefined || mode === 'keyword') return;
  if (mode === 'vector' || mode === 'hybrid')
    throw new ValidationError(
      `Conversation search mode "${mode}" needs an embedder: set storage.embedder in corvid.yaml (or wrap the store with withVectorConversations from corvid/knowledge), or use mode "keyword"`,
    );
  throw new ValidationError(`Unknown conversation search mode ${JSON.stringify(mode)}: use keyword, vector or hybrid`);
}

export function checkSessionInput(input: SessionInput): void {
  if (!input || typeof input !== 'object') throw new ValidationError('sessions.create() needs { agent, ... }');
  if (input.id !== undefined) checkId('Session id', input.id);
  checkId('Session agent', input.agent);
  if (input.userId !== undefined) checkId('Session userId', input.userId);
  if (input.activeAgent !== undefined) checkId('Session activeAgent', input.activeAgent);
  if (input.metadata !== undefined && (typeof input.metadata !== 'object' || input.metadata === null || Array.isArray(input.metadata))) {
    throw new ValidationError('Session metadata must be an object');
  }
}

/** Checks an entry and returns its type. */
export function checkEntry(entry: SessionEntryInput): string {
  if (!entry || typeof entry !== 'object') throw new ValidationError('A session entry must be an object such as { message }');
  const type = entry.type ?? 'message';
  checkId('Entry type', type, 64);
  if (type === 'message') {
    const m = entry.message;
    if (!m || typeof m !== 'object' || !['system', 'user', 'assistant', 'tool'].includes(m.role)) {
      throw new ValidationError('A message entry needs a message with role system, user, assistant or tool');
    }
  }
  if (entry.agent !== undefined) checkId('Entry agent', entry.agent);
  if (entry.runId !== undefined) checkId('Entry runId', entry.runId);
  return type;
}

/** The (scope, owner) pair a state scope is stored under. */
export function stateOwner(scope: StateScope): { scope: 'session' | 'user' | 'app'; owner: string } {
  if (scope === 'app') return { scope: 'app', owner: '' };
  if (scope && typeof scope === 'object') {
    if ('session' in scope) return { scope: 'session', owner: checkId('State scope session id', scope.session) };
    if ('user' in scope) return { scope: 'user', owner: checkId('State scope user id', scope.user) };
  }
  throw new ValidationError("A state scope is { session: id }, { user: id } or 'app'");
}

export function checkMemoryScope(scope: MemoryScope): void {
  if (!scope || typeof scope !== 'object') throw new ValidationError('A memory scope is { userId, agent }');
  checkId('Memory scope userId', scope.userId);
  checkId('Memory scope agent', scope.agent);
}

/** Validates and normalises a memory (importance defaults to 5, tags deduplicated). */
export function normalizeMemory(input: MemoryInput): Required<Omit<MemoryInput, 'category'>> & { category?: string } {
  if (!input || typeof input !== 'object') throw new ValidationError('A memory is { key, value, ... }');
  checkId('Memory key', input.key, 255);
  if (typeof input.value !== 'string') throw new ValidationError(`Memory "${input.key}": value must be a string`);
  if (input.category !== undefined) checkId(`Memory "${input.key}": category`, input.category);
  const importance = input.importance ?? 5;
  if (!Number.isInteger(importance) || importance < 1 || importance > 10) {
    throw new ValidationError(`Memory "${input.key}": importance must be an integer from 1 to 10 (got ${importance})`);
  }
  const tags = input.tags ?? [];
  if (!Array.isArray(tags)) throw new ValidationError(`Memory "${input.key}": tags must be an array of strings`);
  for (const t of tags) checkId(`Memory "${input.key}": tag`, t, 100);
  return { key: input.key, value: input.value, category: input.category, tags: [...new Set(tags)], importance };
}

const STATUSES: RunStatus[] = ['running', 'paused', 'completed', 'failed', 'cancelled'];

export function checkCheckpoint(input: CheckpointInput): void {
  if (!input || typeof input !== 'object') throw new ValidationError('A checkpoint is { runId, agent, status, state }');
  checkId('Checkpoint runId', input.runId);
  checkId('Checkpoint agent', input.agent);
  if (input.sessionId !== undefined) checkId('Checkpoint sessionId', input.sessionId);
  checkStatus(input.status);
  if (input.expiresAt !== undefined && !(input.expiresAt instanceof Date && !isNaN(input.expiresAt.getTime()))) {
    throw new ValidationError('Checkpoint expiresAt must be a valid Date');
  }
  const a = input.append;
  if (a !== undefined) {
    if (input.sessionId === undefined)
      throw new ValidationError("Checkpoint append needs the checkpoint's sessionId (the session the entries go to)");
    if (!a || typeof a !== 'object' || !Array.isArray(a.entries))
      throw new ValidationError('Checkpoint append is { entries: [...], expectedLastSeq? }');
    if (a.expectedLastSeq !== undefined && !(Number.isInteger(a.expectedLastSeq) && a.expectedLastSeq >= 0)) {
      throw new ValidationError(`Checkpoint append expectedLastSeq must be a whole number >= 0 (got ${describe(a.expectedLastSeq)})`);
    }
  }
}

export function checkStatus(status: unknown): RunStatus {
  if (!STATUSES.includes(status as RunStatus))
    throw new ValidationError(`Run status must be one of ${STATUSES.join(', ')} (got ${describe(status)})`);
  return status as RunStatus;
}

export function checkApproval(input: ApprovalInput): void {
  if (!input || typeof input !== 'object') throw new ValidationError('An approval is { runId, toolCallId, toolName, args }');
  if (input.id !== undefined) checkId('Approval id', input.id);
  checkId('Approval runId', input.runId);
  checkId('Approval toolCallId', input.toolCallId);
  checkId('Approval toolName', input.toolName);
  if (input.prompt !== undefined && typeof input.prompt !== 'string') throw new ValidationError('Approval prompt must be a string');
}

/** Validates an artifact and returns its bytes. */
export function artifactBytes(input: { name: string; mimeType?: string; data: Uint8Array | string }): Uint8Array {
  if (!input || typeof input !== 'object') throw new ValidationError('An artifact is { name, mimeType, data }');
  checkId('Artifact name', input.name, 255);
  if (input.mimeType !== undefined) checkId('Artifact mimeType', input.mimeType, 255);
  if (typeof input.data === 'string') return new TextEncoder().encode(input.data);
  if (input.data instanceof Uint8Array) return input.data;
  throw new ValidationError(`Artifact "${input.name}": data must be a Uint8Array or a string`);
}

/** Parses a `sessions.list()` cursor. */
export function decodeCursor(cursor: string): { createdAt: number; id: string } {
  try {
    const [t, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split(':');
    const createdAt = Number(t);
    if (!Number.isFinite(createdAt) || rest.length === 0) throw new Error('bad cursor');
    return { createdAt, id: rest.join(':') };
  } catch {
    throw new ValidationError('Invalid sessions cursor: pass the nextCursor of a previous page');
  }
}

export function encodeCursor(createdAt: number, id: string): string {
  return Buffer.from(`${createdAt}:${id}`, 'utf8').toString('base64url');
}

export function checkAnswer(answer: { approved: boolean; reason?: string }): void {
  if (!answer || typeof answer !== 'object' || typeof answer.approved !== 'boolean') {
    throw new ValidationError('An approval answer is { approved: true | false, reason? }');
  }
  if (answer.reason !== undefined && typeof answer.reason !== 'string') throw new ValidationError('An approval reason must be a string');
}
