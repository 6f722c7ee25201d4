/**
 * The status line under the input box: model, mode, sandbox, session tokens and cost, context use.
 */
import type { CodeMode, CodeStatus } from '../code-session-types.js';
import { type AnsiStyle, style } from './ansi.js';

const MODE_STYLE: Record<CodeMode, AnsiStyle> = { ask: 'blue', default: 'gray', 'auto-edit': 'yellow', plan: 'cyan', yolo: 'red' };

/** `12.3k` style token counts. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** A model name in `max` characters: without its provider (`claude-sonnet-4-5`), then cut with `…`. */
export function shortenModel(model: string, max: number): string {
  if (model.length <= max) return model;
  const name = model.slice(model.indexOf(':') + 1);
  return name.length <= max ? name : `${name.slice(0, max - 1)}…`;
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
  const sep = style('gray', ' │ ');
  // eslint-disable-next-line no-control-regex
  const visible = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '').length;
  const join = (model: string, withTokens: boolean): string =>
    [mode, style('gray', model), ...(withTokens ? [style('gray', tokens + cost)] : []), ctx, sandbox].join(sep);
  // Too wide: first the tokens go, then the model name is shortened (the context use and the sandbox flag stay).
  let line = join(status.model, true);
  if (visible(line) <= width) return line;
  line = join(status.model, false);
  if (visible(line) <= width) return line;
  const room = status.model.length - (visible(line) - width);
  if (room >= 8) return join(shortenModel(status.model, room), false);
  return [mode, ctx, sandbox].join(sep);
}
