import { type Message as A2AMessage, type Part, Role, type Task } from '@a2a-js/sdk';

import { newId } from '../../../http/new-id.js';
import type { AgentEvent as CorvidEvent } from '../../../types/events.js';
import type { PendingApproval } from '../../../types/result.js';

/** A text part of an A2A message or artifact. */
export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

/** A message from the agent in a task. */
export function agentMessage(text: string, taskId: string, contextId: string): A2AMessage {
  return {
    messageId: newId(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The text a run gets from an A2A message: text parts, data parts as JSON, files as references. */
export function messageToText(message: A2AMessage): string {
  const parts = message.parts ?? [];
  // The common case, one text part: no array to join.
  if (parts.length === 1 && parts[0].content?.$case === 'text') return parts[0].content.value;
  const out: string[] = [];
  for (const part of parts) {
    const c = part.content;
    if (!c) continue;
    switch (c.$case) {
      case 'text':
        out.push(c.value);
        break;
      case 'data':
        out.push(JSON.stringify(c.value));
        break;
      case 'url':
        out.push(`[file${part.filename ? ` ${part.filename}` : ''}: ${c.value}]`);
        break;
      case 'raw':
        out.push(
          `[file${part.filename ? ` ${part.filename}` : ''} (${part.mediaType || 'application/octet-stream'}, ${c.value.length} bytes)]`,
        );
        break;
      default: {
        const never: never = c;
        void never;
      }
    }
  }
  return out.join('\n');
}

/** The message of an error, for a failed task's status. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** What a working status update says about a Corvid event (undefined: not reported). */
export function progressMetadata(event: CorvidEvent): Record<string, unknown> | undefined {
  switch (event.type) {
    case 'tool_call':
      return { type: event.type, agent: event.agent, toolName: event.toolName, toolCallId: event.toolCallId };
    case 'tool_result':
      return { type: event.type, agent: event.agent, toolName: event.toolName, toolCallId: event.toolCallId, isError: event.isError };
    case 'handoff':
      return { type: event.type, from: event.from, to: event.to };
    case 'task_start':
      return { type: event.type, task: event.task, target: event.target };
    case 'route':
      return { type: event.type, route: event.route, target: event.target };
    case 'retrieval':
      return {
        type: event.type,
        agent: event.agent,
        knowledge: event.knowledge,
        via: event.via,
        citations: event.hits.map((h) => h.citation),
      };
    case 'warning':
      return {
        type: event.type,
        agent: event.agent,
        model: event.model,
        kind: event.kind,
        ...(event.feature ? { feature: event.feature } : {}),
        message: event.message,
      };
    default:
      return undefined;
  }
}

/** The paused run a task waits on (recorded in its input-required status message), if any. */
export function pausedRunOf(task: Task): { runId: string; approvals: PendingApproval[] } | undefined {
  const meta = task.status?.message?.metadata?.corvid as { runId?: unknown; approvals?: unknown } | undefined;
  if (!meta || typeof meta.runId !== 'string') return undefined;
  return { runId: meta.runId, approvals: Array.isArray(meta.approvals) ? (meta.approvals as PendingApproval[]) : [] };
}

/** approve / deny from a reply; undefined when it is neither. */
export function parseDecision(text: string): { approved: boolean; reason?: string } | undefined {
  const t = text.trim();
  if (/^(y|yes|approve[ds]?|allow(ed)?|ok(ay)?|go ahead)\b/i.test(t)) return { approved: true };
  if (/^(n|no|deny|denied|reject(ed)?|don'?t|stop)\b/i.test(t)) {
    const reason = t.replace(/^\S+[\s,:.-]*/, '').trim();
    return reason ? { approved: false, reason } : { approved: false };
  }
  return undefined;
}

/** The input-required question: the tool calls waiting for approval, and how to answer. */
export function approvalMessage(
  runId: string,
  approvals: PendingApproval[],
  taskId: string,
  contextId: string,
  prefix?: string,
): A2AMessage {
  const lines = approvals.map((a) => `- ${a.prompt}`);
  const text = [prefix, `Approval needed before the agent continues:`, ...lines, 'Reply "approve" or "deny" (optionally with a reason).']
    .filter(Boolean)
    .join('\n');
  const message = agentMessage(text, taskId, contextId);
  message.metadata = {
    corvid: {
      type: 'approval_required',
      runId,
      approvals: approvals.map((a) => ({
        approvalId: a.approvalId,
        toolCallId: a.toolCallId,
        toolName: a.toolName,
        input: a.input,
        prompt: a.prompt,
      })),
    },
  };
  return message;
}

/**
 * The input-required status message of a turn that asked the user something (`ask_user`): the
 * question, with `metadata.corvid` `{ type: "input_required", question }`. The reply on the
 * same task continues the conversation.
 */
export function questionMessage(question: string, taskId: string, contextId: string): A2AMessage {
  const message = agentMessage(question, taskId, contextId);
  message.metadata = { corvid: { type: 'input_required', question } };
  return message;
}
