/**
 * A model chosen and reached through environment variables alone, in the environment or a `.env`
 * file: CORVID_MODEL + CORVID_BASE_URL (+ CORVID_API_KEY) for any OpenAI-compatible server, and
 * the providers' base-URL variables for models of a config that has no base_url.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { cliEnv, runCli, STACK_LINE, tempDir, writeConfig } from './cli-harness.js';

const tmp = tempDir('corvid-env-model-');
let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => tmp.cleanup());

let n = 0;
/** A fresh project directory holding only the given `.env` (and optionally a config). */
function project(dotenv: string[], yaml?: string): string {
  const dir = join(tmp.dir, `p${++n}`);
  mkdirSync(dir);
  writeFileSync(join(dir, '.env'), `${dotenv.join('\n')}\n`);
  if (yaml) writeConfig(dir, yaml);
  return dir;
}

describe('models from the environment', () => {
  it('.env with CORVID_MODEL=openai-compatible:<model> and CORVID_BASE_URL: corvid run reaches that server', async () => {
    server = await startFakeLlmServer([{ text: 'Hello from m1.' }]);
    const dir = project(['CORVID_MODEL=openai-compatible:m1', `CORVID_BASE_URL=${server.url}/v1`, 'CORVID_API_KEY=local-key']);
    const r = await runCli(['run', '-q', 'hi'], { cwd: dir, env: cliEnv(tmp.dir) });
    expect(r).toEqual({ code: 0, stdout: 'Hello from m1.\n', stderr: '' });
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0];
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.body.model).toBe('m1');
    expect(req.headers.authorization).toBe('Bearer local-key');
  });

  it('CORVID_BASE_URL is honoured for CORVID_MODEL=openai:… (the real environment works as well as .env)', async () => {
    server = await startFakeLlmServer([{ text: 'Via a proxy.' }]);
    const dir = project([]);
    const env = cliEnv(tmp.dir, { CORVID_MODEL: 'openai:gpt-4.1-mini', CORVID_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'sk-test' });
    const r = await runCli(['run', '-q', 'hi'], { cwd: dir, env });
    expect(r).toMatchObject({ code: 0, stdout: 'Via a proxy.\n' });
    expect(server.requests.map((q) => q.path)).toEqual(['/v1/responses']);
    expect(server.requests[0].body.model).toBe('gpt-4.1-mini');
  });

  it('CORVID_MODEL=openai-compatible:… without CORVID_BASE_URL: one line saying what to set', async () => {
    const dir = project(['CORVID_MODEL=openai-compatible:m1']);
    const r = await runCli(['run', '-q', 'hi'], { cwd: dir, env: cliEnv(tmp.dir) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('CORVID_BASE_URL');
    expect(r.stderr).not.toMatch(STACK_LINE);
  });

  it('provider base-URL variables in .env reach models of a config without base_url (OpenAI, Anthropic, Gemini)', async () => {
    server = await startFakeLlmServer(() => ({ text: 'ok' }));
    const dir = project(
      [
        `OPENAI_BASE_URL=${server.url}/v1`,
        `ANTHROPIC_BASE_URL=${server.url}/v1`,
        `GOOGLE_GENERATIVE_AI_BASE_URL=${server.url}/v1beta`,
        'OPENAI_API_KEY=sk-test',
        'ANTHROPIC_API_KEY=sk-ant-test',
        'GEMINI_API_KEY=g-test',
      ],
      [
        'agents:',
        '  gpt: { model: "openai:gpt-4.1-mini" }',
        '  claude: { model: "anthropic:claude-sonnet-4-5" }',
        '  gemini: { model: "google:gemini-2.5-flash" }',
        '',
      ].join('\n'),
    );
    for (const agent of ['gpt', 'claude', 'gemini']) {
      const r = await runCli(['run', '--agent', agent, '-q', 'hi'], { cwd: dir, env: cliEnv(tmp.dir) });
      expect({ agent, ...r }).toEqual({ agent, code: 0, stdout: 'ok\n', stderr: '' });
    }
    expect(server.requests.map((q) => q.path)).toEqual([
      '/v1/responses',
      '/v1/messages',
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    ]);
  });
});
