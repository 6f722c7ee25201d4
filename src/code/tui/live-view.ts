/**
 * The live part of the screen, under the printed transcript: the streaming answer's tail, reasoning while it
 * streams, running tools, the input box or the approval prompt, hints and the status line. Everything here is
 * re-rendered on each update, so it is kept shorter than the terminal (taller frames make Ink redraw the whole
 * screen, which flickers).
 */
import { Box, Text } from 'ink';
import { createElement as h, type ReactNode } from 'react';

import { style } from './ansi.js';
import { type InputState } from './input-state.js';
import { renderMarkdown } from './renderers.js';
import { formatToolCall } from './tool-display.js';
import type { TranscriptModel } from './transcript-model.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The last `maxRows` terminal rows of `text` at `width` columns (long lines wrap). */
export function lastRows(text: string, width: number, maxRows: number): string {
  const lines = text.split('\n');
  let rows = 0;
  let i = lines.length;
  while (i > 0) {
    // eslint-disable-next-line no-control-regex
    const len = lines[i - 1].replace(/\u001b\[[0-9;]*m/g, '').length;
    const r = Math.max(1, Math.ceil(len / Math.max(1, width)));
    if (rows + r > maxRows) break;
    rows += r;
    i--;
  }
  return lines.slice(i).join('\n');
}

/** Props of `LiveArea`. */
export interface LiveAreaProps {
  model: TranscriptModel;
  width: number;
  /** Rows the streaming text may use. */
  maxRows: number;
  showReasoning: boolean;
  frame: number;
}

/** The streaming tail, live reasoning and running tools. */
export function LiveArea(p: LiveAreaProps): ReactNode {
  const parts: ReactNode[] = [];
  const { model, width } = p;
  if (model.liveReasoning) {
    const text = p.showReasoning
      ? style('dim', style('italic', lastRows(`∴ ${model.liveReasoning.trim()}`, width, Math.min(8, p.maxRows))))
      : style('dim', `∴ Thinking… (${model.liveReasoning.split('\n').length} lines, Ctrl-O to show)`);
    parts.push(h(Text, { key: 'r' }, text));
  }
  const live = model.liveText;
  if (live.text.trim()) {
    const md = renderMarkdown(live.text, width - live.depth * 2);
    parts.push(
      h(Box, { key: 't', marginTop: 1, paddingLeft: live.depth * 2 }, h(Text, null, lastRows(md, width - live.depth * 2, p.maxRows))),
    );
  }
  for (const r of model.running) {
    const secs = Math.floor((Date.now() - r.startedAt) / 1000);
    const line = formatToolCall(r.call, { width: width - r.depth * 2 }).replace(/^\S+/, style('cyan', SPINNER[p.frame % SPINNER.length]));
    parts.push(
      h(Box, { key: r.toolCallId, paddingLeft: r.depth * 2 }, h(Text, null, secs >= 1 ? `${line} ${style('gray', `${secs}s`)}` : line)),
    );
  }
  if (model.busy && model.running.length === 0 && !live.text.trim() && !model.liveReasoning && model.approvals.length === 0) {
    parts.push(
      h(Text, { key: 'w' }, `${style('cyan', SPINNER[p.frame % SPINNER.length])} ${style('gray', 'Working… (Esc to interrupt)')}`),
    );
  }
  return parts.length ? h(Box, { flexDirection: 'column' }, ...parts) : null;
}

/** The input box: a prompt sign, the value with its cursor, over as many lines as it has. */
export function InputBox(p: { input: InputState; width: number; placeholder: string; focused: boolean }): ReactNode {
  const { value, cursor } = p.input;
  let shown: string;
  if (value === '') shown = (p.focused ? style('inverse', ' ') : '') + style('gray', p.placeholder);
  else {
    const at = value[cursor];
    const cur = at === undefined || at === '\n' ? style('inverse', ' ') + (at ?? '') : style('inverse', at);
    shown = p.focused ? value.slice(0, cursor) + cur + value.slice(cursor + 1) : value;
  }
  const lines = shown.split('\n');
  return h(
    Box,
    { borderStyle: 'round', borderColor: 'gray', paddingX: 1, width: p.width, flexDirection: 'column' },
    ...lines.map((line, i) => h(Text, { key: i }, (i === 0 ? style('cyan', '❯ ') : '  ') + line)),
  );
}
