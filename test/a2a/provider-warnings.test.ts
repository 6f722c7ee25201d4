import { type Message, Role, type StreamResponse, TaskState } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { Agent } from '../../src/index.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { fakeRuntime, startServer, type TestServer } from './harness.js';

// A provider warning during an A2A task is reported in a working status update (metadata.corvid).

let llm: FakeLlmServer;
let server: TestServer;
beforeAll(async () => {
  llm = await startFakeLlmServer(() => ({ text: 'Lima.' }));
  // OpenAI's package leaves temperature out for reasoning models, with a warning.
  const geo = new Agent({
    name: 'geo',
    description: 'Capitals',
    model: { provider: 'openai', model: 'o4-mini', apiKey: 'test', baseURL: `${llm.url}/v1`, temperature: 0.3 },
  });
  const runtime = fakeRuntime([geo]);
  server = await startServer({ runtime: () => runtime, visibility: () => 'public' });
});
afterAll(async () => {
  await server.close();
  await llm.close();
});

const message = (text: string): Message => ({
  messageId: crypto.randomUUID(),
  contextId: '',
  taskId: '',
  role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

it('reports a provider warning as a working status update', async () => {
  const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory()], preferredTransports: ['JSONRPC'] });
  const client = await factory.createFromUrl(`${server.url}/agents/geo/.well-known/agent-card.json`, '');
  const events: StreamResponse[] = [];
  for await (const e of client.sendMessageStream({
    tenant: '',
    message: message('Capital of Peru?'),
    configuration: undefined,
    metadata: undefined,
  }))
    events.push(e);
  const updates = events.flatMap((e) => (e.payload?.$case === 'statusUpdate' ? [e.payload.value] : []));
  const warning = updates.find((u) => (u.metadata?.corvid as { type?: string } | undefined)?.type === 'warning');
  expect(warning?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
  expect(warning?.metadata?.corvid).toEqual({
    type: 'warning',
    agent: 'geo',
    model: 'openai:o4-mini',
    kind: 'unsupported',
    feature: 'temperature',
    message: 'temperature is not supported for reasoning models',
  });
  expect(updates.at(-1)?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
});
