/**
 * The status line under the input box: model, mode, sandbox, session tokens and cost, context use.
 */
import type { CodeMode, CodeStatus } from '../code-session-types.js';
import { type AnsiStyle, style } from './ansi.js';

const MODE_STYLE: Record<CodeMode, AnsiStyle> = { ask: 'blue', default: 'gray', 'auto-edit': 'yellow', yolo: 'red' };

/** `12.3k` style token counts. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** The status line (ANSI), cut to `width`. */
export function formatStatus(status: CodeStatus, width: number): string {
  const mode = style(MODE_STYLE[status.mode], `⏵ ${status.mode}`);
  if (status.starting) return mode + style('gray', ' │ starting…');
  const tokens = `${formatTokens(status.usage.inputTokens)} in · ${formatTokens(status.usage.outputTokens)} out`;
  const cost = status.costUsd !== undefined ? ` · $${status.costUsd.toFixed(status.costUsd < 1 ? 3 : 2)}` : '';
  const pct = Math.round(status.contextPercent);
  const ctx = style(pct >= 85 ? 'red' : pct >= 60 ? 'yellow' : 'gray', `ctx ${pct}%`);
  const sandbox = status.sandbox ? style('green', 'sandbox') : style('yellow', 'no sandbox');
  const parts = [mode, style('gray', status.model), style('gray', tokens + cost), ctx, sandbox];
  let line = parts.join(style('gray', ' │ '));
  // Drop parts from the end until it fits (the mode always stays).
  // eslint-disable-next-line no-control-regex
  const visible = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '').length;
  while (visible(line) > width && parts.length > 1) {
    parts.splice(parts.length - 1, 1);
    line = parts.join(style('gray', ' │ '));
  }
  return line;
}
