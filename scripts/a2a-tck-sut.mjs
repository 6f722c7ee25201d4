#!/usr/bin/env node
// System under test for the A2A TCK (a2aproject/a2a-tck, 0.3.x): Corvid's server with one echo
// agent on a scripted zero-latency model, on 127.0.0.1:$SUT_PORT (default 9999). Point the TCK at
// its v0.3 JSON-RPC endpoint: --sut-url=http://127.0.0.1:9999/a2a/echo (card at the root).
// Run `npm run build` first. See docs/conformance.md.
//
// TCK convention: a message whose messageId starts with "test-resubscribe-message-id" keeps its
// task `working` for at least 2 x TCK_STREAMING_TIMEOUT seconds, so the test can drop the stream
// and resubscribe. Done with the public `beforeTask` hook of `serve({ a2a })`.
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from '../dist/index.js';
import { ScriptedModel } from '../dist/testing/index.js';
import { serve } from '../dist/server/index.js';

const PORT = Number(process.env.SUT_PORT ?? 9999);
const HOLD_MS = Math.ceil(2 * Number(process.env.TCK_STREAMING_TIMEOUT ?? 2) * 1000) + 1000;

const model = new ScriptedModel(
  (call) => {
    const last = [...call.prompt].reverse().find((m) => m.role === 'user');
    const text = last ? last.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
    return { text: `echo: ${text}`, usage: { inputTokens: 1, outputTokens: 1 } };
  },
  { record: false },
);
const agent = new Agent({ name: 'echo', description: 'Echoes what you say (A2A TCK system under test)', instructions: 'Echo.', model });
const server = await serve({
  agents: [agent],
  port: PORT,
  host: '127.0.0.1',
  server: { logging: { level: process.env.SUT_LOG ?? 'silent' } },
  a2a: {
    beforeTask: async ({ message, signal }) => {
      if (message.messageId.startsWith('test-resubscribe-message-id')) await sleep(HOLD_MS, undefined, { signal }).catch(() => undefined);
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
