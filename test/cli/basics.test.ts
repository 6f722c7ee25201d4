import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { assertBuilt, CLI, cliEnv, ROOT, runCli, STACK_LINE, tempDir } from './cli-harness.js';

const home = tempDir();
const opts = { cwd: home.dir, env: cliEnv(home.dir) };
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
afterAll(() => home.cleanup());

describe('corvid basics', () => {
  it('prints the version from package.json', async () => {
    for (const flag of ['--version', '-v']) {
      const r = await runCli([flag], opts);
      expect(r).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });

  it('answers --version about as fast as node -e 0', () => {
    assertBuilt();
    const time = (args: string[]): number => {
      const times: number[] = [];
      for (let i = 0; i < 7; i++) {
        const t = performance.now();
        const r = spawnSync(process.execPath, args, { env: opts.env });
        expect(r.status).toBe(0);
        times.push(performance.now() - t);
      }
      return Math.min(...times);
    };
    const bare = time(['-e', '0']);
    const cli = time([CLI, '--version']);
    // Loading any of the heavy modules (zod, yaml, the AI SDK) would make it several times node's own start-up;
    // a ratio, not a difference, so other tests sharing the CPU slow both sides alike.
    expect(cli / bare).toBeLessThan(2);
  });

  it('prints usage with --help, for a command, and with help <command>', async () => {
    const main = await runCli(['--help'], opts);
    expect(main.code).toBe(0);
    for (const cmd of ['run', 'chat', 'validate', 'schema']) expect(main.stdout).toContain(cmd);
    expect(main.stdout).toMatch(/--config/);

    const run = await runCli(['run', '--help'], opts);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Usage: corvid run/);
    expect(run.stdout).toMatch(/--max-steps/);

    const help = await runCli(['help', 'chat'], opts);
    expect(help.stdout).toMatch(/\/reload/);
  });

  it('rejects an unknown command with a suggestion and exit code 2', async () => {
    const r = await runCli(['rnu'], opts);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/Unknown command "rnu"\. Did you mean "run"\?/);
    expect(r.stderr).toMatch(/corvid --help/);
    expect(r.stderr).not.toMatch(STACK_LINE);
  });

  it('rejects unknown flags and bad values with exit code 2', async () => {
    const flag = await runCli(['run', '--frobnicate', '-q', 'hi'], opts);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/Unknown option '--frobnicate'/);
    expect(flag.stderr).toMatch(/corvid run --help/);

    const global = await runCli(['--nope'], opts);
    expect(global.code).toBe(2);

    const steps = await runCli(['run', '-q', 'hi', '--max-steps', 'many'], opts);
    expect(steps.code).toBe(2);
    expect(steps.stderr).toMatch(/--max-steps must be a positive whole number/);

    const missing = await runCli(['run'], opts);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Missing the question/);

    const extra = await runCli(['schema', 'now'], opts);
    expect(extra.code).toBe(2);
  });

  it('prints the config JSON Schema', async () => {
    const r = await runCli(['schema'], opts);
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout) as { properties: Record<string, unknown> };
    expect(schema.properties.agents).toBeDefined();
    expect(schema.properties.models).toBeDefined();
  });

  it('never colors output that is not a terminal', async () => {
    const r = await runCli(['rnu'], { ...opts, env: cliEnv(home.dir, { FORCE_COLOR: undefined }) });
    expect(r.stderr).not.toContain('\u001b[');
    const forced = await runCli(['rnu', '--no-color'], { ...opts, env: cliEnv(home.dir, { FORCE_COLOR: '1' }) });
    expect(forced.stderr).not.toContain('\u001b[');
    const colored = await runCli(['rnu'], { ...opts, env: cliEnv(home.dir, { FORCE_COLOR: '1' }) });
    expect(colored.stderr).toContain('\u001b[');
  });
});
