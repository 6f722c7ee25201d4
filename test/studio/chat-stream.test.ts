import { describe, expect, it } from 'vitest';

import { readTurnStream, type StreamDone } from '../../studio/src/chat-stream.js';
import type { AgentEvent } from '../../studio/src/event-tree.js';
import { checkAgentEvent, checkDone, parseSseJson } from '../../studio/src/sse-data.js';

const sse = (events: Array<[event: string, data: string]>) =>
  new Response(events.map(([event, data]) => `event: ${event}\ndata: ${data}\n\n`).join(''), {
    headers: { 'content-type': 'text/event-stream' },
  });
const base = { runId: 'r1', agent: 'helper', path: ['helper'] };

describe('the Studio reading a chat stream', () => {
  it('skips and reports malformed events, reads on, and still ends with `done`', async () => {
    const events: AgentEvent[] = [];
    const problems: string[] = [];
    let session: unknown;
    const end = await readTurnStream(
      sse([
        ['session', JSON.stringify({ sessionId: 's1', agent: 'helper' })],
        ['text_delta', '{"type":"text_delta", "delta": oops}'],
        ['text_delta', JSON.stringify({ type: 'text_delta', step: 1, delta: 'no run id' })],
        ['answer', '[1, 2]'],
        ['future_event', JSON.stringify({ ...base, type: 'future_event' })],
        ['text_delta', JSON.stringify({ ...base, type: 'text_delta', step: 1, delta: 'Hello' })],
        ['done', JSON.stringify({ status: 'completed', sessionId: 's1', runId: 'r1', answer: 'Hello' })],
      ]),
      new AbortController().signal,
      { onSession: (s) => (session = s), onEvent: (e) => events.push(e), onMalformed: (p) => problems.push(p) },
    );
    expect(session).toEqual({ sessionId: 's1', agent: 'helper' });
    expect(events.map((e) => (e.type === 'text_delta' ? e.delta : e.type))).toEqual(['Hello']);
    expect(problems).toEqual([
      expect.stringMatching(/^malformed `text_delta` event: its data is not JSON/),
      'malformed `text_delta` event: `runId`, `agent` or `path` is missing',
      'malformed `answer` event: its data is not a JSON object',
    ]);
    expect(end).toEqual({ kind: 'done', done: { status: 'completed', sessionId: 's1', runId: 'r1', answer: 'Hello' } });
  });

  it('does not take a malformed `done` for the end of the turn: the stream counts as dropped', async () => {
    const problems: string[] = [];
    const end = await readTurnStream(sse([['done', JSON.stringify({ status: 42 })]]), new AbortController().signal, {
      onEvent: () => undefined,
      onMalformed: (p) => problems.push(p),
    });
    expect(problems).toEqual(['malformed `done` event: no `status`']);
    expect(end).toEqual({ kind: 'dropped', message: 'the stream ended before the run did' });
  });
});

describe('SSE data checks', () => {
  it("checks the fields of a `done` the Studio reads, and an error's code and message", () => {
    expect(checkDone<StreamDone>({ status: 'failed', error: { code: 'x', message: 'boom' } }, ['runId'], ['error']).value?.status).toBe(
      'failed',
    );
    expect(checkDone({ status: 'completed', runId: 7 }, ['runId'], []).error).toBe('malformed `done` event: `runId` of the wrong type');
    expect(checkDone({ status: 'completed', result: 'text' }, [], ['result']).error).toBe(
      'malformed `done` event: `result` of the wrong type',
    );
    expect(checkDone({ status: 'failed', error: { code: 'x' } }, [], ['error']).error).toBe(
      'malformed `done` event: `error` without `code` and `message`',
    );
  });

  it('knows every event type of the server and skips one it does not know', () => {
    expect(checkAgentEvent('run_end', { ...base, type: 'run_end' })?.value?.type).toBe('run_end');
    expect(checkAgentEvent('x', { ...base, type: 'x' })).toBeUndefined();
    expect(checkAgentEvent('x', { ...base })?.error).toBe('malformed `x` event: no `type`');
    expect(parseSseJson('session', 'null').error).toBe('malformed `session` event: its data is not a JSON object');
  });
});
