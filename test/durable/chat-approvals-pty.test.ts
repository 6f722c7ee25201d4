import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, CLI, cliEnv, fakeModel, ROOT, spawnCommand, tempDir, writeConfig } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';

/** `corvid chat --session` on a real pseudo-terminal (util-linux `script`), answering approvals inline. */
const tmp = tempDir('corvid-durable-pty-');
let server: FakeLlmServer | undefined;
beforeAll(() => assertBuilt());
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => tmp.cleanup());

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

describe('corvid chat --session on a terminal', () => {
  it('asks y / n [reason] / always inline: a denial reason reaches the model, always stops asking', async () => {
    mkdirSync(join(tmp.dir, 'sandbox'));
    for (const f of ['a.txt', 'b.txt', 'c.txt']) writeFileSync(join(tmp.dir, 'sandbox', f), 'x');
    const del = (path: string, id: string) => ({ toolCalls: [{ name: 'delete_file', arguments: { path }, id }] });
    server = await startFakeLlmServer([
      del('a.txt', 'c1'),
      { text: 'Kept a.txt.' },
      del('b.txt', 'c2'),
      { text: 'Deleted b.txt.' },
      del('c.txt', 'c3'),
      { text: 'Deleted c.txt.' },
    ]);
    const config = writeConfig(
      tmp.dir,
      `models:\n${fakeModel(server.url)}tools:\n  files:\n    module: ${join(ROOT, 'examples', 'approvals', 'files.mjs')}\nagents:\n  clerk:\n    model: fake\n    tools: [files]\n    require_approval:\n      delete_file: "Delete {path}?"\n`,
    );
    const cmd = `${quote(process.execPath)} ${quote(CLI)} chat --session desk -c ${quote(config)}`;
    const p = spawnCommand('script', ['-qfec', cmd, '/dev/null'], {
      cwd: tmp.dir,
      env: cliEnv(tmp.dir, { TERM: 'xterm-256color', COLUMNS: '120', LINES: '40' }),
    });
    try {
      await p.waitFor(/new session desk[\s\S]*clerk › $/);
      let mark = p.mark();
      p.write('Delete a.txt\r');
      await p.waitFor(/Delete a\.txt\? \[y\]es \/ \[n\]o \/ \[a\]lways: $/, { since: mark });
      p.write('n it is the audit log\r');
      await p.waitFor(/Kept a\.txt\.[\s\S]*clerk › $/, { since: mark });
      expect(JSON.stringify(server.requests[1].body.messages)).toContain('it is the audit log');
      expect(existsSync(join(tmp.dir, 'sandbox', 'a.txt'))).toBe(true);

      mark = p.mark();
      p.write('Delete b.txt\r');
      await p.waitFor(/Delete b\.txt\? \[y\]es/, { since: mark });
      p.write('always\r');
      await p.waitFor(/Deleted b\.txt\.[\s\S]*clerk › $/, { since: mark });
      expect(existsSync(join(tmp.dir, 'sandbox', 'b.txt'))).toBe(false);

      mark = p.mark();
      p.write('Delete c.txt\r');
      const out = await p.waitFor(/Deleted c\.txt\.[\s\S]*clerk › $/, { since: mark });
      expect(out).not.toContain('Delete c.txt?');
      expect(existsSync(join(tmp.dir, 'sandbox', 'c.txt'))).toBe(false);
      p.write('\u0004');
      expect((await p.exited).code).toBe(0);
    } finally {
      p.child.kill();
    }
  }, 60_000);
});
