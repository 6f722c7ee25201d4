import { join } from 'node:path';

import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { cliEnv, fakeModel, ROOT, runCli, tempDir, writeConfig } from './cli-harness.js';

const tmp = tempDir();
let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => tmp.cleanup());

describe('corvid run with a tools: module', () => {
  it('loads tools from a JavaScript module (the tools-module example) and runs them', async () => {
    server = await startFakeLlmServer([
      { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
      { toolCalls: [{ name: 'multiply', arguments: { a: 5, b: 7 } }] },
      { text: '35' },
    ]);
    const module = join(ROOT, 'examples', 'tools-module', 'tools.mjs');
    writeConfig(
      tmp.dir,
      `models:\n${fakeModel(server.url)}tools:\n  math:\n    module: ${module}\nagents:\n  calculator:\n    model: fake\n    tools: [math.add, math.multiply]\n`,
    );
    const r = await runCli(['run', '-q', 'What is (2 + 3) * 7?'], { cwd: tmp.dir, env: cliEnv(tmp.dir) });
    expect(r).toMatchObject({ code: 0, stdout: '35\n' });
    const tools = server.requests[0].body.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(tools).toEqual(['add', 'multiply']);
    const toolMessages = server.requests[2].body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(toolMessages.map((m: { content: string }) => m.content)).toEqual(['5', '35']);
  });

  it('names a missing module with file and line and exits 1', async () => {
    writeConfig(tmp.dir, `tools:\n  math:\n    module: ./missing.mjs\nagents:\n  a:\n    model: openai:gpt-4.1-mini\n    tools: [math]\n`);
    const r = await runCli(['run', '-q', 'hi'], { cwd: tmp.dir, env: cliEnv(tmp.dir, { OPENAI_API_KEY: 'test' }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/corvid\.yaml:3:\d+ +tools\.math\.module: cannot import "\.\/missing\.mjs": module not found/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
