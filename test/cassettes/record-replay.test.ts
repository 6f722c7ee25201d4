import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { Agent, CassetteError, openCassette, tool, withCassette } from '../../src/index.js';
import type { ModelConfig } from '../../src/types/model.js';
import { closedPort, type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { deltas, modelConfig, mustDrive, ofType } from '../support/provider-harness.js';

let dir: string;
let server: FakeLlmServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'corvid-cassette-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** The `add` tool, counting its runs. */
function countingAdd() {
  const runs: Array<{ a: number; b: number }> = [];
  const add = tool({
    name: 'add',
    description: 'Add two numbers',
    input: z.object({ a: z.number(), b: z.number() }),
    execute: (args) => (runs.push(args), args.a + args.b),
  });
  return { add, runs };
}

/** A model config whose endpoint nothing listens on: a call that reaches the network fails the run. */
async function unreachable(path: 'openai-chat' | 'anthropic' = 'openai-chat'): Promise<ModelConfig> {
  return modelConfig(path, `http://127.0.0.1:${await closedPort()}`, { retry: { maxRetries: 0 } });
}

const TOOL_THEN_ANSWER = [{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }];

describe('record, then replay without the network', () => {
  for (const stream of [false, true]) {
    for (const path of ['openai-chat', 'anthropic'] as const) {
      it(`${path}, ${stream ? 'streamed' : 'whole'}: the replay gives the same answer, tool result and usage`, async () => {
        server = await startFakeLlmServer(TOOL_THEN_ANSWER);
        const file = join(dir, 'calc.cassette.json');
        const recording = countingAdd();
        const recorder = new Agent({
          name: 'calc',
          instructions: 'You add numbers.',
          model: withCassette(modelConfig(path, server.url), { path: file, mode: 'record' }),
          tools: [recording.add],
        });
        const recorded = await mustDrive(recorder, 'What is 2 + 3?', stream);
        expect(recorded.result.text).toBe('The sum is 5.');
        expect(recording.runs).toEqual([{ a: 2, b: 3 }]);
        expect(server.requests).toHaveLength(2);

        const saved = JSON.parse(readFileSync(file, 'utf8'));
        expect(saved.corvidCassette).toBe(1);
        expect(saved.entries.map((e: any) => [e.lane, e.seq, e.response.kind])).toEqual([
          ['calc', 1, stream ? 'stream' : 'generate'],
          ['calc', 2, stream ? 'stream' : 'generate'],
        ]);
        if (stream) expect(saved.entries[1].response.chunks.filter((c: any) => c.type === 'text-delta').length).toBeGreaterThan(0);

        const replaying = countingAdd();
        const replayer = new Agent({
          name: 'calc',
          instructions: 'You add numbers.',
          model: withCassette(await unreachable(path), { path: file, mode: 'replay' }),
          tools: [replaying.add],
        });
        const replayed = await mustDrive(replayer, 'What is 2 + 3?', stream);
        expect(replayed.result.text).toBe('The sum is 5.');
        expect(replayed.result.usage).toEqual(recorded.result.usage);
        // Tools are replayed by default: the recorded result, the tool not run.
        expect(replaying.runs).toEqual([]);
        expect(ofType(replayed.events, 'tool_result').map((e) => e.output)).toEqual([5]);
        if (stream) expect(deltas(replayed.events, 'text_delta')).toBe(deltas(recorded.events, 'text_delta'));
      });
    }
  }

  it('a streamed recording answers a whole call, and a whole recording a streamed one', async () => {
    server = await startFakeLlmServer([{ text: 'Paris is the capital of France.' }, { text: 'Rome.' }]);
    const file = join(dir, 'mixed.cassette.json');
    const cassette = openCassette({ path: file, mode: 'record' });
    const model = modelConfig('openai-responses', server.url, { cassette });
    await mustDrive(new Agent({ name: 'geo', model }), 'Capital of France?', true);
    await mustDrive(new Agent({ name: 'geo', model }), 'Capital of Italy?', false);

    const replay = openCassette({ path: file, mode: 'replay' });
    const offline = { ...(await unreachable()), provider: 'openai', api: undefined, model: 'gpt-4.1-mini', cassette: replay };
    const whole = await mustDrive(new Agent({ name: 'geo', model: offline }), 'Capital of France?', false);
    expect(whole.result.text).toBe('Paris is the capital of France.');
    const streamed = await mustDrive(new Agent({ name: 'geo', model: offline }), 'Capital of Italy?', true);
    expect(deltas(streamed.events, 'text_delta')).toBe('Rome.');
  });

  it('replays without an API key: the provider model is never created', async () => {
    server = await startFakeLlmServer([{ text: 'Hello.' }]);
    const file = join(dir, 'nokey.cassette.json');
    await mustDrive(
      new Agent({ name: 'a', model: withCassette(modelConfig('openai-responses', server.url), { path: file, mode: 'record' }) }),
      'Hi',
      false,
    );
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const model = withCassette('openai:gpt-4.1-mini', { path: file, mode: 'replay' });
      const { result } = await mustDrive(new Agent({ name: 'a', model }), 'Hi', false);
      expect(result.text).toBe('Hello.');
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});

describe('auto mode', () => {
  it('replays what is recorded and records what is not, keeping the earlier recordings', async () => {
    server = await startFakeLlmServer([{ text: 'four' }, { text: 'six' }]);
    const file = join(dir, 'auto.cassette.json');
    const agent = () =>
      new Agent({ name: 'math', model: withCassette(modelConfig('openai-chat', server!.url), { path: file, mode: 'auto' }) });

    expect((await mustDrive(agent(), '2 + 2?', false)).result.text).toBe('four');
    expect(server.requests).toHaveLength(1);
    // The same question again: replayed, the server is not asked.
    expect((await mustDrive(agent(), '2 + 2?', true)).result.text).toBe('four');
    expect(server.requests).toHaveLength(1);
    // A new question: recorded next to the first.
    expect((await mustDrive(agent(), '3 + 3?', false)).result.text).toBe('six');
    expect(server.requests).toHaveLength(2);
    const entries = JSON.parse(readFileSync(file, 'utf8')).entries;
    expect(entries.map((e: any) => e.request.prompt.at(-1).content[0].text)).toEqual(['2 + 2?', '3 + 3?']);
  });

  it('CORVID_CASSETTE_MODE sets the mode when the code gives none', () => {
    const file = join(dir, 'env.cassette.json');
    expect(openCassette({ path: file, env: { CORVID_CASSETTE_MODE: 'record' } }).mode).toBe('record');
    expect(openCassette({ path: file, env: {} }).mode).toBe('auto');
    expect(openCassette({ path: file, mode: 'live', env: { CORVID_CASSETTE_MODE: 'record' } }).mode).toBe('live');
    expect(() => openCassette({ path: file, env: { CORVID_CASSETTE_MODE: 'replya' } })).toThrow(
      /CORVID_CASSETTE_MODE must be one of live, record, replay, auto, got "replya"/,
    );
  });
});

describe('a replay miss', () => {
  it('fails with a CassetteError naming the field that differs, and never reaches the network', async () => {
    server = await startFakeLlmServer([{ text: 'four' }]);
    const file = join(dir, 'miss.cassette.json');
    const record = new Agent({
      name: 'math',
      instructions: 'Answer briefly.',
      model: withCassette(modelConfig('openai-chat', server.url), { path: file, mode: 'record' }),
    });
    await mustDrive(record, 'What is 2 + 2?', false);

    // A live server that would answer: the miss must not get there.
    const guard = await startFakeLlmServer(() => {
      throw new Error('the network was reached');
    });
    try {
      const replay = new Agent({
        name: 'math',
        instructions: 'Answer briefly.',
        model: withCassette(modelConfig('openai-chat', guard.url), { path: file, mode: 'replay' }),
      });
      const err = await replay.run('What is 2 + 3?').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CassetteError);
      expect(err).toMatchObject({ code: 'cassette_miss', kind: 'miss', path: file });
      const message = (err as Error).message;
      expect(message).toContain(`Cassette ${file} has no recording of this model call on lane "math" (mode "replay")`);
      expect(message).toContain('Nearest recording: call 1 of lane "math", which differs in 1 field(s):');
      expect(message).toContain('prompt[1].content[0].text: recorded "What is 2 + 2?" → now "What is 2 + 3?"');
      expect(guard.requests).toHaveLength(0);
    } finally {
      await guard.close();
    }
  });

  it('a missing cassette in replay mode is an error at once', () => {
    expect(() => openCassette({ path: join(dir, 'none.cassette.json'), mode: 'replay' })).toThrow(/does not exist: record it first/);
  });

  it('a damaged or newer cassette file is a clear error', async () => {
    const { writeFileSync } = await import('node:fs');
    const file = join(dir, 'bad.cassette.json');
    writeFileSync(file, '{"corvidCassette": 2, "entries": []}');
    expect(() => openCassette({ path: file, mode: 'replay' })).toThrow(/format version 2, written by a newer Corvid/);
    writeFileSync(file, '{ not json');
    expect(() => openCassette({ path: file, mode: 'auto' })).toThrow(CassetteError);
  });
});
