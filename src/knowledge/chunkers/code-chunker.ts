import { fitUnits, packUnits, type ChunkSizing, type TextPiece, type TextUnit } from './text-units.js';

/** A line that starts a top-level definition in common languages (TS/JS, Python, Go, Rust, Java, C#, Ruby, …). */
const DEFINITION =
  /^(export\s+|pub(\(\w+\))?\s+|public\s+|private\s+|protected\s+|static\s+|async\s+|default\s+|abstract\s+|final\s+)*(function\*?|class|interface|type|enum|const|let|var|def|fn|func|impl|struct|trait|module|namespace|record)\b|^@\w+/;

/**
 * Source code: blocks cut at blank lines and at the start of top-level definitions, packed into
 * chunks so a function or class stays whole when it fits; a block too big is cut at lines.
 */
export function codeChunks(text: string, sizing: ChunkSizing): TextPiece[] {
  const lines = text.split('\n');
  const units: TextUnit[] = [];
  let start = -1;
  let blank = false;
  const flush = (end: number): void => {
    if (start < 0) return;
    const body = lines.slice(start, end).join('\n').replace(/\n+$/, '');
    if (body.trim()) {
      const last = start + body.split('\n').length;
      units.push({ text: body, start: start + 1, end: last, tokens: sizing.counter.count(body), sep: '\n\n' });
    }
    start = -1;
  };
  lines.forEach((line, i) => {
    const isBlank = line.trim() === '';
    const topLevel = !isBlank && !/^\s/.test(line);
    const afterBlock = i > 0 && /^([}\])]|end\b)/.test(lines[i - 1]);
    const boundary = (topLevel && (blank || afterBlock)) || (DEFINITION.test(line) && !precededByDecorator(lines, i));
    if (boundary) flush(i);
    if (!isBlank && start < 0) start = i;
    blank = isBlank;
  });
  flush(lines.length);
  return packUnits(fitUnits(units, sizing), sizing);
}

/** A definition right under a decorator or doc comment stays with it. */
function precededByDecorator(lines: string[], i: number): boolean {
  const prev = lines[i - 1]?.trim() ?? '';
  return prev.startsWith('@') || prev.endsWith('*/') || prev.startsWith('///') || prev.startsWith('#[');
}
