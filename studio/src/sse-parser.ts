/**
 * A Server-Sent Events parser for streams read with `fetch` (EventSource cannot send an Authorization header
 * nor POST a body): feed it text chunks as they arrive, it calls back once per complete event.
 */

/** One event of the stream: its `event:` name (`message` when none) and its joined `data:` lines. */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/** Incremental parser state: keep one per stream. */
export interface SseParser {
  /** Feeds a chunk of text; calls `onMessage` for each event it completes. */
  push(chunk: string): void;
  /** Ends the stream: a last event without its blank line is dispatched. */
  end(): void;
}

/** A parser calling `onMessage` for every event (comments and heartbeats are skipped). */
export function createSseParser(onMessage: (message: SseMessage) => void): SseParser {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  const dispatch = () => {
    if (data.length > 0) onMessage({ event: event || 'message', data: data.join('\n'), ...(id !== undefined && { id }) });
    event = '';
    data = [];
  };
  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  };
  return {
    push(chunk) {
      buffer += chunk;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const ch = buffer[i];
        if (ch !== '\n' && ch !== '\r') continue;
        // A `\r` at the very end may be the first half of `\r\n`: wait for the next chunk.
        if (ch === '\r' && i === buffer.length - 1) break;
        line(buffer.slice(start, i));
        if (ch === '\r' && buffer[i + 1] === '\n') i++;
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    end() {
      if (buffer) (line(buffer), (buffer = ''));
      dispatch();
    },
  };
}

/** Reads a `fetch` response body as SSE until it ends (or the signal aborts the fetch). */
export async function readSse(body: ReadableStream<Uint8Array>, onMessage: (message: SseMessage) => void): Promise<void> {
  const parser = createSseParser(onMessage);
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.push(decoder.decode(value, { stream: true }));
  }
  parser.push(decoder.decode());
  parser.end();
}
