import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { tool } from '../../src/index.js';
import { loadRuntime } from '../../src/runtime/index.js';
import { lines, tempDir } from '../config/temp-dir.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';

// End to end over HTTP against the local wire-format fake (127.0.0.1 only, no network): the
// settings written in corvid.yaml must reach the provider requests.

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('runtime over the wire', () => {
  it('sends the configured model, key from .env, headers, temperature and tools; agent_tools call the other provider', async () => {
    server = await startFakeLlmServer([
      { toolCalls: [{ name: 'ask_math', arguments: { message: 'add 2 and 3' } }] },
      { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
      { text: '5' },
      { text: 'The answer is 5.' },
    ]);
    const cwd = tempDir({
      '.env': lines('COMPAT_KEY=key-from-dotenv', 'ANTHROPIC_KEY=ant-from-dotenv'),
      'corvid.yaml': lines(
        'defaults: { model: compat, temperature: 0.25 }',
        'models:',
        '  compat:',
        '    provider: openai-compatible',
        '    base_url: ${FAKE_URL}/v1',
        '    model: qwen-test',
        '    api_key: ${COMPAT_KEY}',
        '    headers: { X-Team: "blue" }',
        '    retry: { max_retries: 0 }',
        '  claude:',
        '    provider: claude',
        '    base_url: ${FAKE_URL}/v1',
        '    model: claude-test',
        '    api_key: ${ANTHROPIC_KEY}',
        '    max_tokens: 333',
        'agents:',
        '  lead:',
        '    instructions: You lead.',
        '    agent_tools: [math]',
        '  math:',
        '    description: Does sums.',
        '    model: claude',
        '    instructions: You add.',
        '    tools: [add]',
      ),
    });
    const runtime = await loadRuntime({ cwd, env: { FAKE_URL: server.url }, tools: [add] });
    const result = await runtime.agent().run('What is 2 + 3?');
    expect(result.text).toBe('The answer is 5.');

    const [first, second, third, fourth] = server.requests;
    expect(first.api).toBe('openai-chat');
    expect(first.headers.authorization).toBe('Bearer key-from-dotenv');
    expect(first.headers['x-team']).toBe('blue');
    expect(first.body).toMatchObject({ model: 'qwen-test', temperature: 0.25 });
    expect(first.body.messages[0]).toEqual({ role: 'system', content: 'You lead.' });
    expect(
      first.body.tools.map((t: { function: { name: string; description: string } }) => [t.function.name, t.function.description]),
    ).toEqual([['ask_math', 'Does sums.']]);

    expect(second.api).toBe('anthropic');
    expect(second.headers['x-api-key']).toBe('ant-from-dotenv');
    expect(second.body).toMatchObject({ model: 'claude-test', max_tokens: 333, system: [{ type: 'text', text: 'You add.' }] });
    expect(second.body.tools.map((t: { name: string }) => t.name)).toEqual(['add']);
    expect(third.api).toBe('anthropic');
    expect(fourth.api).toBe('openai-chat');
  });
});
