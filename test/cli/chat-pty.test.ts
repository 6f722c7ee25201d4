import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { CLI, cliEnv, fakeModel, spawnCommand, tempDir, writeConfig } from './cli-harness.js';

/**
 * The interactive chat on a real pseudo-terminal, through util-linux `script`:
 * `script -qfec <cmd> /dev/null` runs the CLI with a pty as its stdin/stdout and relays our pipe.
 * Keys are raw bytes: Enter is \r, Ctrl-C \x03, Ctrl-D \x04.
 */
const tmp = tempDir();
let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => tmp.cleanup());

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

describe('corvid chat on a terminal', () => {
  it('prompts, renders colored output, cancels a slow reply with Ctrl-C and exits on Ctrl-D', async () => {
    const replies = [
      { reasoning: 'Greet back.', text: 'Hello, Ann!', usage: { input: 12, output: 4 } },
      { text: 'This reply is too slow.', delayMs: 30_000 },
      { text: 'Fast again.' },
    ];
    let slowArrived!: () => void;
    const slowRequest = new Promise<void>((resolve) => (slowArrived = resolve));
    server = await startFakeLlmServer((_req, i) => {
      if (i === 1) slowArrived();
      return replies[i];
    });
    const s = server;
    const config = writeConfig(tmp.dir, `models:\n${fakeModel(s.url)}agents:\n  helper:\n    model: fake\n`);
    const cmd = `${quote(process.execPath)} ${quote(CLI)} chat -c ${quote(config)}`;
    const p = spawnCommand('script', ['-qfec', cmd, '/dev/null'], {
      cwd: tmp.dir,
      env: cliEnv(tmp.dir, { TERM: 'xterm-256color', COLUMNS: '120', LINES: '40' }),
    });
    try {
      await p.waitFor(/helper › $/);
      expect(p.stdout).toContain('\u001b[36m'); // the prompt is colored (cyan)

      let mark = p.mark();
      p.write('Hi, I am Ann\r');
      let out = await p.waitFor(/↳ 12 in · 4 out tokens · 16 tokens this session[\s\S]*helper › $/, { since: mark });
      expect(out).toMatch(/step 1\/10/);
      expect(out).toMatch(/thinking Greet back\./);
      expect(out).toMatch(/Hello, Ann!/);
      expect(p.stdout.slice(mark)).toContain('\u001b[2m'); // thinking and step headers are dimmed

      mark = p.mark();
      p.write('Tell me slowly\r');
      await p.waitFor(/step 1\/10/, { since: mark });
      await slowRequest;
      p.write('\u0003');
      out = await p.waitFor(/cancelled[\s\S]*helper › $/, { since: mark, timeoutMs: 5000 });
      expect(out).not.toContain('too slow');

      // The conversation goes on, without the cancelled turn.
      mark = p.mark();
      p.write('Again\r');
      await p.waitFor(/Fast again\.[\s\S]*helper › $/, { since: mark });
      const roles = (s.requests[2].body as { messages: Array<{ role: string }> }).messages.map((m) => m.role);
      expect(roles).toEqual(['user', 'assistant', 'user']);

      // Ctrl-C at an empty prompt only hints; Ctrl-D exits.
      mark = p.mark();
      p.write('\u0003');
      await p.waitFor(/press Ctrl-C again or Ctrl-D/, { since: mark });
      p.write('\u0004');
      expect(await p.exit(5000)).toBe(0);
    } finally {
      p.child.kill('SIGKILL');
    }
    const history = readFileSync(join(tmp.dir, 'history'), 'utf8');
    expect(history).toBe('Hi, I am Ann\nTell me slowly\nAgain\n');
  });

  it('shows the question of ask_user (after text the model wrote first), and the next line answers it', async () => {
    server = await startFakeLlmServer([
      { text: 'One thing first.', toolCalls: [{ name: 'ask_user', arguments: { question: 'Which city?' } }] },
      { text: 'Booked Lima.' },
    ]);
    const s = server;
    const config = writeConfig(tmp.dir, `models:\n${fakeModel(s.url)}agents:\n  helper:\n    model: fake\n    tools: [ask_user]\n`);
    const cmd = `${quote(process.execPath)} ${quote(CLI)} chat -c ${quote(config)}`;
    const p = spawnCommand('script', ['-qfec', cmd, '/dev/null'], {
      cwd: tmp.dir,
      env: cliEnv(tmp.dir, { TERM: 'xterm-256color', NO_COLOR: '1' }),
    });
    try {
      await p.waitFor(/helper › $/);
      let mark = p.mark();
      p.write('Book a flight\r');
      const out = await p.waitFor(/↳[^\n]*tokens[\s\S]*helper › $/, { since: mark });
      // The question on a line of its own (not only inside the tool call's arguments).
      expect(out).toMatch(/One thing first\.[\s\S]*\nWhich city\?\r?\n/);
      mark = p.mark();
      p.write('Lima\r');
      await p.waitFor(/Booked Lima\.[\s\S]*helper › $/, { since: mark });
      const second = s.requests[1].body as { messages: Array<{ role: string; content: unknown }> };
      expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
      expect(JSON.stringify(second.messages[3].content)).toContain('Lima');
      p.write('\u0004');
      expect(await p.exit(5000)).toBe(0);
    } finally {
      p.child.kill('SIGKILL');
    }
  });

  it('exits on a second Ctrl-C at the empty prompt, without colors under NO_COLOR', async () => {
    server = await startFakeLlmServer([]);
    const config = writeConfig(tmp.dir, `models:\n${fakeModel(server.url)}agents:\n  helper:\n    model: fake\n`);
    const cmd = `${quote(process.execPath)} ${quote(CLI)} chat -c ${quote(config)}`;
    const p = spawnCommand('script', ['-qfec', cmd, '/dev/null'], {
      cwd: tmp.dir,
      env: cliEnv(tmp.dir, { TERM: 'xterm-256color', NO_COLOR: '1' }),
    });
    try {
      await p.waitFor(/helper › $/);
      p.write('\u0003');
      await p.waitFor(/press Ctrl-C again/);
      p.write('\u0003');
      expect(await p.exit(5000)).toBe(0);
      expect(server.requests).toHaveLength(0);
      // eslint-disable-next-line no-control-regex -- matches ANSI escapes
      expect(p.stdout).not.toMatch(/\u001b\[[0-9;]*m/); // no SGR styling (readline's cursor moves remain)
    } finally {
      p.child.kill('SIGKILL');
    }
  });
});
