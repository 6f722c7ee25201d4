import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Agent } from '../../src/index.js';
import type { RunningServer } from '../../src/server/app/serve.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { chat, type LogSink, parseSse, startServer } from './helpers.js';

// A provider warning during a served turn: sent to the client as an event and logged at warn level.

describe('provider warnings on the server', () => {
  let llm: FakeLlmServer;
  let server: RunningServer;
  let url: string;
  let logs: LogSink;

  beforeAll(async () => {
    llm = await startFakeLlmServer(() => ({ text: 'Lima.' }));
    // OpenAI's package leaves temperature out for reasoning models, with a warning.
    const geo = new Agent({
      name: 'geo',
      model: { provider: 'openai', model: 'o4-mini', apiKey: 'test', baseURL: `${llm.url}/v1`, temperature: 0.3 },
    });
    ({ server, url, logs } = await startServer([geo]));
  });
  afterAll(async () => {
    await server.close();
    await llm.close();
  });

  it('streams the warning event and logs it at warn level', async () => {
    const res = await chat(url, 'geo', { message: 'Capital of Peru?', stream: true });
    const events = parseSse(await res.text());
    const warning = events.find((e) => e.event === 'warning');
    expect(warning?.data).toMatchObject({
      type: 'warning',
      model: 'openai:o4-mini',
      feature: 'temperature',
      message: 'temperature is not supported for reasoning models',
    });
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'completed', answer: 'Lima.' } });
    const line = await logs.waitFor((l) => typeof l.msg === 'string' && l.msg.startsWith('model warning'));
    expect(line).toMatchObject({
      level: 40,
      agent: 'geo',
      model: 'openai:o4-mini',
      feature: 'temperature',
      msg: 'model warning: openai:o4-mini (agent geo): temperature is not supported for reasoning models',
    });
    expect(line.runId).toBe((warning!.data as { runId: string }).runId);
    expect(llm.requests.at(-1)!.body).not.toHaveProperty('temperature');
  });
});
