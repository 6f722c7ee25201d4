import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packMessages, unpackMessages } from '../../src/core/packed-messages.js';
import type { Message } from '../../src/types/message.js';

describe('packMessages / unpackMessages', () => {
  it('holds plain text messages as role and text, and rebuilds them exactly', () => {
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'hello' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'hi — "there"\n' }] },
    ];
    const packed = packMessages(messages);
    expect(packed).toEqual(['system', 'Be brief.', 'user', 'hello', 'assistant', 'hi — "there"\n']);
    const back = unpackMessages(packed);
    expect(isDeepStrictEqual(back, messages)).toBe(true);
    expect(JSON.stringify(back)).toBe(JSON.stringify(messages));
    // New objects: changing them changes neither the packed form nor the originals.
    (back[1].content as { text: string }[])[0].text = 'changed';
    expect(unpackMessages(packed)[1]).toEqual(messages[1]);
    expect(messages[1]).toEqual({ role: 'user', content: [{ type: 'text', text: 'hello' }] });
  });

  it('keeps any other message as itself, in order', () => {
    const call: Message = { role: 'assistant', content: [{ type: 'text', text: 'let me look' }, { type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: { q: 'x' } }] };
    const result: Message = { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'search', output: { type: 'text', value: 'found' } }] };
    const withOptions: Message = { role: 'user', content: [{ type: 'text', text: 'cached', providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } }] };
    const withMessageOptions: Message = { role: 'assistant', content: [{ type: 'text', text: 'x' }], providerOptions: { openai: { id: 'r1' } } };
    const reasoning: Message = { role: 'assistant', content: [{ type: 'reasoning', text: 'thinking' }] };
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'q' }] }, call, result, withOptions, withMessageOptions, reasoning, { role: 'assistant', content: [{ type: 'text', text: 'done' }] }];
    const packed = packMessages(messages);
    expect(packed).toHaveLength(2 + 5 + 2);
    expect(packed[2]).toBe(call);
    const back = unpackMessages(packed);
    expect(back).toEqual(messages);
    expect(back[1]).toBe(call);
    expect(back[3]).toBe(withOptions);
  });

  it('packs an empty conversation to an empty one', () => {
    expect(unpackMessages(packMessages([]))).toEqual([]);
  });
});
