import { describe, expect, it } from 'vitest';

import { Agent } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { echoAgent, fakeRuntime, startServer } from './harness.js';

describe('a runtime swapped by a config reload', () => {
  it('changes cards and agents at once while tasks in flight finish on the old agent', async () => {
    const slow = new Agent({
      name: 'echo',
      description: 'old',
      instructions: '-',
      model: new ScriptedModel(() => ({ text: 'old answer', delayMs: 400 })),
    });
    let runtime = fakeRuntime([slow]);
    const server = await startServer({ runtime: () => runtime, visibility: () => 'public' });
    try {
      const rpc = async (agent: string, method: string, params: unknown) =>
        (await (
          await fetch(`${server.url}/a2a/${agent}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
          })
        ).json()) as any;
      const msg = (text: string) => ({
        message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] },
      });
      const started = await rpc('echo', 'message/send', { ...msg('before reload'), configuration: { blocking: false } });
      const taskId = started.result.id;
      expect(['submitted', 'working']).toContain(started.result.status.state);

      runtime = fakeRuntime([echoAgent('echo', 'new'), echoAgent('added', 'A new agent')]);
      const card = await (await fetch(`${server.url}/agents/echo/.well-known/agent-card.json`)).json();
      expect(card.description).toBe('new');
      const list = await (await fetch(`${server.url}/agents`)).json();
      expect(list.agents.map((a: { name: string }) => a.name)).toEqual(['echo', 'added']);
      expect((await rpc('added', 'message/send', msg('hi'))).result.artifacts[0].parts[0].text).toBe('echo: hi');

      await expect
        .poll(async () => (await rpc('echo', 'tasks/get', { id: taskId })).result.status.state, { timeout: 5000 })
        .toBe('completed');
      expect((await rpc('echo', 'tasks/get', { id: taskId })).result.artifacts[0].parts[0].text).toBe('old answer');
      expect((await rpc('echo', 'message/send', msg('after'))).result.artifacts[0].parts[0].text).toBe('echo: after');
    } finally {
      await server.close();
    }
  });
});
