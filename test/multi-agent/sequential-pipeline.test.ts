import { describe, expect, it } from 'vitest';

import { Conversation, Pipeline, SequentialAgent, ValidationError } from '../../src/index.js';
import { answering, lastUserText, recorder, scripted, systemOf } from './helpers.js';

describe('SequentialAgent', () => {
  it('runs sub-agents in order on the same input; later ones see earlier outputs through state', async () => {
    const researcher = answering('researcher', 'Crows use tools.', { outputKey: 'notes' });
    const writer = answering('writer', 'An article about clever crows.', {
      instructions: 'Write from these notes: {state.notes}. Researcher said: {output.researcher}',
    });
    const seq = new SequentialAgent({ name: 'article', subAgents: [researcher.agent, writer.agent] });
    const rec = recorder();
    const r = await seq.run('crows', { onEvent: rec.onEvent });
    expect(r.text).toBe('An article about clever crows.');
    expect(lastUserText(writer.model.calls[0])).toBe('crows');
    expect(systemOf(writer.model.calls[0])).toBe('Write from these notes: Crows use tools.. Researcher said: Crows use tools.');
    expect(rec.lines((e) => e.type.startsWith('task') || e.type === 'run_start')).toEqual([
      'article: run_start',
      'article: task_start',
      'article > researcher: run_start',
      'article: task_end',
      'article: task_start',
      'article > writer: run_start',
      'article: task_end',
    ]);
    expect(Object.keys(r.usageByAgent)).toEqual(['researcher', 'writer']);
  });

  it('stops at the first failure', async () => {
    const a = scripted('a', [{ error: new Error('a failed') }]);
    const b = answering('b', 'never');
    await expect(new SequentialAgent({ name: 's', subAgents: [a.agent, b.agent] }).run('x')).rejects.toThrow(/a failed/);
    expect(b.model.calls).toHaveLength(0);
  });

  it('works as the agent of a conversation: parts see earlier turns, the conversation keeps input and answer', async () => {
    const a = scripted('a', [{ text: 'a1' }, { text: 'a2' }]);
    const b = scripted('b', [{ text: 'b1' }, { text: 'b2' }]);
    const chat = new Conversation(new SequentialAgent({ name: 's', subAgents: [a.agent, b.agent] }));
    await chat.run('first');
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    await chat.run('second');
    expect(a.model.calls[1].prompt.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(chat.state.outputs.toJSON()).toEqual({ a: 'a2', b: 'b2', s: 'b2' });
    expect(chat.usageByAgent).toEqual({ a: expect.objectContaining({ totalTokens: 30 }), b: expect.objectContaining({ totalTokens: 30 }) });
  });
});

describe('Pipeline', () => {
  it('gives each stage the previous result, through optional transforms', async () => {
    const extract = answering('extract', 'KEY FACTS');
    const summarise = answering('summarise', 'Summary.');
    const translate = answering('translate', 'Résumé.');
    const pipeline = new Pipeline({
      name: 'p',
      stages: [
        extract.agent,
        { agent: summarise.agent, transform: (previous, ctx) => `Summarise (${ctx.stage}, for "${ctx.input}"): ${previous}` },
        { name: 'french', agent: translate.agent, transform: 'Translate to French: {previous} (was {output.extract})' },
      ],
    });
    const rec = recorder();
    const r = await pipeline.run('the report', { onEvent: rec.onEvent });
    expect(r.text).toBe('Résumé.');
    expect(lastUserText(extract.model.calls[0])).toBe('the report');
    expect(lastUserText(summarise.model.calls[0])).toBe('Summarise (summarise, for "the report"): KEY FACTS');
    expect(lastUserText(translate.model.calls[0])).toBe('Translate to French: Summary. (was KEY FACTS)');
    expect(rec.of('task_start').map((e) => `${e.task}→${e.target}`)).toEqual([
      'extract→extract',
      'summarise→summarise',
      'french→translate',
    ]);
    expect(r.subRuns!.map((s) => s.id)).toEqual(['extract', 'summarise', 'french']);
  });

  it('fails when a stage fails, and validates its stages', async () => {
    const bad = scripted('bad', [{ error: new Error('stage broke') }]);
    const after = answering('after', 'x');
    await expect(new Pipeline({ name: 'p', stages: [bad.agent, after.agent] }).run('x')).rejects.toThrow(/stage broke/);
    expect(after.model.calls).toHaveLength(0);
    expect(() => new Pipeline({ name: 'p', stages: [] })).toThrow(ValidationError);
    expect(() => new Pipeline({ name: 'p', stages: [after.agent, after.agent] })).toThrow(/two stages are named "after"/);
  });
});
