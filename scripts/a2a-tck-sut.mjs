#!/usr/bin/env node
// System under test for the A2A TCK (a2aproject/a2a-tck, branches 0.3.x and 1.0-dev), run by
// scripts/a2a-tck.sh: Corvid's server (`serve`, as `corvid serve` starts it) with one ordinary
// agent, `tck`, on 127.0.0.1:$SUT_PORT (default 9999). It has the built-in `ask_user` tool and a
// scripted model (no LLM), so what the TCK sees is Corvid's real task handling: a turn that asks
// the user goes `input-required` and the next message with the task's id continues it; a slow
// model keeps the task `working`; an error fails it; files and data its tools return are artifacts.
// Run `npm run build` first.
//
// The TCK tells a SUT what to do by the message id's prefix (its scenarios/*.feature on 1.0-dev,
// docs/SUT_REQUIREMENTS.md on 0.3.x): `tck-input-required-…` waits for input,
// `tck-complete-task-…` answers "Hello from TCK", `tck-artifact-text-…` answers "Generated text
// content", `test-resubscribe-message-id…` stays working for 2 x TCK_STREAMING_TIMEOUT, and so on.
// An agent never sees protocol ids (it gets the message's parts as its input), so the SUT reads
// the id with the public `beforeTask` hook of `serve({ a2a })` and hands it to its model. The
// TCK sends one request at a time, so the id of the task that is about to run is the one the
// model's next call is for.
import { z } from 'zod';

import { Agent, askUserTool, tool, toolArtifact } from '../dist/index.js';
import { serve } from '../dist/server/index.js';
import { ScriptedModel } from '../dist/testing/index.js';

const PORT = Number(process.env.SUT_PORT ?? 9999);
const HOLD_MS = Math.ceil(2 * Number(process.env.TCK_STREAMING_TIMEOUT ?? 2) * 1000) + 1000;
const usage = { inputTokens: 1, outputTokens: 1 };

/** What the agent answers for a message id (the TCK's scenario prefixes); undefined: echo. */
const SCENARIOS = [
  [
    'tck-artifact-file-url',
    () => ({ toolCalls: [{ toolName: 'publish_file', input: { name: 'output.txt', url: 'https://example.com/output.txt' } }] }),
  ],
  ['tck-artifact-file', () => ({ toolCalls: [{ toolName: 'write_file', input: { name: 'output.txt', text: 'Generated file content' } }] })],
  [
    'tck-stream-artifact-file',
    () => ({ toolCalls: [{ toolName: 'write_file', input: { name: 'output.txt', text: 'Streamed file content' } }] }),
  ],
  ['tck-artifact-data', () => ({ toolCalls: [{ toolName: 'emit_data', input: { data: { key: 'value', count: 42 } } }] })],
  [
    'tck-input-required',
    () => ({
      text: 'One question first.',
      toolCalls: [{ toolName: 'ask_user', input: { question: 'What should the task continue with?' } }],
    }),
  ],
  ['tck-complete-task', () => ({ text: 'Hello from TCK' })],
  ['tck-artifact-text', () => ({ text: 'Generated text content' })],
  ['tck-stream-001', () => ({ text: 'Stream hello from TCK' })],
  ['tck-stream-003', () => ({ text: 'Stream task lifecycle' })],
  ['tck-stream-ordering-001', () => ({ text: 'Ordered output' })],
  ['tck-stream-artifact-text', () => ({ text: 'Streamed text content' })],
  ['tck-reject-task', () => ({ error: new Error('rejected') })],
  ['test-resubscribe-message-id', () => ({ text: 'Done after a while.', delayMs: HOLD_MS })],
];

let messageId = '';
const lastUserText = (call) => {
  const last = [...call.prompt].reverse().find((m) => m.role === 'user' || m.role === 'tool');
  if (!last || last.role !== 'user') return undefined;
  return last.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
};
const model = new ScriptedModel(
  (call) => {
    const text = lastUserText(call);
    // After a tool call (ask_user ends the turn with its question).
    if (text === undefined) return { text: 'Done.', usage };
    const scenario = SCENARIOS.find(([prefix]) => messageId.startsWith(prefix));
    return { ...(scenario ? scenario[1]() : { text: `echo: ${text}` }), usage };
  },
  { record: false },
);
// Tools whose results are files and data (`toolArtifact`): over A2A, artifacts of the task.
const writeFile = tool({
  name: 'write_file',
  description: 'Writes a text file for the user',
  input: z.object({ name: z.string(), text: z.string() }),
  execute: async ({ name, text }) =>
    toolArtifact({ name, parts: [{ file: { name, mediaType: 'text/plain', bytes: Buffer.from(text).toString('base64') } }] }),
});
const publishFile = tool({
  name: 'publish_file',
  description: 'Hands the user a file by its URL',
  input: z.object({ name: z.string(), url: z.string() }),
  execute: async ({ name, url }) => toolArtifact({ name, parts: [{ file: { name, mediaType: 'text/plain', url } }] }),
});
const emitData = tool({
  name: 'emit_data',
  description: 'Hands the user structured data',
  input: z.object({ data: z.record(z.string(), z.unknown()) }),
  execute: async ({ data }) => toolArtifact({ name: 'data', parts: [{ data }] }),
});
const agent = new Agent({
  name: 'tck',
  description: 'The A2A TCK system under test: answers, asks for input, or takes its time, as the TCK asks',
  instructions: 'Answer the user; ask when you need more input.',
  model,
  tools: [askUserTool(), writeFile, publishFile, emitData],
});
const server = await serve({
  agents: [agent],
  port: PORT,
  host: '127.0.0.1',
  server: { logging: { level: process.env.SUT_LOG ?? 'silent' } },
  a2a: {
    beforeTask: ({ message }) => {
      messageId = message.messageId;
    },
  },
});
console.log(`READY ${server.port} hold=${HOLD_MS}ms`);
const stop = async () => {
  try {
    await server.close({ timeoutMs: 2000 });
  } finally {
    process.exit(0);
  }
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
