/**
 * A session run stopped while the model streams: the words it had said stay in the session (an assistant
 * message marked interrupted), the run is stored `cancelled` (not `failed`), and the next turn sees them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { Agent, RunAbortedError } from '../../src/index.js';
import { type FakeLlmServer, type RecordedRequest, startFakeLlmServer } from '../support/fake-llm-server.js';
import { storeAt, TARGETS } from './support.js';

const ANSWER = 'First half here. Second half here. Third part here.';

describe('a cancelled session run', () => {
  let llm: FakeLlmServer;
  let release = () => {};
  beforeAll(async () => {
    llm = await startFakeLlmServer((req: RecordedRequest) => {
      const messages = (req.body?.messages ?? []) as Array<{ content: unknown }>;
      if (JSON.stringify(messages.at(-1)?.content).includes('again')) return { text: 'Carrying on.' };
      return { text: ANSWER, holdBefore: { contains: 'Second', until: new Promise<void>((r) => (release = r)) } };
    });
  });
  afterAll(async () => {
    release();
    await llm?.close();
  });

  for (const target of TARGETS) {
    describe.skipIf(Boolean(target.skip))(`on ${target.name}`, () => {
      let cleanup: (() => Promise<void>) | undefined;
      afterEach(async () => {
        release();
        await cleanup?.();
        cleanup = undefined;
      });

      it('keeps the partial answer, marked interrupted, and is stored cancelled', async () => {
        const at = await storeAt(target);
        cleanup = at.close;
        const store = await at.open();
        const model = {
          provider: 'openai-compatible' as const,
          model: 'm',
          baseURL: `${llm.url}/v1`,
          apiKey: 'k',
          retry: { maxRetries: 0 },
        };
        const agent = new Agent({ name: 'teller', model, store });
        const s = agent.stream('Tell me a story', { session: 'story-1' });
        let streamed = '';
        for await (const e of s) {
          if (e.type !== 'text_delta') continue;
          streamed += e.delta;
          s.abort();
        }
        await expect(s.result).rejects.toBeInstanceOf(RunAbortedError);
        expect(streamed).toBe('First half here. ');
        const entries = await store.sessions.entries('story-1');
        expect(entries.map((e) => [e.role, e.message?.content, e.data])).toEqual([
          ['user', [{ type: 'text', text: 'Tell me a story' }], undefined],
          ['assistant', [{ type: 'text', text: 'First half here. ' }], { interrupted: true }],
        ]);
        const runs = await store.checkpoints.listRuns({ sessionId: 'story-1' });
        expect(runs.map((r) => r.status)).toEqual(['cancelled']);
        // The next turn sees what was said before the stop.
        const next = await agent.run('Tell me again', { session: 'story-1' });
        expect(next.text).toBe('Carrying on.');
        const sent = JSON.stringify(llm.requests.at(-1)!.body.messages);
        expect(sent).toContain('First half here.');
      });
    });
  }
});
