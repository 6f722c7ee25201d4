import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach } from 'vitest';

import { findBwrap } from '../../../src/tools/shell/bwrap-sandbox.js';
import type { ShellToolResult } from '../../../src/tools/shell/index.js';
import type { Tool, ToolContext } from '../../../src/types/tool.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * A temp folder (under `base`; the sandbox tests use /var/tmp, which the sandbox shows read-only,
 * while /tmp is private to it) with a workspace `ws/` and, beside it, `outside/secret.txt` (the canary no command may touch). */
export function playground(base = tmpdir()): { root: string; ws: string; outside: string; secret: string } {
  const root = mkdtempSync(join(base, 'corvid-shell-'));
  dirs.push(root);
  const ws = join(root, 'ws');
  const outside = join(root, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'canary');
  writeFileSync(join(ws, 'notes.txt'), 'hello\n');
  return { root, ws, outside, secret: join(outside, 'secret.txt') };
}

/** The canary is still there, unchanged, and nothing else appeared beside it. */
export function canaryIntact(p: { outside: string; secret: string }): boolean {
  try {
    return readFileSync(p.secret, 'utf8') === 'canary' && readdirSync(p.outside).join(',') === 'secret.txt';
  } catch {
    return false;
  }
}

/** A tool context for direct calls. */
export function context(signal: AbortSignal = new AbortController().signal): ToolContext {
  return {
    signal,
    agent: 'test',
    path: ['test'],
    runId: 'r1',
    toolCallId: 'c1',
    idempotencyKey: 'r1:c1',
    messages: [],
    state: {} as ToolContext['state'],
  };
}

/** Runs a command: the result, or the refusal's message. */
export async function attempt(tool: Tool, command: string): Promise<{ result?: ShellToolResult; refused?: string }> {
  try {
    return { result: (await tool.execute({ command }, context())) as ShellToolResult };
  } catch (err) {
    return { refused: err instanceof Error ? err.message : String(err) };
  }
}

export const bwrapInstalled = findBwrap() !== undefined;
if (!bwrapInstalled)
  console.warn('[shell tests] bubblewrap (bwrap) is not installed: the sandbox tests are skipped; apt-get install bubblewrap');

/** Live processes whose command line contains `marker`. */
export function processesWith(marker: string): number {
  let n = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) n++;
    } catch {
      /* gone */
    }
  }
  return n;
}

/** Waits until no live process has `marker` in its command line (killed processes take a moment to go); returns how many are left. */
export async function processesGone(marker: string, withinMs = 3000): Promise<number> {
  const deadline = Date.now() + withinMs;
  let left = processesWith(marker);
  while (left > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setImmediate(resolve));
    left = processesWith(marker);
  }
  return left;
}

/** The secrets of `hostPlayground`: none may ever appear in a command's output. */
export const SECRETS = {
  parent: 'corvid-secret-parent-5b1e',
  ssh: 'corvid-secret-ssh-key-77c2',
  env: 'corvid-secret-dotenv-9d04',
  config: 'corvid-secret-config-31aa',
  server: 'corvid-secret-server-e0f3',
} as const;

/**
 * A host in a temp folder: `parent/` holds `secret.txt`, `keep.txt` (a scratch sibling `rm -rf ../*`
 * must not delete) and the workspace `parent/ws/` (with `.env`, `corvid.yaml` — the runtime's config
 * file — and `notes.txt`); `home/` is a fake home with `.ssh/id_rsa`. The real home is never used.
 */
export function hostPlayground(): { root: string; parent: string; ws: string; home: string; config: string } {
  const root = mkdtempSync(join(tmpdir(), 'corvid-host-'));
  dirs.push(root);
  const parent = join(root, 'parent');
  const ws = join(parent, 'ws');
  const home = join(root, 'home');
  mkdirSync(ws, { recursive: true });
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(parent, 'secret.txt'), SECRETS.parent);
  writeFileSync(join(parent, 'keep.txt'), 'keep');
  writeFileSync(join(home, '.ssh', 'id_rsa'), SECRETS.ssh);
  writeFileSync(join(ws, '.env'), `OPENAI_API_KEY=${SECRETS.env}\n`);
  writeFileSync(join(ws, 'corvid.yaml'), `# ${SECRETS.config}\n`);
  writeFileSync(join(ws, 'notes.txt'), 'hello\n');
  return { root, parent, ws, home, config: join(ws, 'corvid.yaml') };
}

/** What is on disk outside the workspace of a `hostPlayground` (compared before and after each attack). */
export function outsideState(p: { parent: string; home: string }): string {
  const list = (dir: string) => readdirSync(dir).sort().join(',');
  return [
    list(p.parent),
    readFileSync(join(p.parent, 'secret.txt'), 'utf8'),
    readFileSync(join(p.parent, 'keep.txt'), 'utf8'),
    list(p.home),
    list(join(p.home, '.ssh')),
    readFileSync(join(p.home, '.ssh', 'id_rsa'), 'utf8'),
  ].join('|');
}
