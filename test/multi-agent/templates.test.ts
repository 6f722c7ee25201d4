import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { Conversation, KeyValueState, RunState, SequentialAgent, TemplateError, tool } from '../../src/index.js';
import { answering, recorder, scripted, systemOf } from './helpers.js';

describe('templated instructions', () => {
  it('fill in session, user and app state and earlier outputs', async () => {
    const a = answering('a', 'x', {
      instructions:
        'Topic {state.topic}; user {user.name}; app v{app.version}; order {state.order.id}; literal {{state.topic}}; json {state.tags}',
    });
    const state = new RunState({
      session: { topic: 'crows', order: { id: 7 }, tags: ['a', 'b'] },
      user: { name: 'Ann' },
      app: { version: 2 },
    });
    await a.agent.run('go', { state });
    expect(systemOf(a.model.calls[0])).toBe('Topic crows; user Ann; app v2; order 7; literal {state.topic}; json ["a","b"]');
  });

  it('leave optional keys empty', async () => {
    const a = answering('a', 'x', { instructions: 'Notes: [{state.notes?}] [{output.nobody?}]' });
    await a.agent.run('go');
    expect(systemOf(a.model.calls[0])).toBe('Notes: [] []');
  });

  it('fail with a clear error naming the agent and the missing key', async () => {
    const a = answering('writer', 'x', { instructions: 'Write about {state.topic}.' });
    const err = await a.agent.run('go').catch((e) => e);
    expect(err).toBeInstanceOf(TemplateError);
    expect(err).toMatchObject({ code: 'template_key_missing', agent: 'writer', key: 'state.topic' });
    expect(err.message).toBe(
      'Agent "writer": its instructions use {state.topic}, but session state has no "topic". Set it before the run, or write {state.topic?} to make it optional.',
    );
    expect(a.model.calls).toHaveLength(0);
    // A plain object as `state` seeds the session scope.
    await a.agent.run('go', { state: { topic: 'owls' } });
    expect(systemOf(a.model.calls[0])).toBe('Write about owls.');
  });

  it('a missing key in a nested agent stops the run instead of going back to the caller as a tool error', async () => {
    const inner = answering('inner', 'x', { instructions: 'Needs {output.missing}' });
    const outer = scripted('outer', [{ toolCalls: [{ toolName: 'ask_inner', input: { message: 'hi' } }] }, { text: 'never' }], {
      tools: [inner.agent.asTool()],
    });
    await expect(outer.agent.run('go')).rejects.toMatchObject({ name: 'TemplateError', agent: 'inner', key: 'output.missing' });
    expect(outer.model.calls).toHaveLength(1);
  });

  it('see state set by tools and kept by the conversation across turns; user and app scopes can be shared', async () => {
    const remember = tool({
      name: 'remember',
      description: 'Remember the topic',
      input: z.object({ topic: z.string() }),
      execute: ({ topic }, ctx) => (ctx.state.session.set('topic', topic), 'ok'),
    });
    const agent = scripted(
      'a',
      [{ toolCalls: [{ toolName: 'remember', input: { topic: 'ravens' } }] }, { text: 'noted' }, { text: 'about ravens' }],
      {
        tools: [remember],
        instructions: 'Current topic: {state.topic?}. User: {user.name}',
      },
    );
    const user = new KeyValueState({ name: 'Bo' });
    const chat = new Conversation(agent.agent, [], { state: new RunState({ user }) });
    await chat.run('remember ravens');
    expect(systemOf(agent.model.calls[0])).toBe('Current topic: . User: Bo');
    // The second step of the same run already sees the value.
    expect(systemOf(agent.model.calls[1])).toBe('Current topic: . User: Bo');
    await chat.run('what topic?');
    expect(systemOf(agent.model.calls[2])).toBe('Current topic: ravens. User: Bo');
    expect(chat.state.session.toJSON()).toEqual({ topic: 'ravens' });
    chat.reset();
    expect(chat.state.session.size).toBe(0);
    expect(chat.state.user.get('name')).toBe('Bo');
  });

  it('instruction functions receive the state too', async () => {
    const a = answering('a', 'x', { instructions: ({ agent, state }) => `${agent} on ${String(state.session.get('topic'))}` });
    await a.agent.run('go', { state: { topic: 'jays' } });
    expect(systemOf(a.model.calls[0])).toBe('a on jays');
  });

  it('outputs flow through a workflow, and output_key saves an answer in session state', async () => {
    const first = answering('first', 'alpha', { outputKey: 'greek' });
    const second = answering('second', 'beta', { instructions: 'after {output.first} / {state.greek}' });
    const rec = recorder();
    const state = new RunState();
    await new SequentialAgent({ name: 's', subAgents: [first.agent, second.agent], outputKey: 'final' }).run('go', {
      state,
      onEvent: rec.onEvent,
    });
    expect(systemOf(second.model.calls[0])).toBe('after alpha / alpha');
    expect(state.session.toJSON()).toEqual({ greek: 'alpha', final: 'beta' });
    expect(state.outputs.toJSON()).toEqual({ first: 'alpha', second: 'beta', s: 'beta' });
  });
});
