/**
 * A realistic scripted turn for the UI's demo, tests and screenshots: read a file, grep, edit it (approval with a
 * diff), run the tests (approval with a command; they fail), edit again, run them green, answer in markdown.
 */
import type { TurnContext, TurnScript } from './fake-session.js';

const DIFF_1 = `--- a/src/sum.ts
+++ b/src/sum.ts
@@ -1,3 +1,3 @@
 export function sum(xs: number[]): number {
-  return xs.reduce((a, b) => a + b);
+  return xs.reduce((a, b) => a + b, 0);
 }
`;

const DIFF_2 = `--- a/test/sum.test.ts
+++ b/test/sum.test.ts
@@ -4,3 +4,3 @@
 test('empty', () => {
-  expect(sum([])).toBe(undefined);
+  expect(sum([])).toBe(0);
 });
`;

const ANSWER = `## Fixed: \`sum([])\` threw

The reducer had no initial value, so an empty array threw a \`TypeError\` (src/sum.ts:2).

- Gave \`reduce\` an initial value of \`0\`
- Updated the test that expected \`undefined\` (test/sum.test.ts:5)

\`\`\`ts
export function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}
\`\`\`

All **3 tests** pass now.`;

/** Options of `demoScript`. */
export interface DemoOptions {
  /** Pause between steps in ms (0 in tests). Default 0. */
  delayMs?: number;
}

let callId = 0;
async function call(ctx: TurnContext, step: number, toolName: string, input: unknown, output: unknown, isError = false): Promise<void> {
  const toolCallId = `call-${++callId}`;
  ctx.agent({ type: 'tool_call', step, toolCallId, toolName, input });
  ctx.agent({ type: 'tool_result', step, toolCallId, toolName, output, isError, durationMs: 12 });
}

async function stream(ctx: TurnContext, step: number, text: string, delayMs: number): Promise<void> {
  for (let i = 0; i < text.length; i += 12) {
    ctx.agent({ type: 'text_delta', step, delta: text.slice(i, i + 12) });
    if (delayMs) await ctx.wait(delayMs / 10);
  }
}

async function say(ctx: TurnContext, text: string): Promise<string> {
  ctx.agent({ type: 'text_delta', step: 9, delta: text });
  return text;
}

/** The scripted task. */
export function demoScript(options: DemoOptions = {}): TurnScript {
  const delay = options.delayMs ?? 0;
  return async (ctx) => {
    const pause = () => (delay ? ctx.wait(delay) : Promise.resolve());
    ctx.agent({ type: 'step_start', step: 1, maxSteps: 20 });
    ctx.agent({ type: 'reasoning_delta', step: 1, delta: 'The user reports a failing test.\nLet me look at sum.ts first.' });
    await pause();
    await call(ctx, 1, 'read_file', { path: 'src/sum.ts' }, { path: 'src/sum.ts', lines: '1-3', totalLines: 3, content: '…' });
    await call(
      ctx,
      1,
      'grep',
      { pattern: 'sum\\(', path: 'test' },
      { pattern: 'sum\\(', path: 'test', matches: 3, files: 1, output: '', engine: 'ripgrep' },
    );
    await pause();
    const edit = await ctx.approve({ toolName: 'edit_file', input: { path: 'src/sum.ts' }, preview: DIFF_1 });
    if (!edit.approved) return say(ctx, `Left src/sum.ts as it is${edit.reason ? ` (${edit.reason})` : ''}.`);
    await call(ctx, 2, 'edit_file', { path: 'src/sum.ts' }, { path: 'src/sum.ts', replacements: 1, diff: DIFF_1 });
    const run = await ctx.approve({ toolName: 'bash', input: { command: 'npm test' }, preview: 'npm test', prefix: 'npm test' });
    if (!run.approved) return say(ctx, 'Did not run the tests.');
    const toolCallId = `call-${++callId}`;
    ctx.agent({ type: 'tool_call', step: 3, toolCallId, toolName: 'bash', input: { command: 'npm test' } });
    await pause();
    const failed = {
      command: 'npm test',
      exitCode: 1,
      signal: null,
      stdout: ' ✓ sum adds\n ✓ sum negative\n ✗ empty: expected 0 to be undefined\n\nTests: 1 failed, 2 passed',
      stderr: '',
      durationMs: 1400,
    };
    ctx.agent({ type: 'tool_result', step: 3, toolCallId, toolName: 'bash', output: failed, isError: false, durationMs: 1400 });
    await call(ctx, 4, 'edit_file', { path: 'test/sum.test.ts' }, { path: 'test/sum.test.ts', replacements: 1, diff: DIFF_2 });
    const passed = { ...failed, exitCode: 0, stdout: ' ✓ sum adds\n ✓ sum negative\n ✓ empty\n\nTests: 3 passed' };
    await call(ctx, 5, 'bash', { command: 'npm test' }, passed);
    ctx.session.update({
      usage: { inputTokens: 18_400, outputTokens: 1_250, reasoningTokens: 0, cachedInputTokens: 0, totalTokens: 19_650 },
      costUsd: 0.047,
      contextPercent: 14,
    });
    ctx.agent({ type: 'step_start', step: 6, maxSteps: 20 });
    await stream(ctx, 6, ANSWER, delay);
    return ANSWER;
  };
}
