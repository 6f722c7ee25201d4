/**
 * Custom slash commands headless (`corvid code -p "/name args"`): Markdown files in `.corvid/commands/` (project)
 * and `$CORVID_HOME/commands/` (user), `$1`/`$ARGUMENTS` filled in, the project's hiding the user's of the same
 * name. Real processes, a fake model server.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, runCli } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { type CodeProject, makeProject } from './code-project.js';
import { lastUserText } from './tmux-code-session.js';

let server: FakeLlmServer | undefined;
let project: CodeProject | undefined;

beforeAll(() => assertBuilt());
afterEach(async () => {
  await server?.close();
  project?.cleanup();
  server = undefined;
  project = undefined;
});

function writeCommand(dir: string, name: string, text: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.md`), text);
}

describe('corvid code custom commands (headless)', { timeout: 90_000 }, () => {
  it('expands $1, $2 and $ARGUMENTS; a project command hides the user one; user commands work in every project', async () => {
    server = await startFakeLlmServer([{ text: 'Fixed.' }, { text: 'Hello.' }]);
    project = makeProject(server.url);
    const projectDir = join(project.dir, '.corvid', 'commands');
    const userDir = join(project.home, '.corvid', 'commands');
    writeCommand(
      projectDir,
      'fix',
      '---\ndescription: Fix an issue\nargument-hint: <issue> <file>\n---\nFix issue #$1 in $2, then run the tests.\n(args: $ARGUMENTS)\n',
    );
    writeCommand(userDir, 'fix', 'The user version: must not be used.\n');
    writeCommand(userDir, 'greet', 'Say hello to the team.');
    const run = (prompt: string) =>
      runCli(['code', '-p', prompt, '--no-sandbox'], { cwd: project!.dir, env: project!.env, timeoutMs: 60_000 });
    const fix = await run('/fix 42 src/math.js');
    expect(fix.stderr).toBe('');
    expect(fix.stdout).toBe('Fixed.\n');
    expect(lastUserText(server.requests[0])).toBe('Fix issue #42 in src/math.js, then run the tests.\n(args: 42 src/math.js)');
    // No placeholder in the body: the arguments are added at the end.
    const greet = await run('/greet in French');
    expect(greet.stdout).toBe('Hello.\n');
    expect(lastUserText(server.requests[1])).toBe('Say hello to the team.\n\nin French');
  });
});
