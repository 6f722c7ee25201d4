import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { RemoteAgent, RemoteAgentError } from '../../src/a2a/index.js';
import { Agent, type AgentEvent, SequentialAgent } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { type SdkServer, startSdkServer } from './sdk-server.js';

let sdk: SdkServer;
let legacy: SdkServer;
beforeAll(async () => {
  sdk = await startSdkServer();
  legacy = await startSdkServer({ version: '0.3' });
});
afterAll(async () => {
  await sdk.close();
  await legacy.close();
});

describe('RemoteAgent against an A2A server built with the SDK', () => {
  it('runs a task and returns the remote answer (JSON-RPC, from the base URL)', async () => {
    const remote = new RemoteAgent({ name: 'far', url: sdk.url });
    const result = await remote.run('hello');
    expect(result.text).toBe('remote says: hello (turn 1)');
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('streams remote chunks as text deltas, then the answer', async () => {
    const remote = new RemoteAgent({ name: 'far', url: `${sdk.url}/.well-known/agent-card.json`, preferredTransports: ['HTTP+JSON'] });
    const events: AgentEvent[] = [];
    const s = remote.stream('stream this please');
    for await (const e of s) events.push(e);
    const deltas = events.filter((e) => e.type === 'text_delta').map((e) => (e as { delta: string }).delta);
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join('')).toBe('remote says: stream this please (turn 1)');
    expect(events.map((e) => e.type)).toEqual(['run_start', ...deltas.map(() => 'text_delta'), 'answer', 'run_end']);
    expect((await s.result).text).toBe('remote says: stream this please (turn 1)');
  });

  it('keeps one remote context per conversation', async () => {
    const remote = new RemoteAgent({ name: 'far', url: sdk.url });
    const convo = remote.conversation();
    await convo.run('first');
    const second = await convo.run('second');
    expect(second.text).toBe('remote says: second (turn 2)');
    // A fresh run starts a new remote context.
    expect((await remote.run('third')).text).toBe('remote says: third (turn 1)');
  });

  it('accepts a plain message reply', async () => {
    expect((await new RemoteAgent({ name: 'far', url: sdk.url }).run('plain message')).text).toBe('just a message');
  });

  it('talks to a v0.3-only server through the compatibility layer', async () => {
    const remote = new RemoteAgent({ name: 'old', url: legacy.url });
    expect((await remote.run('from the future')).text).toBe('remote says: from the future (turn 1)');
    const events: AgentEvent[] = [];
    for await (const e of remote.stream('streamed old')) events.push(e);
    expect(events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(1);
    expect(legacy.requests.some((h) => h['a2a-version'] === undefined || h['a2a-version'] === '0.3')).toBe(true);
  });

  it('sends configured headers with every request', async () => {
    const guarded = await startSdkServer({ requireHeader: ['X-Api-Key', 'k-123'] });
    try {
      await expect(new RemoteAgent({ name: 'g', url: guarded.url }).run('hi')).rejects.toThrow(RemoteAgentError);
      const ok = new RemoteAgent({ name: 'g', url: guarded.url, headers: { 'X-Api-Key': 'k-123' } });
      expect((await ok.run('hi')).text).toBe('remote says: hi (turn 1)');
    } finally {
      await guarded.close();
    }
  });

  it('reports a failed remote task as a RemoteAgentError with its message', async () => {
    const remote = new RemoteAgent({ name: 'far', url: sdk.url });
    const err = await remote.run('please fail').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteAgentError);
    expect((err as RemoteAgentError).message).toContain('failed the task: the tool exploded');
    expect((err as RemoteAgentError).taskState).toBe('failed');
  });

  it('cancels the remote task when the run is aborted, and times out', async () => {
    const remote = new RemoteAgent({ name: 'far', url: sdk.url });
    const controller = new AbortController();
    const s = remote.stream('slow one', { signal: controller.signal });
    const events: AgentEvent[] = [];
    const done = (async () => {
      for await (const e of s) {
        events.push(e);
        if (e.type === 'run_start') setTimeout(() => controller.abort(), 200);
      }
    })();
    await expect(s.result).rejects.toMatchObject({ name: 'RunAbortedError' });
    await done;
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'aborted' });
    await expect.poll(() => sdk.canceled.length).toBeGreaterThan(0);

    const quick = new RemoteAgent({ name: 'far', url: sdk.url, timeoutMs: 300 });
    await expect(quick.run('slow again')).rejects.toThrow(/did not answer within 300 ms/);
  });

  it('says clearly when nothing answers', async () => {
    const remote = new RemoteAgent({ name: 'nobody', url: 'http://127.0.0.1:9/' });
    const err = await remote.run('hi').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteAgentError);
    expect((err as RemoteAgentError).code).toBe('provider_unavailable');
    expect(() => new RemoteAgent({ name: 'x', url: 'not a url' })).toThrow(/absolute http\(s\) URL/);
  });

  it('works as a tool of a local agent and as a workflow part', async () => {
    const remote = new RemoteAgent({ name: 'far', url: sdk.url, description: 'A remote echo' });
    const model = new ScriptedModel([{ toolCalls: [{ toolName: 'ask_far', input: { message: 'via tool' } }] }, { text: 'done' }]);
    const local = new Agent({ name: 'local', model, tools: [remote.asTool()] });
    const events: AgentEvent[] = [];
    const result = await local.run('go', { onEvent: (e) => events.push(e) });
    expect(result.text).toBe('done');
    const toolResult = events.find((e) => e.type === 'tool_result');
    expect(toolResult).toMatchObject({ toolName: 'ask_far', output: 'remote says: via tool (turn 1)', isError: false });
    expect(events.some((e) => e.agent === 'far' && e.path.join('/') === 'local/far' && e.type === 'run_start')).toBe(true);

    const pipeline = new SequentialAgent({ name: 'seq', subAgents: [remote] });
    expect((await pipeline.run('in a workflow')).text).toBe('remote says: in a workflow (turn 1)');
  });
});
