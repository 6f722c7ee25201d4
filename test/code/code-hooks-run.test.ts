/**
 * The hook runner of `corvid code` with real shell commands: the event JSON on stdin, the matcher on the whole tool
 * name, exit code 2 blocking with stderr as the reason, another exit code reported without blocking, and a hook that
 * outlives its timeout killed (with the process it started).
 */
import { describe, expect, it } from 'vitest';

import { CodeHooks } from '../../src/code/code-hooks.js';
import type { CodeHookRun } from '../../src/code/code-session-types.js';
import type { CodeHookConfig } from '../../src/config/code-config-schema.js';

function hooksOf(pre: CodeHookConfig[]): { hooks: CodeHooks; runs: CodeHookRun[] } {
  const runs: CodeHookRun[] = [];
  const hooks = new CodeHooks({
    hooks: { pre_tool_use: pre },
    cwd: process.cwd(),
    env: { PATH: process.env.PATH },
    sessionId: () => 'ses_1',
    onRun: (run) => runs.push(run),
  });
  return { hooks, runs };
}

describe('code hooks (real shell commands)', () => {
  it('reads the event on stdin; the matcher covers the whole name; exit 2 blocks with stderr', async () => {
    const { hooks, runs } = hooksOf([
      {
        matcher: 'write_file|edit_file',
        command: `node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const e=JSON.parse(s);console.error('no '+e.tool_input.path+' in '+e.session_id);process.exit(2)})"`,
        timeoutMs: 20_000,
      },
    ]);
    expect(hooks.has('pre_tool_use', 'write_file')).toBe(true);
    expect(hooks.has('pre_tool_use', 'write_file_2')).toBe(false);
    const r = await hooks.run('pre_tool_use', { tool_name: 'write_file', tool_input: { path: 'a.txt' } });
    expect(r.blocked).toBe('no a.txt in ses_1');
    expect(runs).toEqual([expect.objectContaining({ event: 'pre_tool_use', toolName: 'write_file', exitCode: 2, blocked: true })]);
  });

  it('another exit code is reported, not blocking; a hook past its timeout is killed', { timeout: 30_000 }, async () => {
    const { hooks, runs } = hooksOf([
      { command: 'echo broken >&2; exit 1', timeoutMs: 20_000 },
      { command: 'sleep 30', timeoutMs: 500 },
    ]);
    const started = Date.now();
    const r = await hooks.run('pre_tool_use', { tool_name: 'bash', tool_input: { command: 'ls' } });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.blocked).toBeUndefined();
    expect(runs.map((x) => [x.exitCode, x.blocked, x.output])).toEqual([
      [1, false, 'broken'],
      [null, false, 'timed out after 0.5s'],
    ]);
  });
});
