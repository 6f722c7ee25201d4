import { describe, expect, it } from 'vitest';

import type { CodeMode } from '../../../src/code/code-session-types.js';
import { stripAnsi } from '../../../src/code/tui/ansi.js';
import { commonPrefix, complete, mentionAt, slashHints } from '../../../src/code/tui/completion.js';
import { colorDiff } from '../../../src/code/tui/diff-ansi.js';
import { loadHighlighter } from '../../../src/code/tui/highlight-code.js';
import { initialInput, type InputAction, inputReducer } from '../../../src/code/tui/input-state.js';
import { markdownToAnsi } from '../../../src/code/tui/markdown-ansi.js';
import { MarkdownStream } from '../../../src/code/tui/markdown-stream.js';
import { formatStatus } from '../../../src/code/tui/status-line.js';
import { formatToolCall } from '../../../src/code/tui/tool-display.js';
import { TranscriptModel } from '../../../src/code/tui/transcript-model.js';
import { nextMode } from '../../../src/code/tui/use-keys.js';

const run = (actions: InputAction[], history: string[] = []) => actions.reduce(inputReducer, initialInput(history));

describe('markdown to ANSI', () => {
  it('renders headings, emphasis, lists, inline code and highlighted code blocks', async () => {
    await loadHighlighter();
    const out = markdownToAnsi('# Title\n\nSome **bold** and `code` &amp; <tags>.\n\n1. one\n2. two\n\n```ts\nconst a = "x"; // c\n```');
    expect(stripAnsi(out)).toBe('Title\n\nSome bold and code & <tags>.\n\n1. one\n2. two\n\n ts\n▏ const a = "x"; // c');
    expect(out).toContain('\u001b[1m'); // bold
    expect(out).toContain('\u001b[35mconst'); // keyword colour from highlight.js
    expect(out).toContain('\u001b[32m"x"'); // string colour
  });
});

describe('streamed markdown', () => {
  it('finishes blocks at blank lines outside code fences and keeps the tail live', () => {
    const s = new MarkdownStream();
    expect(s.push('Para one.\n\nPara')).toEqual(['Para one.']);
    expect(s.live).toBe('Para');
    expect(s.push(' two.\n\n```js\nlet a;\n\nlet b;\n')).toEqual(['Para two.']);
    expect(s.live).toBe('```js\nlet a;\n\nlet b;\n');
    expect(s.push('```\n\nEnd')).toEqual(['```js\nlet a;\n\nlet b;\n```']);
    expect(s.end()).toBe('End');
  });

  it('cuts a long code block into closed fences so the live tail stays short', () => {
    const s = new MarkdownStream({ maxLiveLines: 3 });
    const chunks = s.push('```py\n' + Array.from({ length: 7 }, (_, i) => `x${i}`).join('\n') + '\n');
    expect(chunks).toEqual(['```py\nx0\nx1\nx2\n```', '```py\nx3\nx4\nx5\n```']);
    expect(s.live).toBe('```py\nx6\n');
  });
});

describe('tool lines', () => {
  it('shows reads as one line, edits with a diff, shell commands with exit code and last lines', () => {
    const read = formatToolCall({
      toolName: 'read_file',
      input: { path: 'src/a.ts' },
      result: { output: { lines: '1-120', totalLines: 120 }, isError: false },
    });
    expect(stripAnsi(read)).toBe('● Read src/a.ts (120 lines)');
    const edit = formatToolCall({
      toolName: 'edit_file',
      input: { path: 'a.ts' },
      result: { output: { diff: '--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-old\n+new\n' }, isError: false },
    });
    expect(stripAnsi(edit)).toBe('● Edit a.ts (+1 -1)\n  @@ -1 +1 @@\n  -old\n  +new');
    const output = Array.from({ length: 12 }, (_, i) => `line ${i}`).join('\n');
    const bash = formatToolCall(
      {
        toolName: 'bash',
        input: { command: 'npm test' },
        result: { output: { exitCode: 1, stdout: output, stderr: '', durationMs: 2300 }, isError: false },
      },
      { shellTailLines: 3 },
    );
    expect(stripAnsi(bash)).toBe('● Bash npm test (exit 1 · 2.3s)\n  … 9 lines above (Ctrl-O shows all)\n  line 9\n  line 10\n  line 11');
    const failed = formatToolCall({
      toolName: 'read_file',
      input: { path: 'x' },
      result: { output: 'Tool "read_file" failed: x does not exist', isError: true },
    });
    expect(stripAnsi(failed)).toBe('● Read x (Tool "read_file" failed: x does not exist)');
    // A denied shell command reads like a denied edit: "denied: <reason>".
    const denied = formatToolCall({
      toolName: 'bash',
      input: { command: 'npm test' },
      result: { output: 'The user denied this call of "bash": The user said no: use node test.js', isError: true },
    });
    expect(stripAnsi(denied)).toBe('● Bash npm test (denied: use node test.js)');
  });

  it('Shift+Tab cycles every mode with the sandbox, and skips yolo (refused) without it', () => {
    const cycle = (sandbox: boolean): string[] => {
      const seen: CodeMode[] = ['default'];
      for (let i = 0; i < 5; i++) seen.push(nextMode(seen.at(-1)!, sandbox));
      return seen;
    };
    expect(cycle(true)).toEqual(['default', 'auto-edit', 'plan', 'yolo', 'ask', 'default']);
    expect(cycle(false)).toEqual(['default', 'auto-edit', 'plan', 'ask', 'default', 'auto-edit']);
  });

  it('colours diffs and elides the middle of long ones', () => {
    const diff = ['@@ -1,20 +1,20 @@', ...Array.from({ length: 20 }, (_, i) => `+l${i}`)].join('\n');
    const out = colorDiff(diff, { maxLines: 4 });
    expect(stripAnsi(out).split('\n')).toEqual(['@@ -1,20 +1,20 @@', '+l0', '… 17 more lines …', '+l18', '+l19']);
    expect(out).toContain('\u001b[32m+l0');
  });
});

describe('input editing', () => {
  it('edits, submits into the history and browses it with up/down keeping the draft', () => {
    let s = run([{ type: 'insert', text: 'first' }, { type: 'submit' }, { type: 'insert', text: 'second' }, { type: 'submit' }]);
    expect(s.history).toEqual(['first', 'second']);
    s = ([{ type: 'insert', text: 'dra' }, { type: 'up' }, { type: 'up' }] as InputAction[]).reduce(inputReducer, s);
    expect(s.value).toBe('first');
    s = ([{ type: 'down' }, { type: 'down' }] as InputAction[]).reduce(inputReducer, s);
    expect(s.value).toBe('dra');
  });

  it('moves between lines of a multi-line value before browsing the history', () => {
    const s = run([{ type: 'insert', text: 'ab\ncdef' }, { type: 'up' }], ['old']);
    expect(s.cursor).toBe(2);
    expect(s.value).toBe('ab\ncdef');
    expect(inputReducer(s, { type: 'up' }).value).toBe('old');
  });

  it('deletes words and to the start of the line', () => {
    expect(run([{ type: 'insert', text: 'npm run test' }, { type: 'deleteWord' }]).value).toBe('npm run ');
    expect(run([{ type: 'insert', text: 'a\nbcd' }, { type: 'deleteToStart' }]).value).toBe('a\n');
  });
});

describe('completion', () => {
  it('lists slash commands while typing and completes @paths through the session', async () => {
    expect(slashHints('/co')).toEqual(['/compact', '/cost']);
    expect(slashHints('/mode a')).toEqual([]);
    expect(mentionAt('look at @src/a', 14)).toEqual({ start: 8, prefix: 'src/a' });
    expect(commonPrefix(['src/app.ts', 'src/api.ts'])).toBe('src/ap');
    const paths = async (p: string) => ['src/app.ts', 'src/api.ts', 'test/'].filter((c) => c.startsWith(p));
    expect(await complete('see @src/a', 10, paths)).toEqual({ value: 'see @src/ap', cursor: 11, candidates: ['src/app.ts', 'src/api.ts'] });
    expect(await complete('see @te', 7, paths)).toEqual({ value: 'see @test/', cursor: 10, candidates: [] });
    expect(await complete('/und', 4, paths)).toEqual({ value: '/undo ', cursor: 6, candidates: [] });
  });
});

describe('status line and transcript model', () => {
  it('shows mode, model, tokens, cost, context and sandbox, dropping parts that do not fit', () => {
    const status = {
      sessionId: 's',
      model: 'anthropic:claude-sonnet-4-5',
      mode: 'auto-edit' as const,
      usage: { inputTokens: 123_456, outputTokens: 2_100, reasoningTokens: 0, cachedInputTokens: 0, totalTokens: 125_556 },
      costUsd: 0.4,
      contextPercent: 61.6,
      busy: false,
      sandbox: false,
      cwd: '/p',
    };
    expect(stripAnsi(formatStatus(status, 120))).toBe(
      '⏵ auto-edit │ anthropic:claude-sonnet-4-5 │ 123k in · 2.1k out · $0.400 │ ctx 62% │ no sandbox',
    );
    // Narrower: the tokens go first, then the model name is shortened; the context use and sandbox flag stay.
    expect(stripAnsi(formatStatus(status, 70))).toBe('⏵ auto-edit │ anthropic:claude-sonnet-4-5 │ ctx 62% │ no sandbox');
    expect(stripAnsi(formatStatus(status, 55))).toBe('⏵ auto-edit │ claude-sonnet-4-5 │ ctx 62% │ no sandbox');
    expect(stripAnsi(formatStatus(status, 50))).toBe('⏵ auto-edit │ claude-sonne… │ ctx 62% │ no sandbox');
  });

  it('turns a resumed conversation into items, pairing tool calls with their results', () => {
    const m = new TranscriptModel();
    m.replace([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'glob', input: { pattern: '*.ts' } }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'glob', output: { type: 'json', value: { files: ['a.ts'] } } }],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'One file.' }] },
    ]);
    expect(m.items.map((i) => i.kind)).toEqual(['user', 'tool', 'markdown']);
    const tool = m.items[1];
    expect(tool.kind === 'tool' && stripAnsi(formatToolCall(tool.call))).toBe('● Glob *.ts (1 file)');
  });
});
