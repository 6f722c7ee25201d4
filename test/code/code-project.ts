/**
 * A small project for the `corvid code` tests: a git repository in a temporary folder with a
 * buggy `src/math.js`, a test script (`node test.js`, exit 1 on failure) and a `corvid.yaml`
 * pointing an OpenAI-compatible model at the fake LLM server; plus the scripted model replies of
 * a realistic task (read, grep, edit, run the tests, see a failure, edit again, green, answer).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { cliEnv, fakeModel, tempDir } from '../cli/cli-harness.js';
import type { FakeReply } from '../support/fake-llm-server.js';

export const BUGGY = `export function add(a, b) {\n  return a - b;\n}\n`;
export const FIXED = `export function add(a, b) {\n  return a + b;\n}\n`;

export interface CodeProject {
  /** The project folder (a git repository). */
  dir: string;
  /** HOME and CORVID_HOME of the run. */
  home: string;
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

/** Creates the project and its environment; `url` is the fake server's. */
export function makeProject(url: string): CodeProject {
  const root = tempDir('corvid-code-');
  const dir = join(root.dir, 'project');
  const home = join(root.dir, 'home');
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'calc', type: 'module', scripts: { test: 'node test.js' } }, null, 2));
  writeFileSync(join(dir, 'src', 'math.js'), BUGGY);
  writeFileSync(
    join(dir, 'test.js'),
    `import { add } from './src/math.js';\nif (add(2, 3) !== 5) { console.error('FAIL add(2, 3) = ' + add(2, 3)); process.exit(1); }\nconsole.log('ok 1 add');\n`,
  );
  writeFileSync(join(dir, 'AGENTS.md'), '# calc\n\nRun the tests with `node test.js`.\n');
  writeFileSync(join(dir, 'corvid.yaml'), `models:\n${fakeModel(url)}defaults:\n  model: fake\n`);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const env = cliEnv(home, { CORVID_HOME: join(home, '.corvid') });
  return { dir, home, env, cleanup: root.cleanup };
}

let ids = 0;
const call = (name: string, args: unknown): FakeReply => ({
  toolCalls: [{ id: `call_${++ids}`, name, arguments: args }],
  usage: { input: 100, output: 20 },
});

/** The scripted task: read, grep, a wrong edit, failing tests, the right edit, green tests, the answer. */
export function fixTaskScript(): FakeReply[] {
  return [
    call('read_file', { path: 'src/math.js' }),
    call('grep', { pattern: 'add\\(', path: '.' }),
    call('edit_file', { path: 'src/math.js', old_string: 'return a - b;', new_string: 'return b - a;' }),
    call('bash', { command: 'node test.js' }),
    call('edit_file', { path: 'src/math.js', old_string: 'return b - a;', new_string: 'return a + b;' }),
    call('bash', { command: 'node test.js' }),
    { text: 'Fixed `add` in src/math.js:2 (it subtracted); `node test.js` passes.', usage: { input: 300, output: 30 } },
  ];
}
