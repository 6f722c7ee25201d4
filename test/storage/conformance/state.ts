import { describe, expect, it } from 'vitest';

import type { SuiteContext } from '../store-conformance.js';
import { unique } from '../support/targets.js';
import { expectCode } from './expect-error.js';

export function stateCases(ctx: SuiteContext): void {
  describe('state', () => {
    it('gets, sets, replaces, deletes and lists JSON values in session, user and app scopes', async () => {
      const { sessions, state } = ctx.store();
      const { id } = await sessions.create({ agent: 'a' });
      const userId = unique('user');
      const app = unique('app');
      await state.set({ session: id }, 'cart', { items: [1, 2], total: 9.5 });
      await state.set({ user: userId }, 'cart', ['user-level']);
      await state.set('app', `${app}:flag`, true);
      expect(await state.get({ session: id }, 'cart')).toEqual({ items: [1, 2], total: 9.5 });
      expect(await state.get({ user: userId }, 'cart')).toEqual(['user-level']);
      expect(await state.get('app', `${app}:flag`)).toBe(true);
      expect(await state.get({ user: unique('other') }, 'cart')).toBeUndefined();
      await state.set({ session: id }, 'cart', 'replaced');
      expect(await state.get({ session: id }, 'cart')).toBe('replaced');
      await state.set({ session: id }, 'nothing', null);
      expect(await state.get({ session: id }, 'nothing')).toBeNull();
      expect(await state.delete({ session: id }, 'cart')).toBe(true);
      expect(await state.delete({ session: id }, 'cart')).toBe(false);
      expect(await state.get({ session: id }, 'cart')).toBeUndefined();
    });

    it('keeps keys case-sensitive and lists by prefix, LIKE wildcards taken literally', async () => {
      const { state } = ctx.store();
      const scope = { user: unique('user') };
      for (const key of ['a_b', 'a%c', 'axb', 'A_b', 'a_b.c', 'b']) await state.set(scope, key, key);
      expect((await state.list(scope)).map((e) => e.key)).toEqual(['A_b', 'a%c', 'a_b', 'a_b.c', 'axb', 'b']);
      expect((await state.list(scope, { prefix: 'a_' })).map((e) => e.key)).toEqual(['a_b', 'a_b.c']);
      expect((await state.list(scope, { prefix: 'a%' })).map((e) => e.value)).toEqual(['a%c']);
      expect(await state.get(scope, 'A_b')).toBe('A_b');
      const [first] = await state.list(scope);
      expect(first.updatedAt).toBeInstanceOf(Date);
    });

    it('refuses session state on an unknown session and malformed scopes', async () => {
      const { state } = ctx.store();
      const missing = unique('missing');
      await expectCode(state.set({ session: missing }, 'k', 1), 'not_found', missing);
      await expectCode(state.get({} as never, 'k'), 'validation_failed');
      await expectCode(state.set('app', '', 1), 'validation_failed');
    });
  });

  describe('artifacts', () => {
    it('saves versions and loads the latest or a given one, byte for byte', async () => {
      const { sessions, artifacts } = ctx.store();
      const { id } = await sessions.create({ agent: 'a' });
      const bytes = new Uint8Array(256).map((_, i) => i);
      const v1 = await artifacts.save(id, { name: 'chart.png', mimeType: 'image/png', data: bytes });
      expect(v1).toMatchObject({ sessionId: id, name: 'chart.png', version: 1, mimeType: 'image/png', size: 256 });
      const v2 = await artifacts.save(id, { name: 'chart.png', mimeType: 'image/png', data: bytes.slice(0, 10) });
      expect(v2.version).toBe(2);
      const latest = await artifacts.load(id, 'chart.png');
      expect(latest).toMatchObject({ version: 2, size: 10, mimeType: 'image/png' });
      expect(Array.from(latest!.data)).toEqual(Array.from(bytes.slice(0, 10)));
      const first = await artifacts.load(id, 'chart.png', 1);
      expect(Array.from(first!.data)).toEqual(Array.from(bytes));
      expect(await artifacts.load(id, 'chart.png', 3)).toBeUndefined();
      expect(await artifacts.load(id, 'nope.png')).toBeUndefined();
      const text = await artifacts.save(id, { name: 'notes.md', data: 'héllo' });
      expect(text).toMatchObject({ mimeType: 'text/plain', size: 6, version: 1 });
      expect(new TextDecoder().decode((await artifacts.load(id, 'notes.md'))!.data)).toBe('héllo');
      expect((await artifacts.list(id)).map((a) => [a.name, a.version])).toEqual([
        ['chart.png', 2],
        ['notes.md', 1],
      ]);
      expect((await artifacts.versions(id, 'chart.png')).map((a) => a.version)).toEqual([1, 2]);
    });

    it('deletes one version or all, and refuses an unknown session', async () => {
      const { sessions, artifacts } = ctx.store();
      const { id } = await sessions.create({ agent: 'a' });
      await artifacts.save(id, { name: 'f', data: 'one' });
      await artifacts.save(id, { name: 'f', data: 'two' });
      expect(await artifacts.delete(id, 'f', 2)).toBe(true);
      expect(await artifacts.delete(id, 'f', 2)).toBe(false);
      expect((await artifacts.load(id, 'f'))!.version).toBe(1);
      expect(await artifacts.delete(id, 'f')).toBe(true);
      expect(await artifacts.load(id, 'f')).toBeUndefined();
      expect(await artifacts.delete(id, 'f')).toBe(false);
      const missing = unique('missing');
      await expectCode(artifacts.save(missing, { name: 'f', data: 'x' }), 'not_found', missing);
      await expectCode(artifacts.save(id, { name: 'f', data: 42 as never }), 'validation_failed');
    });
  });
}
