import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { parseDecision } from '../../src/a2a/server/execution/task-messages.js';
import { Agent, tool } from '../../src/index.js';
import { openStore, type Store } from '../../src/storage/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { fakeRuntime, startServer, type TestServer } from './harness.js';

// A tool that needs approval pauses the session run: the task goes input-required with the
// question; the client's reply on the same task approves or denies, and the run continues.

let server: TestServer;
let store: Store;
const refunds: number[] = [];

beforeAll(async () => {
  store = await openStore({ driver: 'memory' });
  const refund = tool({
    name: 'refund',
    description: 'Refund an amount',
    input: z.object({ amount: z.number() }),
    requireApproval: 'Refund {amount} EUR?',
    execute: ({ amount }) => {
      refunds.push(amount);
      return `refunded ${amount}`;
    },
  });
  const model = new ScriptedModel((call) => {
    const last = call.prompt.at(-1)!;
    if (last.role === 'tool') {
      const out = JSON.stringify(last.content);
      return { text: out.includes('refunded') ? 'Done: refunded.' : 'OK, no refund then.' };
    }
    return { toolCalls: [{ toolName: 'refund', input: { amount: 42 } }] };
  });
  const agent = new Agent({ name: 'support', instructions: '-', model, tools: [refund] });
  const runtime = fakeRuntime([agent]);
  server = await startServer({ runtime: () => runtime, visibility: () => 'public', store: async () => store });
});
afterAll(async () => {
  await server.close();
  await store.close();
});

async function rpc(method: string, params: unknown): Promise<any> {
  const res = await fetch(`${server.url}/a2a/support`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as any).result;
}
const message = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...extra },
});

describe('requireApproval over A2A', () => {
  it('asks with input-required, then runs the tool after "approve"', async () => {
    const first = await rpc('message/send', message('refund my order'));
    expect(first.status.state).toBe('input-required');
    expect(first.status.message.parts[0].text).toContain('Refund 42 EUR?');
    expect(first.status.message.metadata.corvid).toMatchObject({
      type: 'approval_required',
      approvals: [{ toolName: 'refund', input: { amount: 42 } }],
    });
    expect(refunds).toEqual([]);

    // An unclear reply asks again.
    const unclear = await rpc('message/send', message('hmm, what?', { taskId: first.id, contextId: first.contextId }));
    expect(unclear.status.state).toBe('input-required');
    expect(unclear.status.message.parts[0].text).toMatch(/^Please answer "approve" or "deny"/);

    const done = await rpc('message/send', message('approve', { taskId: first.id, contextId: first.contextId }));
    expect(done.status.state).toBe('completed');
    expect(done.artifacts[0].parts[0].text).toBe('Done: refunded.');
    expect(refunds).toEqual([42]);
    // The conversation is the session of the context.
    const messages = await store.sessions.messages(first.contextId);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('tells the model when the call is denied', async () => {
    const first = await rpc('message/send', message('refund please'));
    const denied = await rpc('message/send', message('deny: not eligible', { taskId: first.id, contextId: first.contextId }));
    expect(denied.status.state).toBe('completed');
    expect(denied.artifacts[0].parts[0].text).toBe('OK, no refund then.');
    expect(refunds).toEqual([42]);
  });

  it('reads approve and deny replies', () => {
    expect(parseDecision('Yes please')).toEqual({ approved: true });
    expect(parseDecision('approved')).toEqual({ approved: true });
    expect(parseDecision('no, too expensive')).toEqual({ approved: false, reason: 'too expensive' });
    expect(parseDecision('maybe later')).toBeUndefined();
  });
});

describe('requireApproval without a store', () => {
  it('fails the task, saying why', async () => {
    const guarded = tool({ name: 'wipe', description: 'Wipe', input: z.object({}), requireApproval: true, execute: () => 'wiped' });
    const agent = new Agent({
      name: 'ops',
      instructions: '-',
      model: new ScriptedModel([{ toolCalls: [{ toolName: 'wipe', input: {} }] }, { text: 'done' }]),
      tools: [guarded],
    });
    const runtime = fakeRuntime([agent]);
    const s = await startServer({ runtime: () => runtime, visibility: () => 'public' });
    try {
      const res = await fetch(`${s.url}/a2a/ops`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: message('wipe it') }),
      });
      const task = ((await res.json()) as any).result;
      expect(task.status.state).toBe('failed');
      expect(task.status.message.parts[0].text).toMatch(/approv/i);
    } finally {
      await s.close();
    }
  });
});
