import type { Message } from '../../types/message.js';

const MAX_SEARCH_TEXT = 100_000;

/**
 * The searchable text of a message: system text, text parts of user and assistant messages, and
 * text/JSON outputs of tool results. Undefined when there is nothing to index.
 */
export function messageSearchText(message: Message | undefined): string | undefined {
  if (!message) return undefined;
  let out = '';
  if (message.role === 'system') out = message.content;
  else {
    for (const part of message.content) {
      if (part.type === 'text') out += (out ? '\n' : '') + part.text;
      else if (part.type === 'tool-result') {
        const o = part.output;
        const text =
          o.type === 'text' || o.type === 'error-text'
            ? o.value
            : o.type === 'json' || o.type === 'error-json'
              ? JSON.stringify(o.value)
              : '';
        if (text) out += (out ? '\n' : '') + text;
      }
    }
  }
  if (!out.trim()) return undefined;
  return out.length > MAX_SEARCH_TEXT ? out.slice(0, MAX_SEARCH_TEXT) : out;
}

/** The searchable text of a memory: key, value, category and tags. */
export function memorySearchText(m: { key: string; value: string; category?: string; tags: string[] }): string {
  return [m.key.replace(/[_\-.:/]+/g, ' '), m.value, m.category ?? '', m.tags.join(' ')].filter(Boolean).join('\n');
}
