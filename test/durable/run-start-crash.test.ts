import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { openStore } from '../../src/storage/index.js';
import { assertBuilt, cliEnv, fakeModel, runCli, spawnCli, tempDir, writeConfig } from '../cli/cli-harness.js';
import { type Location, mysqlTarget, postgresTarget, sqliteTarget } from '../storage/support/targets.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { promptText } from './support.js';

beforeAll(() => assertBuilt());

/** The `storage:` section of corvid.yaml for a test location. */
function storageYaml(options: Location['options']): string {
  if (options.driver === 'sqlite') return `storage:\n  path: ${options.path}\n`;
  if (options.driver === 'postgres') return `storage:\n  driver: postgres\n  url: ${options.url}\n  schema: ${options.schema}\n`;
  return `storage:\n  driver: mysql\n  url: ${options.url}\n`;
}

for (const target of [sqliteTarget, postgresTarget, mysqlTarget]) {
  describe.skipIf(Boolean(target.skip))(`corvid run --session killed while waiting for the model (${target.name})`, () => {
    let server: FakeLlmServer | undefined;
    let cleanup: Array<() => unknown> = [];
    afterEach(async () => {
      for (const c of cleanup.reverse()) await c();
      cleanup = [];
      await server?.close();
      server = undefined;
    });

    it("keeps the run and the user's message: runs list shows it running, runs resume finishes it with the message once", async () => {
      const location = await target.createLocation();
      cleanup.push(() => location.drop());
      const tmp = tempDir('corvid-run-start-');
      cleanup.push(() => tmp.cleanup());
      let received!: () => void;
      const modelCalled = new Promise<void>((r) => (received = r));
      // The first model call never gets an answer (the process is killed meanwhile); the resumed run's does.
      server = await startFakeLlmServer((_req, index) => {
        if (index > 0) return { text: 'Hello back.' };
        received();
        return { stallAfterChunks: 0 };
      });
      writeConfig(tmp.dir, `${storageYaml(location.options)}models:\n${fakeModel(server.url)}agents:\n  greeter:\n    model: fake\n`);
      const opts = { cwd: tmp.dir, env: cliEnv(tmp.dir) };

      const child = spawnCli(['run', '--session', 's1', '-q', 'hello'], opts);
      child.child.stdin.end();
      await modelCalled;
      child.child.kill('SIGKILL');
      expect((await child.exited).signal).toBe('SIGKILL');

      // What the killed process left: the session with the user's message, and the run.
      const store = await openStore(location.options);
      cleanup.push(() => store.close());
      const entries = await store.sessions.entries('s1');
      expect(entries.map((e) => [e.seq, e.role, e.agent])).toEqual([[1, 'user', 'greeter']]);
      expect(promptText(entries.map((e) => e.message!))).toEqual(['user: hello']);
      const list = await runCli(['runs', 'list', '--json'], opts);
      expect(list.code, list.stderr).toBe(0);
      const runs = JSON.parse(list.stdout) as Array<{ runId: string; status: string; sessionId: string; agent: string }>;
      expect(runs).toEqual([expect.objectContaining({ status: 'running', sessionId: 's1', agent: 'greeter' })]);
      expect(entries[0].runId).toBe(runs[0].runId);

      const resumed = await runCli(['runs', 'resume', runs[0].runId], opts);
      expect(resumed, resumed.stderr).toMatchObject({ code: 0, stdout: 'Hello back.\n' });
      // The resumed run sent the model the user's message once.
      const body = server.requests[1].body as { messages: Array<{ role: string; content: unknown }> };
      expect(body.messages.filter((m) => m.role === 'user')).toHaveLength(1);
      expect(promptText((await store.sessions.entries('s1')).map((e) => e.message!))).toEqual(['user: hello', 'assistant: Hello back.']);
      expect((await store.checkpoints.getRun(runs[0].runId))?.status).toBe('completed');
    }, 60_000);
  });
}
