import { describe, expect, it } from 'vitest';
import { Role, TaskState, type Message, type SendMessageRequest, type Task } from '@a2a-js/sdk';
import { defaultServerCallContextBuilder, UnauthenticatedUser } from '@a2a-js/sdk/server';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { legacyResult, legacySendRequest } from '../../src/a2a/compat/legacy-send.js';

// Corvid answers v0.3 `message/send` without the SDK's generic dispatch (legacy-send.ts). The
// SDK's own `LegacyJsonRpcTransportHandler`, over a handler that records what it is given and
// answers a fixed result, is the oracle: the request the agent sees and the JSON the client gets
// must be the same either way.
async function throughSdk(params: Record<string, unknown>, result: Message | Task): Promise<{ request: SendMessageRequest; answer: unknown }> {
  let request: SendMessageRequest | undefined;
  const handler = {
    sendMessage: async (p: SendMessageRequest) => {
      request = p;
      return result;
    },
  };
  const transport = new LegacyJsonRpcTransportHandler(handler as never);
  const context = defaultServerCallContextBuilder({ extensions: undefined, user: new UnauthenticatedUser(), headers: {}, requestedVersion: '0.3' });
  const reply = (await transport.handle({ jsonrpc: '2.0', id: 7, method: 'message/send', params: structuredClone(params) }, context)) as { result?: unknown; error?: unknown };
  expect(reply.error).toBeUndefined();
  return { request: request!, answer: reply.result };
}

const text = (value: string, metadata?: Record<string, unknown>) => ({ content: { $case: 'text' as const, value }, metadata, filename: '', mediaType: 'text/plain' });

const requests: [string, Record<string, unknown>][] = [
  ['a plain text message', { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hello' }] } }],
  [
    'every optional field',
    {
      message: { kind: 'message', messageId: 'm2', role: 'agent', contextId: 'c1', taskId: 't1', referenceTaskIds: ['t0'], extensions: ['urn:x'], metadata: { a: { b: [1, 2] } }, parts: [{ kind: 'text', text: 'one', metadata: { n: 1 } }, { kind: 'text', text: 'two' }] },
      configuration: { blocking: true, historyLength: 3, acceptedOutputModes: ['text/plain'] },
      metadata: { trace: 'x' },
    },
  ],
  ['a non-blocking send', { message: { kind: 'message', messageId: 'm3', role: 'user', parts: [{ kind: 'text', text: 'later' }] }, configuration: { blocking: false } }],
  ['a configuration without blocking', { message: { kind: 'message', messageId: 'm4', role: 'user', parts: [] }, configuration: {} }],
];

const answerMessage: Message = { messageId: 'a1', contextId: 'c1', taskId: 't1', role: Role.ROLE_AGENT, parts: [text('hi')], metadata: undefined, extensions: [], referenceTaskIds: [] };
const results: [string, Message | Task][] = [
  ['a message', answerMessage],
  ['a message with extensions and references', { ...answerMessage, contextId: '', taskId: '', metadata: { k: 'v' }, extensions: ['urn:e'], referenceTaskIds: ['t9'] }],
  [
    'a completed task as Corvid answers it',
    {
      id: 't1',
      contextId: 'c1',
      status: { state: TaskState.TASK_STATE_COMPLETED, message: answerMessage, timestamp: '2030-01-01T00:00:00.000Z' },
      history: [{ messageId: 'm1', contextId: 'c1', taskId: 't1', role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: 'hello' }, metadata: undefined, filename: '', mediaType: '' }], metadata: undefined, extensions: [], referenceTaskIds: [] }, answerMessage],
      artifacts: [{ artifactId: 't1-answer', name: 'answer', description: '', parts: [text('hi')], metadata: undefined, extensions: [] }],
      metadata: undefined,
    },
  ],
  [
    'a task with every kind of part and metadata',
    {
      id: 't2',
      contextId: 'c2',
      status: { state: TaskState.TASK_STATE_INPUT_REQUIRED, message: undefined, timestamp: '' },
      history: [],
      artifacts: [
        {
          artifactId: 'a',
          name: '',
          description: 'all parts',
          parts: [
            { content: { $case: 'data', value: { x: 1 } }, metadata: { m: true }, filename: '', mediaType: '' },
            { content: { $case: 'data', value: [1, 'two'] as never }, metadata: undefined, filename: '', mediaType: '' },
            { content: { $case: 'data', value: 'plain' as never }, metadata: { keep: 1 }, filename: '', mediaType: '' },
            { content: { $case: 'url', value: 'https://files.test/a.pdf' }, metadata: undefined, filename: 'a.pdf', mediaType: 'application/pdf' },
            { content: { $case: 'raw', value: Buffer.from('bytes!') }, metadata: undefined, filename: '', mediaType: '' },
          ],
          metadata: { art: 1 },
          extensions: ['urn:ext'],
        },
      ],
      metadata: { corvid: { type: 'tool_call' } },
    },
  ],
  ['a task without status, history or artifacts', { id: 't3', contextId: 'c3', status: undefined, history: [], artifacts: [], metadata: {} }],
  ...[TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED, TaskState.TASK_STATE_AUTH_REQUIRED, TaskState.TASK_STATE_UNSPECIFIED].map(
    (state): [string, Task] => [`a task in state ${state}`, { id: 't4', contextId: 'c4', status: { state, message: undefined, timestamp: 'ts' }, history: [], artifacts: [], metadata: undefined }],
  ),
];

describe('v0.3 message/send without the SDK dispatch', () => {
  it.each(requests)('converts %s to the request the SDK would build', async (_name, params) => {
    const { request } = await throughSdk(params, answerMessage);
    expect(legacySendRequest(structuredClone(params))).toEqual(request);
  });

  it.each(results)('answers %s with the JSON the SDK would write', async (_name, result) => {
    const { answer } = await throughSdk(requests[0][1], result);
    expect(JSON.parse(JSON.stringify(legacyResult(result)))).toEqual(JSON.parse(JSON.stringify(answer)));
  });

  it('leaves other messages to the SDK', () => {
    const send = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) => legacySendRequest({ message: { kind: 'message', messageId: 'm', role: 'user', parts: [], ...message }, ...extra });
    expect(send({ parts: [{ kind: 'file', file: { uri: 'https://files.test/a' } }] })).toBeUndefined();
    expect(send({ parts: [{ kind: 'data', data: { a: 1 } }] })).toBeUndefined();
    expect(send({ role: 'robot' })).toBeUndefined();
    expect(send({ messageId: '' })).toBeUndefined();
    expect(send({}, { configuration: { pushNotificationConfig: { url: 'http://127.0.0.1:1/hook' } } })).toBeUndefined();
    expect(send({})).toBeDefined();
  });
});
