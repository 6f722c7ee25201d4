/**
 * Renders transcript items to ANSI strings (pure): each finished item is printed once as one `<Text>`.
 */
import { style } from './ansi.js';
import { colorDiff, looksLikeDiff } from './diff-ansi.js';
import { formatToolCall, tail } from './tool-display.js';
import type { TranscriptItem } from './transcript-model.js';

/** How items are rendered. */
export interface ItemViewOptions {
  width: number;
  /** The expanded view (Ctrl-O): reasoning in full (dimmed) instead of one collapsed line, whole diffs and outputs. */
  showReasoning: boolean;
  /** Markdown to ANSI (plain text until the renderer has loaded). */
  markdown: (text: string, width: number) => string;
}

/** Blank line before items of these kinds (separates turns and answers from tool lines). */
export function spacedBefore(item: TranscriptItem): boolean {
  return item.kind === 'user' || item.kind === 'markdown' || item.kind === 'notice' || item.kind === 'shell';
}

/** The item as ANSI text, or `undefined` when it shows nothing. */
export function renderItem(item: TranscriptItem, o: ItemViewOptions): string | undefined {
  switch (item.kind) {
    case 'user':
      // Continuation lines of a multi-line message line up under its first line.
      return style('bold', style('cyan', '❯ ')) + style('bold', item.text.split('\n').join('\n  '));
    case 'markdown':
      return o.markdown(item.text, o.width - item.depth * 2);
    case 'reasoning':
      return renderReasoning(item.text, o.showReasoning);
    case 'tool':
      // Ctrl-O (the expanded view) shows whole diffs and shell outputs.
      return formatToolCall(item.call, {
        width: o.width - item.depth * 2,
        ...(o.showReasoning ? { shellTailLines: Infinity, diffLines: Infinity } : {}),
      });
    case 'notice':
      return renderNotice(item.level, item.text);
    case 'shell': {
      const code = item.exitCode === null ? 'killed' : `exit ${item.exitCode}`;
      const out = tail(item.output, 20);
      const head = `${style(item.exitCode === 0 ? 'green' : 'red', '!')} ${style('bold', item.command)} ${style('gray', `(${code})`)}`;
      return out ? `${head}\n${out}` : head;
    }
    case 'event':
      return style('gray', item.text);
    case 'turn_end':
      return renderTurnEnd(item);
    default: {
      const never: never = item;
      return never;
    }
  }
}

/** Reasoning: the text dimmed, or one collapsed line. */
export function renderReasoning(text: string, expanded: boolean): string {
  if (expanded) return style('dim', style('italic', `∴ ${text}`));
  const lines = text.split('\n').length;
  return style('dim', `∴ Thought for ${lines} line${lines === 1 ? '' : 's'} (Ctrl-O to show)`);
}

function renderNotice(level: 'info' | 'warning' | 'error', text: string): string {
  const body = looksLikeDiff(text) ? colorDiff(text) : text;
  if (level === 'error') return style('red', `✗ ${body}`);
  if (level === 'warning') return style('yellow', `⚠ ${body}`);
  return body;
}

function renderTurnEnd(item: Extract<TranscriptItem, { kind: 'turn_end' }>): string | undefined {
  const r = item.result;
  if (r.status === 'cancelled') return style('yellow', '⏹ Cancelled');
  if (r.status === 'failed') return style('red', `✗ ${r.error ?? 'The turn failed.'}`);
  if (r.changedFiles.length === 0) return undefined;
  const files =
    r.changedFiles.length > 4 ? `${r.changedFiles.slice(0, 4).join(', ')} +${r.changedFiles.length - 4}` : r.changedFiles.join(', ');
  return style('gray', `✓ changed ${files} (/undo reverts, /diff shows)`);
}
