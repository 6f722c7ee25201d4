/**
 * Colouring of unified diffs (edit previews and results, `/diff`): additions green, removals red, hunk headers
 * cyan, file headers bold. Long diffs keep their head and tail around a "… N lines …" marker.
 */
import { style } from './ansi.js';

/** Options of `colorDiff`. */
export interface ColorDiffOptions {
  /** Most lines shown; the middle of a longer diff is elided. Default: all. */
  maxLines?: number;
  /** Said in the elision marker, e.g. ` (v shows all)`. */
  more?: string;
}

/** True when `text` looks like a unified diff. */
export function looksLikeDiff(text: string): boolean {
  return /^(?:--- |\+\+\+ |@@ |diff --git )/m.test(text);
}

/** `diff` with ANSI colours, one line per diff line. */
export function colorDiff(diff: string, options: ColorDiffOptions = {}): string {
  let lines = diff.replace(/\n$/, '').split('\n');
  const max = options.maxLines;
  if (max !== undefined && lines.length > max) {
    const head = Math.ceil(max / 2);
    const tail = max - head;
    lines = [...lines.slice(0, head), `… ${lines.length - max} more lines${options.more ?? ''} …`, ...lines.slice(lines.length - tail)];
  }
  return lines.map(colorLine).join('\n');
}

function colorLine(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') || line.startsWith('index ')) return style('bold', line);
  if (line.startsWith('@@')) return style('cyan', line);
  if (line.startsWith('+')) return style('green', line);
  if (line.startsWith('-')) return style('red', line);
  if (line.startsWith('… ')) return style('gray', line);
  return line;
}
