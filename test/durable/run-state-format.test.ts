import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { Agent, tool } from '../../src/index.js';
import { type CheckpointInput, openStore, type SessionEntryInput } from '../../src/storage/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { promptText } from './support.js';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

function checkTool(ran: string[]) {
  return tool<{ file: string }>({
    name: 'check',
    description: 'Check a file',
    parameters: { type: 'object', properties: { file: { type: 'string' } }, required: ['file'] },
    execute: ({ file }) => (ran.push(file), `${file}: ok`),
  });
}

describe('run state format v1 (golden fixtures)', () => {
  it('a v1 checkpoint taken mid-step resumes: the finished call is reused, the other runs, state is restored', async () => {
    const f = fixture('run-state-v1-in-flight.json');
    const store = await openStore({ driver: 'memory' });
    await store.checkpoints.save(f.checkpoint as CheckpointInput);
    const ran: string[] = [];
    const model = new ScriptedModel([{ text: 'Both files are fine.' }]);
    const agent = new Agent({ name: 'fixer', instructions: 'Topic: {state.topic}', model, tools: [checkTool(ran)], store });
    const r = await agent.resume('run_fixture_v1');
    expect(r).toMatchObject({ runId: 'run_fixture_v1', text: 'Both files are fine.', status: 'completed' });
    expect(ran).toEqual(['b.txt']);
    expect(r.usage.inputTokens).toBeGreaterThanOrEqual(12);
    expect(promptText(model.calls[0].prompt)).toEqual([
      'system: Topic: files',
      'user: check both files',
      'assistant: Checking. call check({"file":"a.txt"}) call check({"file":"b.txt"})',
      'tool: result check {"type":"text","value":"a.txt: ok"} result check {"type":"text","value":"b.txt: ok"}',
    ]);
    await store.close();
  });

  it('a v1 session checkpoint with pending messages appends them once, then continues', async () => {
    const f = fixture('run-state-v1-session.json');
    const store = await openStore({ driver: 'memory' });
    await store.sessions.create(f.session);
    await store.sessions.appendMany(f.session.id, f.entries as SessionEntryInput[]);
    await store.checkpoints.save(f.checkpoint as CheckpointInput);
    const model = new ScriptedModel([{ text: 'a.txt is fine.' }]);
    const agent = new Agent({ name: 'fixer', model, tools: [checkTool([])], store });
    const r = await agent.resume('run_fixture_v1s');
    expect(r.text).toBe('a.txt is fine.');
    expect(promptText(await store.sessions.messages('fixture-session'))).toEqual([
      'user: earlier question',
      'assistant: earlier answer',
      'user: check a.txt',
      'assistant: call check({"file":"a.txt"})',
      'tool: result check {"type":"text","value":"a.txt: ok"}',
      'assistant: a.txt is fine.',
    ]);
    expect(r.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    await store.close();
  });

  it('a checkpoint from a newer format is refused with a clear message', async () => {
    const store = await openStore({ driver: 'memory' });
    await store.checkpoints.save({ runId: 'run_future', agent: 'fixer', status: 'running', state: { v: 2, whatever: true } });
    const agent = new Agent({ name: 'fixer', model: new ScriptedModel([]), store });
    await expect(agent.resume('run_future')).rejects.toThrow(/format version 2, written by a newer Corvid/);
    await store.close();
  });
});
