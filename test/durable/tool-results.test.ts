import { afterEach, describe, expect, it } from 'vitest';

import { Agent, type RunStateV1, tool, type ToolContext } from '../../src/index.js';
import type { Store } from '../../src/storage/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { storeAt, TARGETS } from './support.js';

/** Results recorded in a checkpoint state's in-flight step. */
const completedIn = (state: unknown): string[] => Object.keys((state as RunStateV1).inFlight?.completed ?? {});

/**
 * Records the state of every checkpoint once its write has committed. The first checkpoint with a
 * tool result is held until `release` resolves (a slow disk), so later results queue behind it.
 */
function recordCommits(store: Store, release: () => Promise<void>): { committed: unknown[]; firstResultWrite: Promise<void> } {
  const committed: unknown[] = [];
  let started!: () => void;
  const firstResultWrite = new Promise<void>((r) => (started = r));
  let held = false;
  const save = store.checkpoints.save.bind(store.checkpoints);
  store.checkpoints.save = async (input) => {
    if (!held && completedIn(input.state).length > 0) {
      held = true;
      started();
      await release();
    }
    const saved = await save(input);
    committed.push(input.state);
    return saved;
  };
  return { committed, firstResultWrite };
}

for (const target of TARGETS) {
  describe.skipIf(Boolean(target.skip))(`tool results of durable runs on ${target.name}`, () => {
    let cleanup: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });

    it('stores each result before its tool_result event and the next model call; results finishing together share one write', async () => {
      const at = await storeAt(target);
      cleanup = at.close;
      const store = await at.open();
      let returned!: () => void;
      const laterTwoReturned = new Promise<void>((r) => (returned = r));
      // The first result's write waits until the other two tools have returned and their results are queued.
      const { committed, firstResultWrite } = recordCommits(store, async () => {
        await laterTwoReturned;
        await new Promise((r) => setImmediate(r));
      });
      const contexts: ToolContext[] = [];
      let finished = 0;
      const job = tool<{ n: number }>({
        name: 'job',
        description: 'A job',
        parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
        execute: async ({ n }, ctx) => {
          contexts.push(ctx);
          if (n > 1) await firstResultWrite;
          if (n > 1 && ++finished === 2) returned();
          return `job ${n}`;
        },
      });
      const seenByModel: string[][] = [];
      const model = new ScriptedModel((call, index) => {
        if (index === 0) return { toolCalls: [1, 2, 3].map((n) => ({ toolName: 'job', input: { n }, toolCallId: `j${n}` })) };
        seenByModel.push(committed.flatMap(completedIn));
        return { text: 'Three jobs done.' };
      });
      const unstoredAtEvent: string[] = [];
      const agent = new Agent({ name: 'worker', model, tools: [job], store });
      const r = await agent.run('Do three jobs', {
        session: 'jobs',
        onEvent: (e) => {
          if (e.type === 'tool_result' && !committed.some((s) => completedIn(s).includes(e.toolCallId))) unstoredAtEvent.push(e.toolCallId);
        },
      });
      expect(r.text).toBe('Three jobs done.');
      expect(unstoredAtEvent).toEqual([]);
      expect(seenByModel[0]).toEqual(expect.arrayContaining(['j1', 'j2', 'j3']));
      // j1 alone (its write was slow), then j2 and j3 in one write.
      expect(committed.map(completedIn).filter((c) => c.length > 0)).toEqual([['j1'], ['j1', 'j2', 'j3']]);
      // Tools get `<run id>:<call id>` to de-duplicate side effects with.
      expect(contexts.map((c) => [c.runId, c.toolCallId, c.idempotencyKey]).sort()).toEqual(
        [1, 2, 3].map((n) => [r.runId, `j${n}`, `${r.runId}:j${n}`]),
      );
    });

    it("a handoff target's tools get keys of the durable run id", async () => {
      const at = await storeAt(target);
      cleanup = at.close;
      const keys: string[] = [];
      const stamp = tool({
        name: 'stamp',
        description: 'Stamp',
        parameters: { type: 'object', properties: {} },
        execute: (_input, ctx) => (keys.push(ctx.idempotencyKey), 'stamped'),
      });
      const billing = new Agent({
        name: 'billing',
        model: new ScriptedModel([{ toolCalls: [{ toolName: 'stamp', input: {}, toolCallId: 's1' }] }, { text: 'Stamped.' }]),
        tools: [stamp],
      });
      const front = new Agent({
        name: 'front',
        model: new ScriptedModel([{ toolCalls: [{ toolName: 'transfer_to_billing', input: {}, toolCallId: 't1' }] }]),
        handoffs: [billing],
        store: await at.open(),
      });
      const r = await front.run('Stamp it', { session: 'desk' });
      expect(r.text).toBe('Stamped.');
      expect(keys).toEqual([`${r.runId}:s1`]);
    });
  });
}
