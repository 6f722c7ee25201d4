import { type Message, messageText } from '../../types/message.js';
import type { ChatSession } from './chat-sessions.js';
import { summarize } from './chat-sessions.js';

/** A session export: the body, its content type, and the download's file name. */
export interface SessionExport {
  body: string;
  contentType: string;
  filename: string;
}

/** Tool calls and results of a message, as markdown lines. */
function toolLines(m: Message): string[] {
  if (m.role === 'system' || typeof m.content === 'string') return [];
  const out: string[] = [];
  const block = (what: string, name: string, value: unknown) =>
    `**${what}** \`${name}\`\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
  for (const part of m.content) {
    if (part.type === 'tool-call') out.push(block('tool call', part.toolName, part.input));
    if (part.type === 'tool-result') out.push(block('tool result', part.toolName, part.output));
  }
  return out;
}

/** A session as markdown: a heading, then each message under its role. */
export function sessionMarkdown(s: ChatSession): string {
  const lines = [`# ${s.title ?? `Session ${s.id}`}`, '', `Agent: ${s.agent} · created ${s.createdAt} · updated ${s.updatedAt}`, ''];
  for (const m of s.messages) {
    const text = messageText(m).trim();
    const tools = toolLines(m);
    if (text === '' && tools.length === 0) continue;
    lines.push(`## ${m.role}`, '');
    if (text !== '') lines.push(text, '');
    for (const t of tools) lines.push(t, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** A session exported as JSON (what `GET /api/v1/sessions/{id}` answers) or markdown. */
export function exportSession(s: ChatSession, format: 'json' | 'markdown'): SessionExport {
  if (format === 'markdown')
    return { body: sessionMarkdown(s), contentType: 'text/markdown; charset=utf-8', filename: `session-${s.id}.md` };
  const json = { ...summarize(s), usage: s.usage, messages: s.messages };
  return { body: `${JSON.stringify(json, null, 2)}\n`, contentType: 'application/json; charset=utf-8', filename: `session-${s.id}.json` };
}
