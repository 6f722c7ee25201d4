import { describe, expect, it } from 'vitest';

import { Agent, Conversation, Router, ValidationError } from '../../src/index.js';
import { ScriptedModel, type ScriptedTurn } from '../../src/testing/index.js';
import { recorder, scripted, systemOf } from './helpers.js';

const transfer = (to: string): ScriptedTurn => ({ toolCalls: [{ toolName: `transfer_to_${to}`, input: {} }] });

/** triage ⇄ billing, billing → refunds: the usual help-desk shape. */
function desk(scripts: { triage?: ScriptedTurn[]; billing?: ScriptedTurn[]; refunds?: ScriptedTurn[] } = {}) {
  const refunds = scripted('refunds', scripts.refunds ?? [{ text: 'Refund of $20 issued.' }], {
    description: 'Issues refunds',
    instructions: 'You issue refunds.',
  });
  const billing = scripted('billing', scripts.billing ?? [], { description: 'Invoices and payments', instructions: 'You handle billing.' });
  const triage = scripted('triage', scripts.triage ?? [], { instructions: 'You route customers.', handoffs: [billing.agent] });
  // billing can transfer back to triage and onward to refunds (added after both exist).
  billing.agent.addHandoffs(triage.agent, refunds.agent);
  return { triage, billing, refunds };
}

describe('handoffs', () => {
  it('gives an agent transfer_to_<name> tools described by the target', async () => {
    const { triage } = desk({ triage: [{ text: 'hi' }] });
    await triage.agent.run('hello');
    expect(triage.model.calls[0].tools?.map((t) => t.name)).toEqual(['transfer_to_billing']);
    const spec = triage.model.calls[0].tools![0] as { description?: string };
    expect(spec.description).toMatch(/"billing" agent.*Invoices and payments/);
  });

  it('passes control on the same conversation, back and onward, and remembers the active agent across turns', async () => {
    const { triage, billing, refunds } = desk({
      triage: [transfer('billing'), { text: 'Anything else I can route?' }, transfer('billing')],
      billing: [{ text: 'Your invoice is attached.' }, transfer('triage'), transfer('refunds')],
    });
    const chat = new Conversation(triage.agent);
    const rec = recorder();

    // Turn 1: triage hands over to billing, which answers.
    const r1 = await chat.run('Where is my invoice?', { onEvent: rec.onEvent });
    expect(r1.text).toBe('Your invoice is attached.');
    expect(r1.activeAgent).toBe('billing');
    expect(chat.activeAgent).toBe('billing');
    expect(rec.lines()).toEqual([
      'triage: run_start',
      'triage: step_start',
      'triage: tool_call',
      'triage: tool_result',
      'triage: step_end',
      'triage: handoff',
      'triage > billing: run_start',
      'triage > billing: step_start',
      'triage > billing: step_end',
      'triage > billing: run_end',
      'triage: answer',
      'triage: run_end',
    ]);
    expect(rec.of('handoff')[0]).toMatchObject({ from: 'triage', to: 'billing', agent: 'triage' });
    expect(rec.of('run_start')[1].input).toBe('Where is my invoice?');
    // billing saw its own instructions and the whole conversation, transfer included.
    const seen = billing.model.calls[0];
    expect(systemOf(seen)).toBe('You handle billing.');
    expect(seen.prompt.slice(1).map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(seen.tools?.map((t) => t.name)).toEqual(['transfer_to_triage', 'transfer_to_refunds']);
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(r1.usageByAgent).toEqual({
      triage: expect.objectContaining({ totalTokens: 15 }),
      billing: expect.objectContaining({ totalTokens: 15 }),
    });
    expect(r1.usage.totalTokens).toBe(30);

    // Turn 2: billing answers directly (triage is not called), then transfers back.
    const rec2 = recorder();
    const r2 = await chat.run('Thanks, something else: my password?', { onEvent: rec2.onEvent });
    expect(triage.model.calls).toHaveLength(2);
    expect(billing.model.calls).toHaveLength(2);
    expect(r2.text).toBe('Anything else I can route?');
    expect(r2.agent).toBe('billing');
    expect(chat.activeAgent).toBe('triage');
    expect(rec2.of('run_start').map((e) => e.path.join(' > '))).toEqual(['billing', 'billing > triage']);

    // Turn 3: triage again, chaining onward in one turn: triage → billing → refunds.
    const rec3 = recorder();
    const r3 = await chat.run('I want my money back', { onEvent: rec3.onEvent });
    expect(r3.text).toBe('Refund of $20 issued.');
    expect(chat.activeAgent).toBe('refunds');
    expect(rec3.of('handoff').map((e) => `${e.from}→${e.to}`)).toEqual(['triage→billing', 'billing→refunds']);
    expect(rec3.of('run_start').at(-1)!.path).toEqual(['triage', 'billing', 'refunds']);
    expect(Object.keys(r3.usageByAgent).sort()).toEqual(['billing', 'refunds', 'triage']);
    expect(refunds.model.calls).toHaveLength(1);
    expect(chat.usageByAgent.refunds.totalTokens).toBe(15);
    expect(chat.usage.totalTokens).toBe(30 + 30 + 45);
  });

  it('restores the active agent from a plain name (e.g. saved with a session) and resets to the first agent', async () => {
    const { triage, billing } = desk({ billing: [{ text: 'Billing here.' }] });
    const chat = new Conversation(triage.agent, [], { activeAgent: 'billing' });
    expect(chat.current).toBe(billing.agent);
    expect((await chat.run('hi')).text).toBe('Billing here.');
    expect(triage.model.calls).toHaveLength(0);
    chat.reset();
    expect(chat.activeAgent).toBe('triage');
    // An unknown name (an agent renamed since) falls back to the conversation's agent.
    chat.activeAgent = 'gone';
    expect(chat.current).toBe(triage.agent);
  });

  it('streams the handoff target text, with one answer at the top', async () => {
    const { triage } = desk({ triage: [transfer('billing')], billing: [{ text: 'Streaming from billing.' }] });
    const s = triage.agent.stream('invoice?');
    const deltas: string[] = [];
    const answers: string[] = [];
    for await (const e of s) {
      if (e.type === 'text_delta') deltas.push(`${e.path.join('>')}:${e.delta}`);
      if (e.type === 'answer') answers.push(e.text);
    }
    expect(deltas.join('')).toContain('triage>billing:Streaming ');
    expect(answers).toEqual(['Streaming from billing.']);
    expect((await s.result).activeAgent).toBe('billing');
  });

  it('rejects a transfer to an agent that is not a handoff target as an unknown tool', async () => {
    const { triage } = desk({ triage: [transfer('refunds'), { text: 'I cannot do that.' }] });
    const r = await triage.agent.run('refund!');
    expect(r.steps[0].toolResults[0]).toMatchObject({
      isError: true,
      output: expect.stringMatching(/Unknown tool "transfer_to_refunds". Available tools: transfer_to_billing/),
    });
    expect(r.activeAgent).toBeUndefined();
    expect(r.text).toBe('I cannot do that.');
  });

  it('acts on the first transfer of a step only', async () => {
    const { triage, billing } = desk({
      triage: [
        {
          toolCalls: [
            { toolName: 'transfer_to_billing', input: {} },
            { toolName: 'transfer_to_other', input: {} },
          ],
        },
      ],
      billing: [{ text: 'billing won' }],
    });
    const other = scripted('other', [{ text: 'never' }]);
    triage.agent.addHandoffs(other.agent);
    const r = await triage.agent.run('x');
    expect(r.text).toBe('billing won');
    expect(other.model.calls).toHaveLength(0);
    expect(billing.model.calls[0].prompt.at(-1)).toMatchObject({
      role: 'tool',
      content: [
        { output: { value: 'Transferred to billing.' } },
        { output: { value: 'Not transferred: control already passed to billing in this step.' } },
      ],
    });
  });

  it('leaves the conversation unchanged when the target fails', async () => {
    const { triage } = desk({ triage: [transfer('billing')], billing: [{ error: new Error('billing is down') }] });
    const chat = triage.agent.conversation();
    await expect(chat.run('x')).rejects.toThrow(/billing is down/);
    expect(chat.messages).toEqual([]);
    expect(chat.activeAgent).toBe('triage');
  });

  it('reports a handoff that clashes with a tool name', async () => {
    const billing = new Agent({ name: 'billing', model: new ScriptedModel([]) });
    const clash = { ...billing.asTool(), name: 'transfer_to_billing' };
    const a = new Agent({ name: 'a', model: new ScriptedModel([{ text: 'x' }]), tools: [clash], handoffs: [billing] });
    await expect(a.run('x')).rejects.toThrow(ValidationError);
  });
});

describe('handoffs to workflow agents', () => {
  it('lets a workflow agent take over; it sees the request from the conversation', async () => {
    const billing = scripted('billing', [{ text: 'Invoice resent.' }]);
    const router = new Router({ name: 'desk', routes: [{ agent: billing.agent, keywords: ['invoice'] }] });
    const triage = scripted('triage', [{ toolCalls: [{ toolName: 'transfer_to_desk', input: {} }] }], { handoffs: [router] });
    const chat = new Conversation(triage.agent);
    const rec = recorder();
    const r = await chat.run('Please resend my invoice', { onEvent: rec.onEvent });
    expect(r.text).toBe('Invoice resent.');
    expect(rec.of('route')[0]).toMatchObject({ route: 'billing', matchedBy: 'keyword', path: ['triage', 'desk'] });
    expect(chat.activeAgent).toBe('desk');
    expect(chat.current).toBe(router);
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });
});
