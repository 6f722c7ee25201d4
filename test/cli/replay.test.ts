import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeLlmServer } from '../support/fake-llm-server.js';
import { assertBuilt, cliEnv, fakeModel, runCli, tempDir, writeConfig } from './cli-harness.js';

const tmp = tempDir('corvid-replay-');
beforeAll(() => assertBuilt());
afterAll(() => tmp.cleanup());

describe('corvid replay and --cassette', () => {
  it('turns a stored run into a cassette and runs the agent against it with the model server stopped', async () => {
    const server = await startFakeLlmServer([{ text: 'The answer is 5.' }]);
    const dir = tmp.dir;
    writeConfig(
      dir,
      `models:\n${fakeModel(server.url)}agents:\n  calc:\n    model: fake\n    instructions: You add numbers.\nstorage: { path: data/app.db }\n`,
    );
    const run = (...args: string[]) => runCli(args, { cwd: dir, env: cliEnv(dir), timeoutMs: 30_000 });

    const first = await run('run', '--session', 's1', '-q', 'What is 2 + 3?');
    expect(first).toMatchObject({ code: 0, stdout: 'The answer is 5.\n' });
    const runs = JSON.parse((await run('runs', 'list', '--json')).stdout) as Array<{ runId: string; status: string }>;
    expect(runs).toHaveLength(1);
    const runId = runs[0].runId;
    await server.close();

    const replayed = await run('replay', runId, '--out', 'cassettes/sum.json', '--run');
    expect(replayed.stderr).toContain(`Wrote ${join(dir, 'cassettes', 'sum.json')}: 1 model call(s) of run ${runId} (agent calc)`);
    expect(replayed).toMatchObject({ code: 0, stdout: 'The answer is 5.\n' });
    const file = JSON.parse(readFileSync(join(dir, 'cassettes', 'sum.json'), 'utf8'));
    expect(file.entries.map((e: any) => [e.lane, e.request.model, e.request.prompt[0].content])).toEqual([
      ['calc', 'openai-compatible:test', 'You add numbers.'],
    ]);

    // The cassette on the command line: the same question replays, another one is a miss that shows the difference.
    expect(await run('run', '--cassette', 'cassettes/sum.json', '--replay', '-q', 'What is 2 + 3?')).toMatchObject({
      code: 0,
      stdout: 'The answer is 5.\n',
    });
    const miss = await run('run', '--cassette', 'cassettes/sum.json', '--replay', '-q', 'What is 2 + 4?');
    expect(miss.code).toBe(1);
    expect(miss.stderr).toContain('has no recording of this model call on lane "calc" (mode "replay")');
    expect(miss.stderr).toContain('prompt[1].content[0].text: recorded "What is 2 + 3?" → now "What is 2 + 4?"');
    // The same through the environment.
    const env = await runCli(['run', '-q', 'What is 2 + 3?'], {
      cwd: dir,
      env: cliEnv(dir, { CORVID_CASSETTE: 'cassettes/sum.json', CORVID_CASSETTE_MODE: 'replay' }),
      timeoutMs: 30_000,
    });
    expect(env).toMatchObject({ code: 0, stdout: 'The answer is 5.\n' });
  });

  it('an unknown run id and --record with --replay are clear errors', async () => {
    const dir = join(tmp.dir, 'errors');
    writeConfig(tmp.dir, 'agents:\n  a: { model: "openai:gpt-4.1-mini" }\n', 'errors.yaml');
    const unknown = await runCli(['replay', 'run_nope', '-c', 'errors.yaml'], { cwd: tmp.dir, env: cliEnv(tmp.dir) });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown run "run_nope"');
    const both = await runCli(['run', '--record', '--replay', '--cassette', 'x.json', '-q', 'hi', '-c', 'errors.yaml'], {
      cwd: tmp.dir,
      env: cliEnv(tmp.dir),
    });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('Give --record or --replay, not both');
    expect(existsSync(dir)).toBe(false);
  });
});
