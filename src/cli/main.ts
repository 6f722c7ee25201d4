#!/usr/bin/env node
/**
 * The `corvid` executable. `--version` is answered from package.json without loading anything
 * else; every other command is imported on demand by `run-cli.ts`.
 */
import { readFileSync } from 'node:fs';

const VERSION_FLAGS = new Set(['--version', '-v', '-V']);
const QUIET_GLOBALS = new Set(['--no-color', '--debug']);

function isVersionRequest(args: string[]): boolean {
  return args.some((a) => VERSION_FLAGS.has(a)) && args.every((a) => VERSION_FLAGS.has(a) || QUIET_GLOBALS.has(a));
}

const argv = process.argv.slice(2);
if (isVersionRequest(argv)) {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    process.stdout.write(`${pkg.version ?? 'unknown'}\n`);
  } catch (err) {
    process.stderr.write(`corvid: cannot read the version from package.json: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
} else {
  const { runCli } = await import('./run-cli.js');
  await runCli(argv);
}
