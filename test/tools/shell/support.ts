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
