import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { McpServerConfig } from '../../src/mcp/mcp-server-config.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const MODULES = join(ROOT, 'node_modules', '@modelcontextprotocol');
/** `@modelcontextprotocol/server-everything` (npm), started with node directly. */
export const EVERYTHING = join(MODULES, 'server-everything', 'dist', 'index.js');
/** `@modelcontextprotocol/server-filesystem` (npm). */
export const FILESYSTEM = join(MODULES, 'server-filesystem', 'dist', 'index.js');
/** Test servers of this suite. */
export const FIXTURES = join(import.meta.dirname, 'fixtures');
/** The built CLI. */
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');

export function everything(extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'], ...extra } as McpServerConfig;
}

export function fixture(name: string, extra: Partial<McpServerConfig> & { args?: string[] } = {}): McpServerConfig {
  const { args = [], ...rest } = extra;
  return { transport: 'stdio', command: process.execPath, args: [join(FIXTURES, name), ...args], ...rest } as McpServerConfig;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export function tempDir(prefix = 'corvid-mcp-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Whether a process id is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves when `check` returns true, polling on the event loop (bounded). */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

import type { AgentEvent } from '../../src/types/events.js';
import { RunState } from '../../src/types/run-state.js';
import type { Tool, ToolContext } from '../../src/types/tool.js';

/** Calls a Corvid tool as the run loop would, collecting the events it emits. */
export async function runTool(t: Tool, input: unknown, signal?: AbortSignal): Promise<{ output: unknown; events: AgentEvent[] }> {
  const events: AgentEvent[] = [];
  const ctx: ToolContext = {
    signal: signal ?? new AbortController().signal,
    agent: 'tester',
    path: ['tester'],
    runId: 'run_1',
    toolCallId: 'call_1',
    idempotencyKey: 'run_1:call_1',
    messages: [],
    emit: (e) => events.push(e),
    state: new RunState(),
  };
  const output = await t.execute(input, ctx);
  return { output, events };
}
