import type { Message } from '../../types/message.js';
import type { Memory } from '../../types/storage/memories.js';
import type { Approval, ApprovalStatus, Checkpoint, RunRecord, RunStatus } from '../../types/storage/runs.js';
import type { Session, SessionEntry } from '../../types/storage/sessions.js';
import type { Usage } from '../../types/usage.js';
import { decodeJson, decodeOptional } from './json-codec.js';

/** Database rows as the SQL backends return them (snake_case columns, ms timestamps). */
type Nullable<T> = T | null | undefined;

export interface SessionRow {
  id: string;
  agent: string;
  active_agent: string;
  user_id: Nullable<string>;
  metadata: string;
  last_seq: number;
  created_at: number;
  updated_at: number;
}

export interface EntryRow {
  seq: number;
  type: string;
  agent: Nullable<string>;
  role: Nullable<string>;
  run_id: Nullable<string>;
  message: Nullable<string>;
  usage_json: Nullable<string>;
  data: Nullable<string>;
  created_at: number;
}

export interface MemoryRow {
  id?: number;
  mem_key: string;
  value: string;
  category: Nullable<string>;
  tags: string;
  importance: number;
  created_at: number;
  updated_at: number;
}

export interface RunRow {
  run_id: string;
  session_id: Nullable<string>;
  agent: string;
  status: string;
  checkpoints: number;
  created_at: number;
  updated_at: number;
  expires_at: Nullable<number>;
}

export interface CheckpointRow {
  run_id: string;
  seq: number;
  session_id: Nullable<string>;
  agent: string;
  status: string;
  state: string;
  created_at: number;
  expires_at: Nullable<number>;
}

export interface ApprovalRow {
  id: string;
  run_id: string;
  session_id: Nullable<string>;
  tool_call_id: string;
  tool_name: string;
  args: string;
  prompt: Nullable<string>;
  status: string;
  reason: Nullable<string>;
  created_at: number;
  answered_at: Nullable<number>;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
const date = (v: unknown): Date => new Date(num(v));

export function toSession(r: SessionRow): Session {
  const s: Session = {
    id: r.id,
    agent: r.agent,
    activeAgent: r.active_agent,
    metadata: decodeJson(r.metadata) as Record<string, unknown>,
    lastSeq: num(r.last_seq),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
  };
  if (r.user_id != null) s.userId = r.user_id;
  return s;
}

export function toEntry(sessionId: string, r: EntryRow): SessionEntry {
  const e: SessionEntry = { sessionId, seq: num(r.seq), type: r.type, createdAt: date(r.created_at) };
  if (r.agent != null) e.agent = r.agent;
  if (r.role != null) e.role = r.role as Message['role'];
  if (r.run_id != null) e.runId = r.run_id;
  if (r.message != null) e.message = decodeJson(r.message) as Message;
  if (r.usage_json != null) e.usage = JSON.parse(r.usage_json) as Usage;
  if (r.data != null) e.data = decodeJson(r.data);
  return e;
}

export function toMemory(r: MemoryRow): Memory {
  const m: Memory = {
    key: r.mem_key,
    value: r.value,
    tags: JSON.parse(r.tags) as string[],
    importance: num(r.importance),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
  };
  if (r.category != null) m.category = r.category;
  return m;
}

export function toRun(r: RunRow): RunRecord {
  const run: RunRecord = {
    runId: r.run_id,
    agent: r.agent,
    status: r.status as RunStatus,
    checkpoints: num(r.checkpoints),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
  };
  if (r.session_id != null) run.sessionId = r.session_id;
  if (r.expires_at != null) run.expiresAt = date(r.expires_at);
  return run;
}

export function toCheckpoint(r: CheckpointRow): Checkpoint {
  const c: Checkpoint = {
    runId: r.run_id,
    seq: num(r.seq),
    agent: r.agent,
    status: r.status as RunStatus,
    state: decodeJson(r.state),
    createdAt: date(r.created_at),
  };
  if (r.session_id != null) c.sessionId = r.session_id;
  if (r.expires_at != null) c.expiresAt = date(r.expires_at);
  return c;
}

export function toApproval(r: ApprovalRow): Approval {
  const a: Approval = {
    id: r.id,
    runId: r.run_id,
    toolCallId: r.tool_call_id,
    toolName: r.tool_name,
    args: decodeOptional(r.args),
    status: r.status as ApprovalStatus,
    createdAt: date(r.created_at),
  };
  if (r.session_id != null) a.sessionId = r.session_id;
  if (r.prompt != null) a.prompt = r.prompt;
  if (r.reason != null) a.reason = r.reason;
  if (r.answered_at != null) a.answeredAt = date(r.answered_at);
  return a;
}
