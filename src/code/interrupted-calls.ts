import type { Message } from '../types/message.js';
import type { SessionEntryInput } from '../types/storage/sessions.js';
import type { Store } from '../types/storage/store.js';

/** The result an interrupted tool call has in the history. */
export const INTERRUPTED_RESULT = 'Interrupted by the user: the call was stopped before it finished; it has no result.';

/**
 * Records the tool calls a cancelled turn left running in the session's history, each with the result
 * "interrupted by the user", so the model knows they were started and did not finish (instead of them vanishing).
 * A call already stored with its result is left alone; a stored call without one gets the result only.
 */
export async function recordInterruptedCalls(
  store: Store,
  sessionId: string,
  agent: string,
  calls: ReadonlyMap<string, { toolName: string; input: unknown }>,
): Promise<void> {
  if (calls.size === 0) return;
  const messages = await store.sessions.messages(sessionId);
  const stored = new Set<string>();
  const answered = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') for (const p of m.content) if (p.type === 'tool-call') stored.add(p.toolCallId);
    if (m.role === 'tool') for (const p of m.content) if (p.type === 'tool-result') answered.add(p.toolCallId);
  }
  const open = [...calls].filter(([id]) => !answered.has(id));
  if (open.length === 0) return;
  const entries: SessionEntryInput[] = [];
  const unstored = open.filter(([id]) => !stored.has(id));
  if (unstored.length > 0) {
    const call: Message = {
      role: 'assistant',
      content: unstored.map(([toolCallId, c]) => ({ type: 'tool-call', toolCallId, toolName: c.toolName, input: c.input })),
    };
    entries.push({ message: call, agent });
  }
  const results: Message = {
    role: 'tool',
    content: open.map(([toolCallId, c]) => ({
      type: 'tool-result',
      toolCallId,
      toolName: c.toolName,
      output: { type: 'error-text', value: INTERRUPTED_RESULT },
    })),
  };
  entries.push({ message: results, agent });
  await store.sessions.appendMany(sessionId, entries);
}
