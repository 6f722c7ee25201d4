/**
 * The README's first hour, followed from the packed package as a new user gets it: `npm pack`
 * (of the built dist/), unpacked into a fresh project's node_modules, then the README's own
 * snippets run there — the code API and `corvid run` reaching a server named only by
 * CORVID_BASE_URL, the code API's message without a key, the README's corvid.yaml passing
 * `corvid validate` without its secrets, and the TypeScript quick start saying how to run it.
 * The package's dependencies come from this repository's node_modules (a symbolic link), so no
 * registry is needed; scripts/check-package.mjs installs the tarball from the registry in CI and
 * type-checks the quick start there. The slowest part is `npm pack` (a few seconds).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, cliEnv, ROOT, spawnCommand, tempDir } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const tmp = tempDir('corvid-readme-');
const project = join(tmp.dir, 'app');
const packedCli = join(project, 'node_modules', 'corvid', 'dist', 'cli', 'main.js');
let server: FakeLlmServer | undefined;

/** The first fenced block of `lang` after `heading` in the README. */
function readmeBlock(heading: string, lang: string, startsWith = ''): string {
  const from = readme.indexOf(heading);
  expect(from, `README has "${heading}"`).toBeGreaterThanOrEqual(0);
  const re = new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g');
  re.lastIndex = from;
  for (let m = re.exec(readme); m; m = re.exec(readme)) if (m[1].startsWith(startsWith)) return m[1];
  throw new Error(`no \`\`\`${lang} block starting with "${startsWith}" after "${heading}" in README.md`);
}

/** Runs a command in the project to its end. */
async function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = spawnCommand(command, args, { cwd: project, env });
  p.child.stdin.end();
  const code = await p.exit(20_000);
  return { code, stdout: p.stdout, stderr: p.stderr };
}

beforeAll(() => {
  assertBuilt();
  // --ignore-scripts: pack the dist/ that is built (no second build through "prepare").
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp.dir], { cwd: ROOT, encoding: 'utf8' }),
  ) as Array<{ filename: string }>;
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, '@types'), { recursive: true });
  execFileSync('tar', ['xzf', join(tmp.dir, packed.filename), '-C', tmp.dir]);
  renameSync(join(tmp.dir, 'package'), join(modules, 'corvid'));
  symlinkSync(join(ROOT, 'node_modules'), join(modules, 'corvid', 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules', 'zod'), join(modules, 'zod'));
  symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(modules, '@types', 'node'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
}, 60_000);
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => tmp.cleanup());

describe('the README, followed from the packed package', () => {
  it('CORVID_BASE_URL alone (no CORVID_MODEL) sends the code API and corvid run to that server', async () => {
    server = await startFakeLlmServer(() => ({ text: 'Hello from the proxy.' }));
    writeFileSync(join(project, 'agent.mjs'), readmeBlock('Corvid is **ESM-only**', 'js', '// agent.mjs'));
    const env = cliEnv(tmp.dir, { OPENAI_API_KEY: 'sk-test', CORVID_BASE_URL: `${server.url}/v1` });

    const code = await run(process.execPath, ['agent.mjs'], env);
    expect(code).toEqual({ code: 0, stdout: 'Hello from the proxy.\n', stderr: '' });
    const cli = await run(process.execPath, [packedCli, 'run', '-q', 'What is 17 * 23?'], env);
    expect(cli).toEqual({ code: 0, stdout: 'Hello from the proxy.\n', stderr: '' });

    expect(server.requests.map((r) => `${r.path} ${r.body.model}`)).toEqual(['/v1/responses gpt-4.1-mini', '/v1/responses gpt-4.1-mini']);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer sk-test', 'Bearer sk-test']);
  });

  it("the code API's error without a key says it reads process.env, not the .env file next to it", async () => {
    writeFileSync(join(project, 'agent.mjs'), readmeBlock('Corvid is **ESM-only**', 'js', '// agent.mjs'));
    writeFileSync(join(project, '.env'), 'OPENAI_API_KEY=sk-only-in-dotenv\n');
    try {
      const r = await run(process.execPath, ['agent.mjs'], cliEnv(tmp.dir));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('No API key for openai model "gpt-4.1-mini"');
      expect(r.stderr).toContain('new Agent() reads only process.env');
      expect(r.stderr).not.toContain('in the environment or a .env file');
      expect(r.stderr).not.toContain('sk-only-in-dotenv');
      expect(readme).toContain('reads only `process.env`');
    } finally {
      writeFileSync(join(project, '.env'), '');
    }
  });

  it("the README's corvid.yaml passes corvid validate without OPENAI_API_KEY (a warning); --strict requires it", async () => {
    writeFileSync(join(project, 'corvid.yaml'), readmeBlock('## Config: `corvid.yaml`', 'yaml', 'models:'));
    const env = cliEnv(tmp.dir);
    const loose = await run(process.execPath, [packedCli, 'validate', '--no-color'], env);
    expect(loose.stdout).toBe('✓ corvid.yaml is valid (2 models, 3 agents)\n');
    expect(loose.stderr).toMatch(/^warning: corvid\.yaml:5:14 +models\.fast\.api_key: environment variable OPENAI_API_KEY is not set/);
    expect(loose.code).toBe(0);

    const strict = await run(process.execPath, [packedCli, 'validate', '--strict', '--no-color'], env);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/^corvid\.yaml:5:14 +models\.fast\.api_key: environment variable OPENAI_API_KEY is not set/m);
    expect(strict.stderr).toContain('✗ corvid.yaml is invalid: 1 problem');

    const withKey = await run(process.execPath, [packedCli, 'validate', '--strict', '--no-color'], { ...env, OPENAI_API_KEY: 'sk-x' });
    expect(withKey).toEqual({ code: 0, stdout: '✓ corvid.yaml is valid (2 models, 3 agents)\n', stderr: '' });
  });

  it('the TypeScript quick start says how to run it on Node 20 and that type-checking needs @types/node', () => {
    // scripts/check-package.mjs type-checks this block against the installed tarball (tsc is too slow for a unit test).
    const quickStart = readme.slice(readme.indexOf('## Quick start: code'), readme.indexOf('## Config: `corvid.yaml`'));
    expect(quickStart).toContain('npx tsx agent.ts');
    expect(quickStart).toMatch(/node --experimental-strip-types agent\.ts`\s+on Node ≥ 22\.6/);
    expect(quickStart).toContain('npm install -D typescript @types/node');
  });
});
