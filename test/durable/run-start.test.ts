import { afterEach, describe, expect, it } from 'vitest';

import { Agent } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { storeAt, TARGETS } from './support.js';

for (const target of TARGETS) {
  describe.skipIf(Boolean(target.skip))(`the start of a session run on ${target.name}`, () => {
    let cleanup: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });

    it("stores the run and the user's message together, before the instructions and the model are even asked", async () => {
      const at = await storeAt(target);
      cleanup = at.close;
      const store = await at.open();
      let reached!: () => void;
      const instructionsAsked = new Promise<void>((r) => (reached = r));
      let release!: (text: string) => void;
      const agent = new Agent({
        name: 'slow',
        model: new ScriptedModel([{ text: 'Hi.' }]),
        instructions: () => (reached(), new Promise<string>((r) => (release = r))),
        store,
      });
      const running = agent.run('hello', { session: 's1' });
      await instructionsAsked;
      // A process dying here leaves a run that can be listed and resumed, and the message in the session.
      const other = await at.open();
      const [run] = await other.checkpoints.listRuns({ sessionId: 's1' });
      expect(run).toMatchObject({ status: 'running', agent: 'slow', checkpoints: 1 });
      expect((await other.sessions.entries('s1')).map((e) => [e.role, e.runId])).toEqual([['user', run.runId]]);
      release('Be brief.');
      const r = await running;
      expect(r).toMatchObject({ runId: run.runId, text: 'Hi.', status: 'completed' });
      expect((await store.sessions.messages('s1')).map((m) => m.role)).toEqual(['user', 'assistant']);
    });

    it('writes neither the run nor the message when the session moved on before the start (storage_conflict)', async () => {
      const at = await storeAt(target);
      cleanup = at.close;
      const store = await at.open();
      await store.sessions.create({ id: 's2', agent: 'a' });
      // Another writer appends between the run's read of the session and its start.
      const list = store.state.list.bind(store.state);
      let once = false;
      store.state.list = async (scope) => {
        if (!once) {
          once = true;
          await store.sessions.append('s2', { message: { role: 'user', content: [{ type: 'text', text: 'from elsewhere' }] } });
        }
        return list(scope);
      };
      const agent = new Agent({ name: 'a', model: new ScriptedModel([{ text: 'never' }]), store });
      await expect(agent.run('mine', { session: 's2' })).rejects.toMatchObject({ code: 'storage_conflict' });
      expect(await store.checkpoints.listRuns({ sessionId: 's2' })).toEqual([]);
      expect((await store.sessions.entries('s2')).map((e) => e.runId)).toEqual([undefined]);
    });
  });
}
