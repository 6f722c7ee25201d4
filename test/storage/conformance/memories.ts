import { describe, expect, it } from 'vitest';

import type { MemoryScope } from '../../../src/storage/index.js';
import type { SuiteContext } from '../store-conformance.js';
import { unique } from '../support/targets.js';
import { expectCode } from './expect-error.js';

const scope = (): MemoryScope => ({ userId: unique('user'), agent: 'assistant' });

export function memoryCases(ctx: SuiteContext): void {
  describe('memories', () => {
    it('saves and gets; saving a key again keeps createdAt and moves updatedAt', async () => {
      const { memories } = ctx.store();
      const s = scope();
      const first = await memories.save(s, {
        key: 'diet',
        value: 'vegetarian',
        category: 'food',
        tags: ['diet', 'diet', 'health'],
        importance: 8,
      });
      expect(first).toMatchObject({ key: 'diet', value: 'vegetarian', category: 'food', tags: ['diet', 'health'], importance: 8 });
      expect(first.updatedAt).toEqual(first.createdAt);
      ctx.clock.tick(1000);
      const second = await memories.save(s, { key: 'diet', value: 'vegan', tags: ['health'] });
      expect(second.createdAt).toEqual(first.createdAt);
      expect(second.updatedAt.getTime()).toBe(first.createdAt.getTime() + 1000);
      expect(second).toMatchObject({ value: 'vegan', importance: 5, tags: ['health'] });
      expect(second.category).toBeUndefined();
      expect(await memories.get(s, 'diet')).toEqual(second);
      expect(await memories.get(s, 'nope')).toBeUndefined();
      expect(await memories.get({ ...s, agent: 'other' }, 'diet')).toBeUndefined();
      expect(await memories.get({ ...s, userId: unique('else') }, 'diet')).toBeUndefined();
    });

    it('validates importance (an integer 1–10), keys and tags', async () => {
      const { memories } = ctx.store();
      const s = scope();
      for (const importance of [0, 11, 5.5, Number.NaN]) {
        await expectCode(memories.save(s, { key: 'k', value: 'v', importance }), 'validation_failed', 'importance');
      }
      await expectCode(memories.save(s, { key: '', value: 'v' }), 'validation_failed');
      await expectCode(memories.save(s, { key: 'k', value: 'v', tags: [''] }), 'validation_failed');
      await expectCode(memories.save({ userId: '', agent: 'a' }, { key: 'k', value: 'v' }), 'validation_failed');
      expect(await memories.list(s)).toEqual([]);
    });

    it('filters by category, any/all tags and minimum importance, newest first, with a limit', async () => {
      const { memories } = ctx.store();
      const s = scope();
      const save = async (key: string, category: string, tags: string[], importance: number) => {
        ctx.clock.tick(10);
        await memories.save(s, { key, value: key, category, tags, importance });
      };
      await save('m1', 'food', ['likes', 'sweet'], 3);
      await save('m2', 'food', ['likes'], 7);
      await save('m3', 'work', ['sweet'], 9);
      await save('m4', 'work', [], 2);
      const keys = async (f: Parameters<typeof memories.list>[1]) => (await memories.list(s, f)).map((m) => m.key);
      expect(await keys({})).toEqual(['m4', 'm3', 'm2', 'm1']);
      expect(await keys({ category: 'food' })).toEqual(['m2', 'm1']);
      expect(await keys({ tags: ['likes', 'sweet'] })).toEqual(['m3', 'm2', 'm1']);
      expect(await keys({ tags: ['likes', 'sweet'], tagMode: 'all' })).toEqual(['m1']);
      expect(await keys({ minImportance: 7 })).toEqual(['m3', 'm2']);
      expect(await keys({ category: 'food', minImportance: 5, tags: ['likes'] })).toEqual(['m2']);
      expect(await keys({ limit: 2 })).toEqual(['m4', 'm3']);
      ctx.clock.tick(10);
      await memories.save(s, { key: 'm1', value: 'updated', category: 'food', tags: ['likes'], importance: 3 });
      expect(await keys({ limit: 1 })).toEqual(['m1']);
      expect(await keys({ tags: ['sweet'] })).toEqual(['m3']);
    });

    it('ranks keyword search by relevance and honours filters', async () => {
      const { memories } = ctx.store();
      const s = scope();
      await memories.save(s, {
        key: 'drinks',
        value: 'Drinks espresso every morning; espresso with oat milk, a double espresso on Fridays',
        importance: 6,
      });
      await memories.save(s, { key: 'travel', value: 'Visited Rome and tried an espresso once', category: 'trips' });
      await memories.save(s, { key: 'pets', value: 'Has a cat named Miso', importance: 9 });
      await memories.save(scope(), { key: 'drinks', value: 'espresso espresso espresso' });
      const hits = await memories.search(s, 'Espresso!');
      expect(hits.map((h) => h.memory.key)).toEqual(['drinks', 'travel']);
      expect(hits[0].score).toBeGreaterThan(hits[1].score);
      expect((await memories.search(s, 'cat miso')).map((h) => h.memory.key)).toEqual(['pets']);
      expect((await memories.search(s, 'rome espresso'))[0].memory.key).toBe('travel');
      expect((await memories.search(s, 'espresso', { category: 'trips' })).map((h) => h.memory.key)).toEqual(['travel']);
      expect((await memories.search(s, 'espresso', { minImportance: 6 })).map((h) => h.memory.key)).toEqual(['drinks']);
      expect((await memories.search(s, 'espresso', { limit: 1 })).length).toBe(1);
      expect(await memories.search(s, 'submarine')).toEqual([]);
      expect(await memories.search(s, '  ?! ')).toEqual([]);
    });

    it('finds short words and stop words too (MySQL answers those with its LIKE fallback)', async () => {
      const { memories } = ctx.store();
      const s = scope();
      await memories.save(s, { key: 'job', value: 'Works on AI at a lab in Oslo' });
      await memories.save(s, { key: 'misc', value: 'Enjoys hiking' });
      expect((await memories.search(s, 'AI')).map((h) => h.memory.key)).toEqual(['job']);
      expect((await memories.search(s, 'at')).map((h) => h.memory.key)).toEqual(['job']);
    });

    it('deletes', async () => {
      const { memories } = ctx.store();
      const s = scope();
      await memories.save(s, { key: 'gone', value: 'temporary zebra', tags: ['x'] });
      expect(await memories.delete(s, 'gone')).toBe(true);
      expect(await memories.delete(s, 'gone')).toBe(false);
      expect(await memories.get(s, 'gone')).toBeUndefined();
      expect(await memories.search(s, 'zebra')).toEqual([]);
      expect(await memories.list(s, { tags: ['x'] })).toEqual([]);
    });

    it('exports and imports JSON (key → record) with timestamps, atomically', async () => {
      const { memories } = ctx.store();
      const from = scope();
      await memories.save(from, { key: 'a', value: 'alpha', category: 'c', tags: ['t1', 't2'], importance: 4 });
      ctx.clock.tick(50);
      await memories.save(from, { key: 'b', value: 'beta' });
      ctx.clock.tick(50);
      await memories.save(from, { key: 'a', value: 'alpha 2', category: 'c', tags: ['t1', 't2'], importance: 4 });
      const exported = await memories.exportJson(from);
      expect(Object.keys(exported).sort()).toEqual(['a', 'b']);
      expect(exported.a).toMatchObject({ value: 'alpha 2', category: 'c', tags: ['t1', 't2'], importance: 4 });
      expect(exported.a.createdAt < exported.a.updatedAt).toBe(true);
      expect(exported.b.category).toBeUndefined();
      const roundTrip = JSON.parse(JSON.stringify(exported));
      const to = scope();
      ctx.clock.tick(5000);
      expect(await memories.importJson(to, roundTrip)).toBe(2);
      expect(await memories.exportJson(to)).toEqual(exported);
      expect((await memories.search(to, 'alpha'))[0].memory.key).toBe('a');
      expect((await memories.list(to, { tags: ['t2'] })).map((m) => m.key)).toEqual(['a']);

      await expectCode(memories.importJson(to, { c: { value: 'ok' }, d: { value: 'bad', importance: 42 } }), 'validation_failed', '"d"');
      expect(await memories.get(to, 'c')).toBeUndefined();
      expect(await memories.importJson(to, { c: { value: 'only' } }, { replace: true })).toBe(1);
      expect(Object.keys(await memories.exportJson(to))).toEqual(['c']);
    });
  });

  describe('conversation search', () => {
    it('finds messages across sessions by keyword, ranked, with session, seq and snippet', async () => {
      const { sessions, conversations } = ctx.store();
      const userId = unique('user');
      const word = `kumquat${Math.random().toString(36).slice(2, 8)}`;
      const a = await sessions.create({ agent: 'chef', userId });
      const b = await sessions.create({ agent: 'chef', userId });
      const c = await sessions.create({ agent: 'chef', userId: unique('someone') });
      const msg = (role: 'user' | 'assistant', text: string) => ({ role, content: [{ type: 'text' as const, text }] });
      await sessions.append(a.id, { message: msg('user', `Do you know ${word} jam?`) });
      await sessions.append(a.id, { agent: 'chef', message: msg('assistant', `${word} jam: boil ${word} with sugar, then ${word} zest.`) });
      await sessions.append(b.id, { message: msg('user', 'Unrelated question about bread') });
      await sessions.append(b.id, { type: 'note', data: { text: word } });
      await sessions.append(c.id, {
        message: msg('user', `${'Lorem ipsum dolor. '.repeat(40)}${word} for someone else.${' Sit amet.'.repeat(40)}`),
      });
      const hits = await conversations.search(`${word} sugar`, { userId });
      expect(hits.map((h) => [h.sessionId, h.seq])).toEqual([
        [a.id, 2],
        [a.id, 1],
      ]);
      expect(hits[0]).toMatchObject({ agent: 'chef', role: 'assistant' });
      expect(hits[0].score).toBeGreaterThan(hits[1].score);
      expect(hits[0].snippet).toBe(`${word} jam: boil ${word} with sugar, then ${word} zest.`);
      expect(hits[1].createdAt).toBeInstanceOf(Date);
      const all = await conversations.search(word);
      expect(all.map((h) => h.sessionId).sort()).toEqual([a.id, a.id, c.id].sort());
      const long = all.find((h) => h.sessionId === c.id)!;
      expect(long.snippet).toContain(`${word} for someone else`);
      expect(long.snippet.length).toBeLessThanOrEqual(202);
      expect(long.snippet.startsWith('…')).toBe(true);
      expect((await conversations.search(word, { agent: 'chef' })).map((h) => h.seq)).toEqual([2]);
      expect((await conversations.search(word, { sessionId: c.id })).map((h) => h.sessionId)).toEqual([c.id]);
      expect((await conversations.search(word, { limit: 1 })).length).toBe(1);
      expect(await conversations.search('bread', { userId: unique('nobody') })).toEqual([]);
      // Keyword is the only mode without an embedder; asking for another says how to get it.
      expect(conversations.modes).toEqual(['keyword']);
      expect((await conversations.search(word, { userId, mode: 'keyword' })).length).toBe(2);
      await expect(conversations.search(word, { mode: 'hybrid' })).rejects.toThrow(
        'Conversation search mode "hybrid" needs an embedder: set storage.embedder in corvid.yaml',
      );
    });
  });
}
