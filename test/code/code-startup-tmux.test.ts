/**
 * `corvid code` draws its prompt before the session has opened, in a real terminal (tmux, the built CLI): a message
 * typed meanwhile waits and is answered once the session opens; a config that cannot open exits with the error and
 * leaves the terminal usable.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, CLI, fakeModel } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { type CodeProject, makeProject } from './code-project.js';
import { Terminal, tmuxMissing } from './tmux-terminal.js';

const missing = tmuxMissing();
if (missing) console.warn(`skipping the tmux start-up tests of corvid code: ${missing}`);

let server: FakeLlmServer | undefined;
let project: CodeProject | undefined;
let term: Terminal | undefined;

beforeAll(() => {
  if (!missing) assertBuilt();
});
afterEach(async () => {
  term?.close();
  await server?.close();
  project?.cleanup();
  term = undefined;
  server = undefined;
  project = undefined;
});

const PROMPT = 'Ask, /command, !shell, @file';

// A tool module of corvid.yaml that finishes loading only once the test creates `open-now`: the session (which loads
// the config's tool modules) opens exactly when the test says.
const GATED_TOOL = `import { existsSync } from 'node:fs';
const gate = new URL('./open-now', import.meta.url);
await new Promise((resolve) => {
  const timer = setInterval(() => existsSync(gate) && (clearInterval(timer), resolve()), 20);
});
export const noop = { kind: 'tool', name: 'noop', description: 'Does nothing.', execute: async () => 'ok' };
`;

describe.skipIf(missing !== undefined)('corvid code start-up in a real terminal (tmux)', () => {
  it('takes a message before the session has opened and answers it once it opens', { timeout: 180_000 }, async () => {
    server = await startFakeLlmServer([{ text: 'Hello from the model.', usage: { input: 10, output: 5 } }]);
    project = makeProject(server.url);
    writeFileSync(join(project.dir, 'gated-tool.mjs'), GATED_TOOL);
    writeFileSync(
      join(project.dir, 'corvid.yaml'),
      `models:\n${fakeModel(server.url)}defaults:\n  model: fake\ntools:\n  gated:\n    module: ./gated-tool.mjs\n`,
    );
    term = Terminal.start({ command: [process.execPath, CLI, 'code'], cwd: project.dir, env: project.env });
    const first = await term.waitFor((s) => s.includes(PROMPT) && s.includes('starting…'), { timeoutMs: 60_000, what: 'the prompt' });
    expect(first).toContain('⏵ default │ starting…');
    term.type('hi there');
    await term.waitForText('hi there');
    term.keys('Enter');
    await term.waitForText('1 message queued');
    expect(server.requests).toHaveLength(0);

    writeFileSync(join(project.dir, 'open-now'), '');
    const answered = await term.waitFor((s) => s.includes('Hello from the model.') && s.includes('openai-compatible:test'), {
      timeoutMs: 60_000,
      what: 'the answer and the status line',
    });
    term.snapshot('startup-queued-message');
    expect(answered).toContain('❯ hi there');
    expect(answered).not.toContain('starting…');
    expect(JSON.stringify(server.requests[0]?.body)).toContain('hi there');
    term.submit('/exit');
    await term.waitFor(() => term!.exitStatus() !== undefined, { what: 'the exit' });
    expect(term.exitStatus()).toBe(0);
  });

  it(
    'a config that cannot open: the UI goes, the error is printed, exit 1, the terminal is back to normal',
    { timeout: 120_000 },
    async () => {
      server = await startFakeLlmServer([]);
      project = makeProject(server.url);
      writeFileSync(join(project.dir, 'corvid.yaml'), 'defaults:\n  model: nope\n');
      // After corvid exits, the shell prints its exit status and the terminal's modes (raw mode would show -icanon -echo).
      const script = `${[process.execPath, CLI, 'code'].map((a) => `'${a}'`).join(' ')}; echo "exit $?"; stty -a`;
      term = Terminal.start({ command: ['sh', '-c', script], cwd: project.dir, env: project.env });
      // Waits for stty's output too: under load it lands after the exit status.
      const screen = await term.waitForText(/exit \d+[\s\S]*(^|\s)-?icanon(\s|$)/m, { timeoutMs: 60_000 });
      term.snapshot('startup-bad-config');
      expect(screen).toContain('error: Invalid configuration in');
      expect(screen).toContain('defaults.model: unknown model "nope"');
      expect(screen).toContain('exit 1');
      expect(screen).not.toContain(PROMPT);
      expect(screen).not.toContain('starting…');
      expect(screen).not.toMatch(/at .*\.js:\d+/); // no stack
      expect(screen).toMatch(/(^|\s)icanon(\s|$)/m);
      expect(screen).toMatch(/(^|\s)echo(\s|$)/m);
    },
  );
});
