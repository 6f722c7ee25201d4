import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { askUser } from '../../src/index.js';
import type { RunningServer } from '../../src/server/app/serve.js';
import { openStore } from '../../src/storage/open-store.js';
import type { Store } from '../../src/types/storage/store.js';
import { chat, parseSse, scriptedAgent, startServer } from './helpers.js';

// A chat turn that ends with ask_user answers with the question (`status: "input_required"`);
// the next message of the session answers it. JSON and SSE, with and without a store.

describe.each([
  ['in memory', false],
  ['with a store', true],
] as const)('ask_user in the chat API (%s)', (_label, withStore) => {
  let server: RunningServer;
  let url: string;
  let store: Store | undefined;

  beforeAll(async () => {
    store = withStore ? await openStore({ driver: 'memory' }) : undefined;
    const booker = scriptedAgent(
      'booker',
      (input) =>
        input.includes('book') ? { toolCalls: [{ toolName: 'ask_user', input: { question: 'Where to?' } }] } : { text: `Booked ${input}.` },
      { tools: [askUser] },
    );
    ({ server, url } = await startServer([booker], store ? { store: async () => store! } : {}));
  });
  afterAll(async () => {
    await server.close();
    await store?.close();
  });

  it('answers JSON with input_required and the question; the next message completes the turn', async () => {
    const res = await chat(url, 'booker', { message: 'please book a flight' });
    expect(res.status).toBe(200);
    const asked = await res.json();
    expect(asked).toMatchObject({ status: 'input_required', question: 'Where to?', answer: 'Where to?', agent: 'booker' });
    const done = await (await chat(url, 'booker', { message: 'Quito', sessionId: asked.sessionId })).json();
    expect(done).toMatchObject({ status: 'completed', answer: 'Booked Quito.', sessionId: asked.sessionId });
    expect(done.question).toBeUndefined();
    const session = await (await fetch(`${url}/api/v1/sessions/${asked.sessionId}`)).json();
    expect(session.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
  });

  it('streams run_end with needsInput and a done event with input_required', async () => {
    const res = await chat(url, 'booker', { message: 'book again', stream: true });
    const events = parseSse(await res.text());
    const runEnd = events.find((e) => e.event === 'run_end');
    expect(runEnd?.data).toMatchObject({ status: 'completed', needsInput: { question: 'Where to?' } });
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'input_required', question: 'Where to?', answer: 'Where to?' } });
  });
});
