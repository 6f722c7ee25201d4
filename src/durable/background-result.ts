import type { RunResult } from '../types/result.js';

/** What a submitted run's record and `done` event keep of its `RunResult`. */
export interface BackgroundResult {
  text: string;
  agent: string;
  sessionId?: string;
  usage: RunResult['usage'];
  steps: number;
  finishReason: RunResult['finishReason'];
  durationMs: number;
  /** A run paused for approvals: what it waits for. */
  pendingApprovals?: { approvalId: string; toolCallId: string; toolName: string; input: unknown; prompt: string }[];
  /** The run asked the user something (`ask_user`). */
  question?: string;
}

/** The stored view of a run's result. */
export function backgroundResult(r: RunResult): BackgroundResult {
  const out: BackgroundResult = {
    text: r.text,
    agent: r.agent,
    usage: r.usage,
    steps: r.steps.length,
    finishReason: r.finishReason,
    durationMs: r.durationMs,
  };
  if (r.sessionId !== undefined) out.sessionId = r.sessionId;
  if (r.pendingApprovals !== undefined && r.pendingApprovals.length > 0) {
    out.pendingApprovals = r.pendingApprovals.map((a) => ({
      approvalId: a.approvalId,
      toolCallId: a.toolCallId,
      toolName: a.toolName,
      input: a.input,
      prompt: a.prompt,
    }));
  }
  if (r.needsInput) out.question = r.needsInput.question;
  return out;
}
