import type { ApprovalStatus, RunStatus } from '../../types/storage/runs.js';

/** Rows of the in-memory store; JSON values are kept encoded so callers never share objects with it. */
export interface MemSession {
  id: string;
  agent: string;
  activeAgent: string;
  userId?: string;
  metadata: string;
  lastSeq: number;
  createdAt: number;
  updatedAt: number;
  order: number;
}

export interface MemEntry {
  seq: number;
  type: string;
  agent?: string;
  role?: string;
  runId?: string;
  message?: string;
  usage?: string;
  data?: string;
  text?: string;
  createdAt: number;
}

export interface MemMemory {
  key: string;
  value: string;
  category?: string;
  tags: string[];
  importance: number;
  createdAt: number;
  updatedAt: number;
  order: number;
}

export interface MemRun {
  runId: string;
  sessionId?: string;
  agent: string;
  status: RunStatus;
  checkpoints: number;
  createdAt: number;
  updatedAt: number;
  expiresAt?: number;
  order: number;
}

export interface MemCheckpoint {
  seq: number;
  status: RunStatus;
  state: string;
  createdAt: number;
  expiresAt?: number;
}

export interface MemApproval {
  id: string;
  runId: string;
  sessionId?: string;
  toolCallId: string;
  toolName: string;
  args: string;
  prompt?: string;
  status: ApprovalStatus;
  reason?: string;
  createdAt: number;
  answeredAt?: number;
  order: number;
}

/** Everything an in-memory store holds. */
export class MemData {
  sessions = new Map<string, MemSession>();
  entries = new Map<string, MemEntry[]>();
  state = new Map<string, { value: string; updatedAt: number }>();
  artifacts = new Map<string, { version: number; mimeType: string; data: Uint8Array; createdAt: number }[]>();
  memories = new Map<string, Map<string, MemMemory>>();
  runs = new Map<string, MemRun>();
  checkpoints = new Map<string, MemCheckpoint[]>();
  approvals = new Map<string, MemApproval>();
  /** Fixed-window counters by key; `expiresAt` is the window's end (epoch ms). */
  counters = new Map<string, { total: number; expiresAt: number }>();
  /** Leases by name. */
  leases = new Map<string, { holder: string; expiresAt: number }>();
  private counter = 0;

  /** A strictly increasing number that breaks timestamp ties (insertion order). */
  next(): number {
    return ++this.counter;
  }
}

/** Joins key parts with a separator that cannot occur in ids. */
export const k = (...parts: string[]): string => parts.join('\u0000');
