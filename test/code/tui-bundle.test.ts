/**
 * The built terminal UI of `corvid code` (`npm run build` first): the bundle that the package ships
 * (dist/code/tui/run-tui.bundle.js, Ink, React, marked and highlight.js inside) and `loadTui`, which finds it or
 * says why there is no UI.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { ROOT, tempDir } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { type CodeProject, makeProject } from './code-project.js';
import { Terminal, tmuxMissing } from './tmux-terminal.js';

const DIST = join(ROOT, 'dist');
const BUNDLE = join(DIST, 'code', 'tui', 'run-tui.bundle.js');
const PROMPT = 'Ask, /command, !shell, @file';

/**
 * `loadTui` of the build, run by plain Node in a child process (in the test process, Vitest would resolve the
 * UI modules' imports itself), with the given candidate files; its result without the module.
 */
function loadTuiInChild(candidates?: string[]): { ok: boolean; file?: string; reason?: string } {
  const loadTuiUrl = pathToFileURL(join(DIST, 'code', 'tui', 'load-tui.js')).href;
  const options = candidates ? `{ candidates: ${JSON.stringify(candidates)}.map((f) => pathToFileURL(f)) }` : '{}';
  const script = [
    `import { pathToFileURL } from 'node:url';`,
    `const { loadTui } = await import(${JSON.stringify(loadTuiUrl)});`,
    `const { tui, ...rest } = await loadTui(${options});`,
    `process.stdout.write(JSON.stringify(rest));`,
    `process.exit(0);`,
  ].join('\n');
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as {
    ok: boolean;
    file?: string;
    reason?: string;
  };
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

beforeAll(() => {
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run "npm run build" first`);
});

describe('loadTui', () => {
  it('loads the bundle the build made', async () => {
    expect(loadTuiInChild()).toEqual({ ok: true, file: BUNDLE });
  }, 60_000);

  it('without the bundle, and without ink where the UI modules are, says why in one sentence', async () => {
    // The tsc-built UI modules, copied where no node_modules can be found (ink and react do not resolve).
    const tmp = tempDir('corvid-tui-nobundle-');
    cleanups.push(tmp.cleanup);
    const tuiDir = join(tmp.dir, 'code', 'tui');
    mkdirSync(tuiDir, { recursive: true });
    for (const f of readdirSync(join(DIST, 'code', 'tui')))
      if (f.endsWith('.js') && !f.includes('bundle')) copyFileSync(join(DIST, 'code', 'tui', f), join(tuiDir, f));
    copyFileSync(join(DIST, 'code', 'code-session-types.js'), join(tmp.dir, 'code', 'code-session-types.js'));
    writeFileSync(join(tmp.dir, 'package.json'), '{ "type": "module" }\n');

    const loaded = loadTuiInChild([join(tuiDir, 'run-tui.bundle.js'), join(tuiDir, 'run-tui.js')]);
    expect(loaded).toEqual({ ok: false, reason: 'the full-screen UI is not built (npm run build) and ink and react are not installed' });
  }, 60_000);

  it('names the files it looked for when none exists', async () => {
    const tmp = tempDir('corvid-tui-none-');
    cleanups.push(tmp.cleanup);
    const loaded = loadTuiInChild([join(tmp.dir, 'run-tui.bundle.js')]);
    expect(loaded).toEqual({ ok: false, reason: `the full-screen UI is not built: none of ${join(tmp.dir, 'run-tui.bundle.js')} exists` });
  }, 60_000);
});

const missing = tmuxMissing();
if (missing) console.warn(`skipping the terminal test of the UI bundle: ${missing}`);

describe.skipIf(missing !== undefined)('the UI bundle in a terminal', () => {
  let server: FakeLlmServer | undefined;
  let project: CodeProject | undefined;

  it('copied where no package is installed, it draws the prompt, and renders a streamed answer with coloured code', async () => {
    server = await startFakeLlmServer([{ text: 'Here:\n\n```js\nconst answer = 42;\n```\n' }]);
    project = makeProject(server.url);
    cleanups.push(
      () => server?.close(),
      () => project?.cleanup(),
    );
    // The bundle alone in a folder without node_modules above it: Ink, React, marked and highlight.js must be inside.
    const alone = tempDir('corvid-tui-alone-');
    cleanups.push(alone.cleanup);
    copyFileSync(BUNDLE, join(alone.dir, 'run-tui.bundle.js'));
    const script = join(alone.dir, 'run.mjs');
    writeFileSync(
      script,
      [
        `const [{ openCodeSession }, tui] = await Promise.all([`,
        `  import(${JSON.stringify(pathToFileURL(join(DIST, 'code', 'open-code-session.js')).href)}),`,
        `  import('./run-tui.bundle.js'),`,
        `]);`,
        `await tui.preloadTui();`,
        `const session = await openCodeSession({ cwd: process.cwd() });`,
        `try { await tui.runTui({ session, stdin: process.stdin, stdout: process.stdout }); } finally { await session.close(); }`,
        `process.exit(0);`,
        '',
      ].join('\n'),
    );
    const term = Terminal.start({ command: [process.execPath, script], cwd: project.dir, env: project.env });
    cleanups.push(() => term.close());

    const first = await term.waitForText(PROMPT, { timeoutMs: 60_000 });
    expect(first).toContain('openai-compatible:test');
    // Type, see the line in the input box, then Enter (as a person would; a paste-like burst with the Enter in it is
    // another case, tested elsewhere).
    const submit = async (line: string): Promise<void> => {
      term.type(line);
      await term.waitForText(`❯ ${line}`, { timeoutMs: 30_000 });
      term.keys('Enter');
    };
    await submit('show me the answer');
    await term.waitForText('const answer = 42;', { timeoutMs: 60_000 });
    // highlight.js coloured the keyword and the number (an SGR sequence right before each).
    const ESC = String.fromCharCode(27);
    const coloured = (word: string): boolean => term.screenAnsi().includes(`m${word}`) && term.screenAnsi().includes(ESC);
    await term.waitFor(() => coloured('const') && coloured('42'), { timeoutMs: 30_000, what: 'the code block in colour' });
    await submit('/exit');
    await term.waitFor(() => term.exitStatus() !== undefined, { timeoutMs: 30_000, what: 'the UI to exit' });
    expect(term.exitStatus()).toBe(0);
  }, 180_000);
});
