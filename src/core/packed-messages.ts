import type { Message } from '../types/message.js';
import { hasExactKeys } from './has-exact-keys.js';

/**
 * A conversation held compactly, for in-memory conversation stores: a plain text message
 * (`{ role, content: [{ type: 'text', text }] }` for user and assistant, `{ role: 'system', content }`)
 * takes two slots, its role and its text; any other message is kept as itself in one slot.
 *
 * A server keeping thousands of conversations holds two strings per plain message instead of
 * three objects, which is most of what the garbage collector copies and marks for them.
 */
export type PackedMessages = readonly (string | Message)[];

const ROLE_CONTENT = ['role', 'content'];
const TYPE_TEXT = ['type', 'text'];

/** Packs `messages` (the messages are not copied: a message kept as itself is shared). */
export function packMessages(messages: readonly Message[]): PackedMessages {
  let size = 0;
  for (let i = 0; i < messages.length; i++) size += plainText(messages[i]) === undefined ? 1 : 2;
  const out = new Array<string | Message>(size);
  let at = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const text = plainText(m);
    if (text === undefined) out[at++] = m;
    else {
      out[at++] = m.role;
      out[at++] = text;
    }
  }
  return out;
}

/** The messages of a packed conversation, in a new array (plain messages as new objects). */
export function unpackMessages(packed: PackedMessages): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < packed.length; i++) {
    const slot = packed[i];
    if (typeof slot !== 'string') {
      out.push(slot);
      continue;
    }
    const text = packed[++i] as string;
    if (slot === 'system') out.push({ role: 'system', content: text });
    else out.push({ role: slot as 'user' | 'assistant', content: [{ type: 'text', text }] });
  }
  return out;
}

/** The text of a plain text message, or undefined for any other message. */
function plainText(m: Message): string | undefined {
  if (!hasExactKeys(m, ROLE_CONTENT)) return undefined;
  if (m.role === 'system') return typeof m.content === 'string' ? m.content : undefined;
  if (m.role !== 'user' && m.role !== 'assistant') return undefined;
  const content = m.content;
  if (!Array.isArray(content) || content.length !== 1) return undefined;
  const part = content[0];
  return part.type === 'text' && typeof part.text === 'string' && hasExactKeys(part, TYPE_TEXT) ? part.text : undefined;
}
