import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { type FakeLlmServer, type FakeScript, startFakeLlmServer } from '../support/fake-llm-server.js';
import { cliEnv, fakeModel, runCli, STACK_LINE, tempDir, writeConfig } from './cli-harness.js';

// What `corvid run` / `corvid chat` print for provider problems: warnings, refused keys, a
// model without a URL. The built CLI against the local wire-format fake (127.0.0.1 only).

const tmp = tempDir();
const opts = { cwd: tmp.dir, env: cliEnv(tmp.dir) };
let server: FakeLlmServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => tmp.cleanup());

/** A boss agent on an OpenAI reasoning model with a temperature (which OpenAI's package leaves out), asking geo. */
async function serveReasoningModel(script: FakeScript): Promise<FakeLlmServer> {
  server = await startFakeLlmServer(script);
  writeConfig(
    tmp.dir,
    `models:
  o4:
    provider: openai
    base_url: ${server.url}/v1
    api_key: test
    model: o4-mini
    temperature: 0.3
    retry: { max_retries: 0 }
agents:
  boss:
    model: o4
    instructions: You delegate geography questions.
    agent_tools: [geo]
  geo:
    model: o4
    instructions: You know capitals.
`,
  );
  return server;
}

const WARNING = 'warning: openai:o4-mini: temperature is not supported for reasoning models';
const count = (text: string, part: string) => text.split(part).length - 1;

describe('provider warnings in the CLI', () => {
  it('corvid run --verbose shows a provider warning once per run, nested runs included', async () => {
    const s = await serveReasoningModel([
      { toolCalls: [{ name: 'ask_geo', arguments: { message: 'Capital of Peru?' } }] },
      { text: 'Lima.' },
      { text: 'It is Lima.' },
    ]);
    const r = await runCli(['run', '-q', 'Capital of Peru?', '--verbose'], opts);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('It is Lima.\n');
    expect(s.requests).toHaveLength(3);
    for (const req of s.requests) expect(req.body).not.toHaveProperty('temperature');
    expect(count(r.stderr, WARNING)).toBe(1);
  });

  it('corvid run without --verbose keeps stderr quiet, and --json carries the warning events', async () => {
    await serveReasoningModel([{ text: 'Lima.' }]);
    const quiet = await runCli(['run', '-q', 'Capital of Peru?', '--agent', 'geo'], opts);
    expect(quiet).toMatchObject({ code: 0, stdout: 'Lima.\n', stderr: '' });
    await server!.close();
    await serveReasoningModel([{ text: 'Lima.' }]);
    const json = await runCli(['run', '-q', 'Capital of Peru?', '--agent', 'geo', '--json'], opts);
    const events = json.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(events.filter((e) => e.type === 'warning')).toEqual([
      expect.objectContaining({ model: 'openai:o4-mini', kind: 'unsupported', feature: 'temperature', step: 1 }),
    ]);
  });

  it('corvid chat --verbose shows it once per turn', async () => {
    await serveReasoningModel([{ text: 'Lima.' }, { text: 'Quito.' }]);
    const r = await runCli(['chat', 'geo', '--verbose'], { ...opts, input: 'Peru?\nEcuador?\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Lima.\nQuito.\n');
    expect(count(r.stderr, WARNING)).toBe(2);
  });
});

describe('provider error messages in the CLI', () => {
  it('a refused API key reads as one sentence (no doubled full stop)', async () => {
    server = await startFakeLlmServer([{ status: 401, errorMessage: 'Incorrect API key provided.' }]);
    writeConfig(tmp.dir, `models:\n${fakeModel(server.url)}agents:\n  assistant:\n    model: fake\n`);
    const r = await runCli(['run', '-q', 'hi'], opts);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: openai-compatible refused the credentials for model "test" (HTTP 401): Incorrect API key provided. Check the API key (env var or api_key in config).\n',
    );
  });

  it('an openai-compatible model from CORVID_MODEL says it needs CORVID_BASE_URL', async () => {
    const empty = tempDir();
    try {
      const r = await runCli(['run', '-q', 'hi'], {
        cwd: empty.dir,
        env: cliEnv(empty.dir, { CORVID_MODEL: 'openai-compatible:qwen3-8b' }),
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('CORVID_MODEL=openai-compatible:qwen3-8b names an OpenAI-compatible server: set CORVID_BASE_URL');
      expect(r.stderr).toContain('CORVID_BASE_URL=http://127.0.0.1:8000/v1');
      expect(r.stderr).not.toContain('""');
      expect(r.stderr).not.toMatch(STACK_LINE);
    } finally {
      empty.cleanup();
    }
  });
});
