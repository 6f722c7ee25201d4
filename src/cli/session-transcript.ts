import type { Message } from '../types/message.js';
import type { Session, SessionEntry } from '../types/storage/sessions.js';
import { formatTime } from './cli-store.js';
import type { Colors } from './colors.js';
import { compact, formatUsage } from './format.js';

/** Bytes of file data for display (`Uint8Array`, base64 text or a URL). */
function fileSize(data: unknown): string {
  if (data instanceof Uint8Array) return `${data.byteLength} bytes`;
  if (data instanceof URL) return data.href;
  if (typeof data === 'string') return data.startsWith('http') ? data : `${Math.floor((data.length * 3) / 4)} bytes`;
  return '';
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((l, i) => (i === 0 ? l : `${prefix}${l}`))
    .join('\n');
}

/** The lines of one message: who said it, text, reasoning, files, tool calls and tool results. */
function messageLines(message: Message, agent: string | undefined, c: Colors): string[] {
  const out: string[] = [];
  switch (message.role) {
    case 'system':
      out.push(`${c.dim('system ›')} ${indent(message.content, '  ')}`);
      break;
    case 'user':
      for (const part of message.content) {
        if (part.type === 'text') out.push(`${c.bold(c.green('user ›'))} ${indent(part.text, '  ')}`);
        else
          out.push(
            `${c.bold(c.green('user ›'))} ${c.dim(`[file ${part.filename ?? ''} ${part.mediaType} ${fileSize(part.data)}]`.replace(/\s+/g, ' '))}`,
          );
      }
      break;
    case 'assistant': {
      const who = c.bold(c.cyan(`${agent ?? 'assistant'} ›`));
      // Name the agent even when its turn starts with thinking or a tool call.
      const first = message.content.find((p) => p.type !== 'text' || p.text !== '');
      if (first !== undefined && first.type !== 'text' && first.type !== 'file') out.push(who);
      for (const part of message.content) {
        switch (part.type) {
          case 'text':
            if (part.text !== '') out.push(`${who} ${indent(part.text, '  ')}`);
            break;
          case 'reasoning':
            out.push(c.dim(c.italic(`  thinking: ${indent(part.text, '    ')}`)));
            break;
          case 'tool-call':
            out.push(`  ${c.yellow('→')} ${c.bold(part.toolName)} ${c.dim(compact(part.input, 300))}`);
            break;
          case 'file':
            out.push(`${who} ${c.dim(`[file ${part.filename ?? ''} ${part.mediaType} ${fileSize(part.data)}]`.replace(/\s+/g, ' '))}`);
            break;
          case 'tool-result':
            out.push(`  ${c.green('←')} ${part.toolName} ${compact(part.output, 300)}`);
            break;
        }
      }
      break;
    }
    case 'tool':
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        const o = part.output;
        const failed = o.type === 'error-text' || o.type === 'error-json' || o.type === 'execution-denied';
        const value = 'value' in o ? o.value : o.type === 'execution-denied' ? (o.reason ?? 'denied') : o;
        out.push(`  ${failed ? c.red('✗') : c.green('←')} ${part.toolName}${failed ? c.red(' failed:') : ':'} ${compact(value, 300)}`);
      }
      break;
  }
  return out;
}

/** An entry that is not a message (`handoff`, `run_start`, …): one dim line. */
function eventLine(entry: SessionEntry, c: Colors): string {
  const data = entry.data === undefined || entry.data === null ? '' : ` ${compact(entry.data, 200)}`;
  return c.dim(`· ${entry.type}${entry.agent ? ` (${entry.agent})` : ''}${data}`);
}

/** A session header and its conversation, rendered for people (`corvid sessions show`). */
export function renderTranscript(session: Session, entries: readonly SessionEntry[], c: Colors): string {
  const messages = entries.filter((e) => e.type === 'message').length;
  const head = [
    `${c.bold('Session')} ${session.id}`,
    `agent: ${session.agent}${session.activeAgent !== session.agent ? `  active: ${session.activeAgent}` : ''}`,
    ...(session.userId !== undefined ? [`user: ${session.userId}`] : []),
    `${messages} message${messages === 1 ? '' : 's'}`,
    `created ${formatTime(session.createdAt)}  updated ${formatTime(session.updatedAt)} UTC`,
  ];
  const lines = [head.join(c.dim('  ·  ')), ''];
  const meta = Object.keys(session.metadata);
  if (meta.length > 0) lines.splice(1, 0, c.dim(`metadata: ${compact(session.metadata, 300)}`));
  for (const e of entries) {
    if (e.type === 'message' && e.message) {
      lines.push(...messageLines(e.message, e.agent, c));
      if (e.usage && e.message.role === 'assistant') lines.push(c.dim(`  (${formatUsage(e.usage)})`));
    } else lines.push(eventLine(e, c));
  }
  if (entries.length === 0) lines.push(c.dim('(no messages yet)'));
  return `${lines.join('\n')}\n`;
}
