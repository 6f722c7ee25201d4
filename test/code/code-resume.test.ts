import { join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { openStore } from '../../src/storage/open-store.js';
import { assertBuilt, spawnCli } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { type CodeProject, makeProject } from './code-project.js';

let server: FakeLlmServer | undefined;
let project: CodeProject | undefined;

beforeAll(() => assertBuilt());
afterEach(async () => {
  await server?.close();
  project?.cleanup();
});

describe('corvid code --resume', () => {
  it('continues after kill -9: the finished steps are kept and the interrupted turn runs to its end', { timeout: 90_000 }, async () => {
    server = await startFakeLlmServer([
      { toolCalls: [{ id: 'r1', name: 'read_file', arguments: { path: 'src/math.js' } }] },
      { toolCalls: [{ id: 'b1', name: 'bash', arguments: { command: 'node test.js' } }] },
      { text: 'The test fails: add subtracts (src/math.js:2).' },
    ]);
    project = makeProject(server.url);
    const first = spawnCli(['code'], { cwd: project.dir, env: project.env });
    first.write('why does the test fail?\n');
    await first.waitFor('? bash needs approval', { timeoutMs: 20_000 });
    first.child.kill('SIGKILL');
    await first.exited;
    expect(server.requests).toHaveLength(2);

    const second = spawnCli(['code', '--resume'], { cwd: project.dir, env: project.env });
    await second.waitFor(/The last turn \("why does the test fail\?"\) was interrupted/, { timeoutMs: 20_000 });
    second.write('/resume\n');
    await second.waitFor('? bash needs approval', { since: second.mark(), timeoutMs: 20_000 });
    second.write('y\n');
    await second.waitFor('The test fails: add subtracts', { timeoutMs: 20_000 });
    second.child.stdin.end('/exit\n');
    expect(await second.exit(20_000)).toBe(0);
    expect(second.stdout).toContain('FAIL add(2, 3) = -1');
    // The resumed run did not ask the model again for the step it had (the bash call came from the checkpoint).
    expect(server.requests).toHaveLength(3);

    const store = await openStore({ path: join(project.home, '.corvid', 'code.db') });
    try {
      const [session] = (await store.sessions.list({ agent: 'corvid-code' })).sessions;
      const messages = await store.sessions.messages(session.id);
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
      expect(JSON.stringify(messages[2])).toContain('return a - b;');
    } finally {
      await store.close();
    }
  });
});
