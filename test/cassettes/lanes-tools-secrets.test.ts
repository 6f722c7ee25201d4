import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { Agent, openCassette, ParallelAgent, tool, withCassette } from '../../src/index.js';
import { closedPort, type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { modelConfig, mustDrive, ofType } from '../support/provider-harness.js';

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

/** `mustDrive` takes an Agent; a workflow runs the same way. */
const asAgent = (workflow: ParallelAgent): Agent => workflow as unknown as Agent;

const offline = async () => modelConfig('openai-chat', `http://127.0.0.1:${await closedPort()}`, { retry: { maxRetries: 0 } });

describe('lanes: parallel sub-agents replay their own recordings', () => {
  it('identical requests of two concurrent branches get each its answer, whatever order they call in', async () => {
    // Both branches send the very same request; the server answers the first slowly, so the
    // answers come back in the opposite order of the calls.
    server = await startFakeLlmServer((_req, i) => (i === 0 ? { text: 'first call', delayMs: 150 } : { text: 'second call' }));
    const file = join(dir, 'team.cassette.json');
    const record = openCassette({ path: file, mode: 'record' });
    const branch = (name: string, model: object) => new Agent({ name, instructions: 'Give one view.', model: model as never });
    const recModel = modelConfig('openai-chat', server.url, { cassette: record });
    const recorded = await mustDrive(
      asAgent(new ParallelAgent({ name: 'team', subAgents: [branch('a', recModel), branch('b', recModel)] })),
      'Topic?',
      true,
    );
    const lanes = JSON.parse(readFileSync(file, 'utf8')).entries.map((e: any) => `${e.lane}#${e.seq}`);
    expect(lanes).toEqual(['team/a#1', 'team/b#1']);

    // Replayed with the branches listed the other way round: b calls first now.
    const replay = openCassette({ path: file, mode: 'replay' });
    const repModel = { ...(await offline()), cassette: replay };
    const replayed = await mustDrive(
      asAgent(new ParallelAgent({ name: 'team', subAgents: [branch('b', repModel), branch('a', repModel)] })),
      'Topic?',
      false,
    );
    const section = (text: string, name: string) => new RegExp(`## ${name}\\n([^\\n]+)`).exec(text)?.[1];
    expect(section(replayed.result.text, 'a')).toBe(section(recorded.result.text, 'a'));
    expect(section(replayed.result.text, 'b')).toBe(section(recorded.result.text, 'b'));
    expect([section(recorded.result.text, 'a'), section(recorded.result.text, 'b')].sort()).toEqual(['first call', 'second call']);
  });

  it('sub-agents with tools: each lane replays its model calls and tool results in order', async () => {
    server = await startFakeLlmServer((req) => {
      const last = req.body.messages.at(-1);
      const who = String(req.body.messages[0].content).includes('Alice') ? 'alice' : 'bob';
      if (last.role === 'tool') return { text: `${who} got ${last.content}` };
      return { toolCalls: [{ name: 'lookup', arguments: { who } }] };
    });
    const calls: string[] = [];
    const lookup = tool({
      name: 'lookup',
      description: 'Look up',
      input: z.object({ who: z.string() }),
      execute: ({ who }) => (calls.push(who), `${who}-data`),
    });
    const team = (model: object) =>
      asAgent(
        new ParallelAgent({
          name: 'team',
          subAgents: [
            new Agent({ name: 'alice', instructions: 'You are Alice.', model: model as never, tools: [lookup] }),
            new Agent({ name: 'bob', instructions: 'You are Bob.', model: model as never, tools: [lookup] }),
          ],
        }),
      );
    const file = join(dir, 'tools-team.cassette.json');
    const recorded = await mustDrive(
      team(modelConfig('openai-chat', server.url, { cassette: openCassette({ path: file, mode: 'record' }) })),
      'go',
      false,
    );
    expect(calls.sort()).toEqual(['alice', 'bob']);
    const entries = JSON.parse(readFileSync(file, 'utf8')).entries;
    expect(entries.map((e: any) => `${e.lane}#${e.seq}`)).toEqual(['team/alice#1', 'team/alice#2', 'team/bob#1', 'team/bob#2']);
    expect(Object.values(entries[0].tools)).toEqual([{ output: 'alice-data', isError: false }]);

    calls.length = 0;
    const replayed = await mustDrive(team({ ...(await offline()), cassette: openCassette({ path: file, mode: 'replay' }) }), 'go', true);
    expect(replayed.result.text).toBe(recorded.result.text);
    expect(calls).toEqual([]);
  });
});

describe('tools: replayed by default, live when listed', () => {
  async function recordAdd(file: string): Promise<void> {
    server = await startFakeLlmServer([{ toolCalls: [{ name: 'add', arguments: { a: 20, b: 22 } }] }, { text: '42' }]);
    const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b });
    await mustDrive(
      new Agent({
        name: 'calc',
        model: withCassette(modelConfig('openai-chat', server.url), { path: file, mode: 'record' }),
        tools: [add],
      }),
      'add',
      false,
    );
  }

  it('liveTools runs the listed tools on replay; their results go to the model as they come', async () => {
    const file = join(dir, 'live.cassette.json');
    await recordAdd(file);
    const runs: unknown[] = [];
    const add = tool({
      name: 'add',
      description: 'Add',
      input: z.object({ a: z.number(), b: z.number() }),
      execute: (x) => (runs.push(x), x.a + x.b),
    });
    const model = withCassette(await offline(), { path: file, mode: 'replay', liveTools: ['add'] });
    const { result, events } = await mustDrive(new Agent({ name: 'calc', model, tools: [add] }), 'add', false);
    expect(runs).toEqual([{ a: 20, b: 22 }]);
    expect(ofType(events, 'tool_result')[0].output).toBe(42);
    expect(result.text).toBe('42');
  });

  it('a live tool whose result differs from the recording makes the next call a miss (the run is not what was recorded)', async () => {
    const file = join(dir, 'drift.cassette.json');
    await recordAdd(file);
    const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a * b });
    const model = withCassette(await offline(), { path: file, mode: 'replay', liveTools: true });
    const err = await new Agent({ name: 'calc', model, tools: [add] }).run('add').catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/prompt\[2\]\.content\[0\]\.output\.value: recorded 42 → now 440/);
  });
});

describe('secrets never land in the cassette', () => {
  it('API keys, Authorization headers and secret-named env values are masked in requests, answers and tool results', async () => {
    const token = 'tok-9f8e7d6c5b4a3210';
    const apiKey = 'sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX123';
    const env = { CORVID_TEST_SERVICE_TOKEN: token, CORVID_CASSETTE_MODE: 'record' };
    server = await startFakeLlmServer([{ toolCalls: [{ name: 'whoami', arguments: {} }] }, { text: `Your token is ${token}.` }]);
    const whoami = tool({ name: 'whoami', description: 'Who', input: z.object({}), execute: () => ({ token, note: `key ${apiKey}` }) });
    const file = join(dir, 'secret.cassette.json');
    const model = modelConfig('openai-chat', server.url, {
      apiKey,
      headers: { 'x-service-token': token },
      cassette: openCassette({ path: file, env }),
    });
    const { result } = await mustDrive(
      new Agent({ name: 'sec', instructions: `Use the token ${token}.`, model, tools: [whoami] }),
      `My token is ${token}`,
      true,
    );
    expect(result.text).toBe(`Your token is ${token}.`);
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${apiKey}`);

    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(token);
    expect(text).not.toContain(apiKey);
    expect(text).not.toMatch(/Bearer/);
    expect(text).toContain('<redacted:CORVID_TEST_SERVICE_TOKEN>');
    // Streamed in small pieces, the token was split over deltas: they are joined so it is masked whole.
    const deltas = JSON.parse(text).entries[1].response.chunks.filter((c: any) => c.type === 'text-delta');
    expect(deltas.map((d: any) => d.delta).join('')).toBe('Your token is <redacted:CORVID_TEST_SERVICE_TOKEN>.');

    // The redacted cassette still replays (the request key is computed on the masked request).
    const replay = withCassette(
      { ...(await offline()), apiKey },
      { path: file, mode: 'replay', env: { CORVID_TEST_SERVICE_TOKEN: token } },
    );
    const again = await mustDrive(
      new Agent({ name: 'sec', instructions: `Use the token ${token}.`, model: replay, tools: [whoami] }),
      `My token is ${token}`,
      false,
    );
    expect(again.result.text).toBe('Your token is <redacted:CORVID_TEST_SERVICE_TOKEN>.');
  });
});
