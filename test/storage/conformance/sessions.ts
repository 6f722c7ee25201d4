import { describe, expect, it } from 'vitest';

import type { SessionEntryInput } from '../../../src/storage/index.js';
import type { Message } from '../../../src/types/message.js';
import type { SuiteContext } from '../store-conformance.js';
import { unique } from '../support/targets.js';
import { expectCode } from './expect-error.js';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

/** Messages of every role and part kind, with bytes and provider options, to check fidelity. */
export const richMessages: Message[] = [
  { role: 'system', content: 'You are terse.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Look at this 🐦 picture — "quoted" \\ back\nslash' },
      { type: 'file', mediaType: 'image/png', data: new Uint8Array([137, 80, 78, 71, 0, 255]), filename: 'a.png' },
      { type: 'file', mediaType: 'text/plain', data: new URL('https://example.com/a.txt') },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'thinking…', providerOptions: { anthropic: { signature: 'sig' } } },
      { type: 'text', text: 'Calling a tool.' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'lookup', input: { q: 'x', n: [1, 2.5, null, true] } },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'call_1', toolName: 'lookup', output: { type: 'json', value: { ok: true, nested: { a: [] } } } },
    ],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
];

export function sessionCases(ctx: SuiteContext): void {
  describe('sessions', () => {
    it('creates, gets and refuses a duplicate id; get of an unknown id is undefined', async () => {
      const s = ctx.store().sessions;
      const created = await s.create({ agent: 'helper', userId: 'u1', metadata: { title: 'Hi', n: 1 } });
      expect(created.id).toMatch(/^ses_/);
      expect(created).toMatchObject({ agent: 'helper', activeAgent: 'helper', userId: 'u1', metadata: { title: 'Hi', n: 1 }, lastSeq: 0 });
      expect(await s.get(created.id)).toEqual(created);
      const id = unique('mine');
      const mine = await s.create({ id, agent: 'helper' });
      expect(mine.id).toBe(id);
      expect(mine.userId).toBeUndefined();
      await expectCode(s.create({ id, agent: 'other' }), 'storage_conflict', id);
      expect(await s.get(unique('nope'))).toBeUndefined();
      await expectCode(s.create({ agent: '' }), 'validation_failed');
    });

    it('getOrCreate returns the existing session or creates it', async () => {
      const s = ctx.store().sessions;
      const id = unique('goc');
      const a = await s.getOrCreate({ id, agent: 'first' });
      const b = await s.getOrCreate({ id, agent: 'second' });
      expect(b).toEqual(a);
      expect(b.agent).toBe('first');
    });

    it('lists newest first, filtered by agent and user, paginated with a cursor', async () => {
      const s = ctx.store().sessions;
      const agent = unique('agent');
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        if (i % 2 === 0) ctx.clock.tick(5); // some share a timestamp: the id breaks the tie
        ids.push((await s.create({ agent, userId: i < 4 ? 'alice' : 'bob' })).id);
      }
      await s.create({ agent: unique('elsewhere'), userId: 'alice' });
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await s.list({ agent, limit: 3, cursor });
        expect(page.sessions.length).toBeLessThanOrEqual(3);
        seen.push(...page.sessions.map((x) => x.id));
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual([...ids].reverse());
      const bob = await s.list({ agent, userId: 'bob' });
      expect(bob.sessions.map((x) => x.id)).toEqual(ids.slice(4).reverse());
      expect(bob.nextCursor).toBeUndefined();
      await expectCode(s.list({ cursor: 'garbage!' }), 'validation_failed');
      await expectCode(s.list({ limit: 0 }), 'validation_failed');
    });

    it('records the active agent and updates metadata', async () => {
      const s = ctx.store().sessions;
      const { id } = await s.create({ agent: 'triage' });
      expect(await s.getActiveAgent(id)).toBe('triage');
      ctx.clock.tick(10);
      await s.setActiveAgent(id, 'billing');
      expect(await s.getActiveAgent(id)).toBe('billing');
      const updated = await s.update(id, { metadata: { title: 'Refund' } });
      expect(updated).toMatchObject({ agent: 'triage', activeAgent: 'billing', metadata: { title: 'Refund' } });
      expect(updated.updatedAt.getTime()).toBeGreaterThan(updated.createdAt.getTime());
      expect(await s.getActiveAgent(unique('nope'))).toBeUndefined();
      await expectCode(s.setActiveAgent(unique('nope'), 'x'), 'not_found', 'Unknown session');
    });

    it('appends at full fidelity with gapless seqs, and loads after a seq', async () => {
      const s = ctx.store().sessions;
      const { id } = await s.create({ agent: 'helper' });
      const usage = { inputTokens: 10, outputTokens: 5, reasoningTokens: 1, cachedInputTokens: 2, totalTokens: 15 };
      const entries: SessionEntryInput[] = richMessages.map((message, i) => ({
        message,
        agent: i === 4 ? 'helper' : undefined,
        runId: 'run_1',
        usage: i === 2 ? usage : undefined,
      }));
      expect(await s.append(id, entries[0])).toBe(1);
      expect(await s.appendMany(id, entries.slice(1))).toEqual([2, 3, 4, 5]);
      expect(
        await s.append(id, { type: 'handoff', agent: 'helper', data: { to: 'billing', at: new Date(0), bytes: new Uint8Array([1, 2]) } }),
      ).toBe(6);
      expect(await s.appendMany(id, [])).toEqual([]);
      expect(await s.messages(id)).toEqual(richMessages);
      const all = await s.entries(id);
      expect(all.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(all[2]).toMatchObject({ sessionId: id, seq: 3, type: 'message', role: 'assistant', runId: 'run_1', usage });
      expect(all[4].agent).toBe('helper');
      expect(all[0].agent).toBeUndefined();
      expect(all[5]).toMatchObject({
        type: 'handoff',
        agent: 'helper',
        data: { to: 'billing', at: new Date(0), bytes: new Uint8Array([1, 2]) },
      });
      expect(all[5].message).toBeUndefined();
      expect(all[5].createdAt).toBeInstanceOf(Date);
      expect((await s.entries(id, { afterSeq: 4 })).map((e) => e.seq)).toEqual([5, 6]);
      expect((await s.entries(id, { afterSeq: 1, limit: 2 })).map((e) => e.seq)).toEqual([2, 3]);
      expect((await s.entries(id, { types: ['handoff'] })).map((e) => e.seq)).toEqual([6]);
      expect(await s.messages(id, { afterSeq: 3 })).toEqual(richMessages.slice(3));
      expect(await s.countMessages(id)).toBe(richMessages.length); // the handoff record is not a message
      expect((await s.get(id))!.lastSeq).toBe(6);
    });

    it('applies appends to one session in call order, also when not awaited one by one', async () => {
      const s = ctx.store().sessions;
      const [a, b] = [await s.create({ agent: 'a' }), await s.create({ agent: 'b' })];
      const pending: Promise<number | number[]>[] = [];
      for (let i = 0; i < 30; i++) {
        const target = i % 3 === 0 ? b.id : a.id;
        pending.push(
          i % 4 === 0
            ? s.appendMany(target, [
                { type: 'n', data: i },
                { type: 'n', data: i + 0.5 },
              ])
            : s.append(target, { type: 'n', data: i }),
        );
      }
      await Promise.all(pending);
      for (const id of [a.id, b.id]) {
        const data = (await s.entries(id)).map((e) => e.data as number);
        expect(data).toEqual([...data].sort((x, y) => x - y));
        expect((await s.entries(id)).map((e) => e.seq)).toEqual(data.map((_, i) => i + 1));
      }
    });

    it('refuses appends and loads on an unknown session, and a stale expectedLastSeq', async () => {
      const s = ctx.store().sessions;
      const missing = unique('missing');
      await expectCode(s.append(missing, { message: user('hi') }), 'not_found', missing);
      await expectCode(s.appendMany(missing, []), 'not_found', missing);
      await expectCode(s.entries(missing), 'not_found', missing);
      await expectCode(s.messages(missing), 'not_found', missing);
      await expectCode(s.countMessages(missing), 'not_found', missing);
      const { id } = await s.create({ agent: 'a' });
      expect(await s.messages(id)).toEqual([]);
      expect(await s.countMessages(id)).toBe(0);
      expect(await s.append(id, { message: user('one') }, { expectedLastSeq: 0 })).toBe(1);
      await expectCode(s.append(id, { message: user('two') }, { expectedLastSeq: 0 }), 'storage_conflict', 'expected last seq 0, found 1');
      expect(await s.appendMany(id, [{ message: user('two') }, { message: user('three') }], { expectedLastSeq: 1 })).toEqual([2, 3]);
      await expectCode(s.append(id, { type: 'message' }), 'validation_failed');
      expect((await s.get(id))!.lastSeq).toBe(3);
    });

    it('deletes a session with its entries, state, artifacts, runs and approvals', async () => {
      const store = ctx.store();
      const { id } = await store.sessions.create({ agent: 'a', userId: 'del-user' });
      await store.sessions.append(id, { message: user('zanzibar quokka') });
      await store.state.set({ session: id }, 'k', 1);
      await store.state.set({ user: 'del-user' }, 'kept', true);
      await store.artifacts.save(id, { name: 'f.txt', data: 'x' });
      const runId = unique('run');
      await store.checkpoints.save({ runId, sessionId: id, agent: 'a', status: 'paused', state: {} });
      const approval = await store.approvals.create({ runId, toolCallId: 'c1', toolName: 't', args: {} });
      expect(await store.sessions.delete(id)).toBe(true);
      expect(await store.sessions.get(id)).toBeUndefined();
      expect(await store.sessions.delete(id)).toBe(false);
      await expectCode(store.sessions.entries(id), 'not_found');
      expect(await store.state.get({ session: id }, 'k')).toBeUndefined();
      expect(await store.state.get({ user: 'del-user' }, 'kept')).toBe(true);
      expect(await store.artifacts.list(id)).toEqual([]);
      expect(await store.checkpoints.getRun(runId)).toBeUndefined();
      expect(await store.approvals.get(approval.id)).toBeUndefined();
      expect(await store.conversations.search('zanzibar quokka', { sessionId: id })).toEqual([]);
    });
  });
}
