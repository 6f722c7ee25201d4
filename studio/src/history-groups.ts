/** A stored session's messages cut into the turns that wrote them (by run id), for the chat to show as turns. */
import type { SessionMessage } from './api-types.js';

/** Messages of one run, or messages no run is known for (older sessions, sessions without a store's run ids). */
export type HistoryGroup = { kind: 'run'; runId: string; messages: SessionMessage[] } | { kind: 'messages'; messages: SessionMessage[] };

/** Consecutive messages of the same run form one group; system messages are left out. */
export function groupHistory(messages: readonly SessionMessage[]): HistoryGroup[] {
  const groups: HistoryGroup[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    const last = groups.at(-1);
    if (m.runId !== undefined && last?.kind === 'run' && last.runId === m.runId) last.messages.push(m);
    else if (m.runId === undefined && last?.kind === 'messages') last.messages.push(m);
    else groups.push(m.runId !== undefined ? { kind: 'run', runId: m.runId, messages: [m] } : { kind: 'messages', messages: [m] });
  }
  return groups;
}

/** The text of the group's first user message (the question of the turn). */
export function userText(messages: readonly SessionMessage[]): string {
  const m = messages.find((x) => x.role === 'user');
  if (m === undefined) return '';
  if (typeof m.content === 'string') return m.content;
  return m.content
    .filter((p) => p.type === 'text')
    .map((p) => p.text ?? '')
    .join('\n');
}
