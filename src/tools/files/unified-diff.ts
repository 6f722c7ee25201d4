/**
 * A unified diff of two texts (3 lines of context). Fast on large files with small changes: the
 * common start and end are skipped by comparing big slices, and only the changed middle is
 * diffed line by line (Myers' algorithm, falling back to one replaced block when the middle is
 * too different to be worth it).
 */

const CONTEXT = 3;
const MAX_EDIT_DISTANCE = 2000;

/** Options for `unifiedDiff`. */
export interface UnifiedDiffOptions {
  /** File name shown in the `---` / `+++` header lines. */
  path: string;
  /** The diff is cut after this many characters, with a note. Default 20000. */
  maxChars?: number;
}

type Op = { kind: ' ' | '-' | '+'; line: string; oldNo: number; newNo: number };

/** The unified diff between `before` and `after`, or `''` when they are equal. */
export function unifiedDiff(before: string, after: string, options: UnifiedDiffOptions): string {
  if (before === after) return '';
  const prefix = commonPrefix(before, after);
  const start = before.lastIndexOf('\n', prefix - 1) + 1; // start of the line where they differ
  const suffix = commonSuffix(before, after, start);
  const endOld = lineEnd(before, before.length - suffix);
  const endNew = after.length - (before.length - endOld);
  const firstLine = countLines(before, start);
  const a = splitLines(before.slice(start, endOld));
  const b = splitLines(after.slice(start, endNew));
  const ops = diffLines(a, b, firstLine);
  // Context around the changed middle comes from the unchanged parts.
  const headLines = linesBefore(before, start, CONTEXT);
  const tailLines = linesAfter(before, endOld, CONTEXT);
  const newFirst = firstLine; // same line number before the first change
  const all: Op[] = [
    ...headLines.map((line, i) => ({
      kind: ' ' as const,
      line,
      oldNo: firstLine - headLines.length + i,
      newNo: newFirst - headLines.length + i,
    })),
    ...ops,
  ];
  const last = all.length > 0 ? all[all.length - 1] : { oldNo: firstLine - 1, newNo: firstLine - 1 };
  let oldNo = last.oldNo;
  let newNo = last.newNo;
  for (const line of tailLines) all.push({ kind: ' ', line, oldNo: ++oldNo, newNo: ++newNo });
  const body = hunks(all).join('\n');
  const text = `--- a/${options.path}\n+++ b/${options.path}\n${body}`;
  const max = options.maxChars ?? 20_000;
  return text.length > max ? `${text.slice(0, max)}\n… (diff cut at ${max} characters)` : text;
}

const STEPS = [65536, 4096, 256, 16, 1];

/** Length of the common start of `a` and `b` (compares big slices first). */
function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  for (const step of STEPS) while (i + step <= n && a.slice(i, i + step) === b.slice(i, i + step)) i += step;
  return i;
}

/** Length of the common end of `a` and `b`, not reaching into their first `floor` characters. */
function commonSuffix(a: string, b: string, floor: number): number {
  const n = Math.min(a.length, b.length) - floor;
  let i = 0;
  for (const step of STEPS) {
    while (i + step <= n && a.slice(a.length - i - step, a.length - i) === b.slice(b.length - i - step, b.length - i)) i += step;
  }
  return i;
}

/** Start of the first whole line inside the common end (after a newline that is itself common). */
function lineEnd(text: string, commonFrom: number): number {
  const nl = text.indexOf('\n', commonFrom);
  return nl === -1 ? text.length : nl + 1;
}

function countLines(text: string, end: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Up to `count` whole lines ending at `end` (a line start). */
function linesBefore(text: string, end: number, count: number): string[] {
  let from = end;
  for (let i = 0; i < count && from > 0; i++) from = text.lastIndexOf('\n', from - 2) + 1;
  return splitLines(text.slice(from, end));
}

/** Up to `count` lines starting at `start` (a line start). */
function linesAfter(text: string, start: number, count: number): string[] {
  let to = start;
  for (let i = 0; i < count && to < text.length; i++) {
    const nl = text.indexOf('\n', to);
    to = nl === -1 ? text.length : nl + 1;
  }
  return splitLines(text.slice(start, to));
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Line ops between `a` and `b` (Myers), numbered from `first`. */
function diffLines(a: string[], b: string[], first: number): Op[] {
  const script = myers(a, b);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  const push = (kind: Op['kind']) => {
    if (kind === ' ') ops.push({ kind, line: a[i], oldNo: first + i++, newNo: first + j++ });
    else if (kind === '-') ops.push({ kind, line: a[i], oldNo: first + i++, newNo: first + j - 1 });
    else ops.push({ kind, line: b[j], oldNo: first + i - 1, newNo: first + j++ });
  };
  if (!script) {
    while (i < a.length) push('-');
    while (j < b.length) push('+');
    return ops;
  }
  for (const k of script) push(k);
  return ops;
}

/** Edit script of `a` → `b` (' ', '-', '+'), or `undefined` when it needs more than MAX_EDIT_DISTANCE edits. */
function myers(a: string[], b: string[]): Array<' ' | '-' | '+'> | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a.length, b.length, offset, d);
    }
  }
  return undefined;
}

function backtrack(trace: Int32Array[], n: number, m: number, offset: number, dEnd: number): Array<' ' | '-' | '+'> {
  const out: Array<' ' | '-' | '+'> = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = v[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push(' ');
      x--;
      y--;
    }
    out.push(x === prevX ? '+' : '-');
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    out.push(' ');
    x--;
    y--;
  }
  return out.reverse();
}

/** Groups ops into `@@` hunks with CONTEXT lines around changes. */
function hunks(ops: Op[]): string[] {
  const out: string[] = [];
  const changed = ops.map((o, i) => (o.kind === ' ' ? -1 : i)).filter((i) => i >= 0);
  let idx = 0;
  while (idx < changed.length) {
    const from = Math.max(0, changed[idx] - CONTEXT);
    let to = changed[idx];
    while (idx + 1 < changed.length && changed[idx + 1] - to <= 2 * CONTEXT) to = changed[++idx];
    idx++;
    const slice = ops.slice(from, Math.min(ops.length, to + CONTEXT + 1));
    const oldLines = slice.filter((o) => o.kind !== '+');
    const newLines = slice.filter((o) => o.kind !== '-');
    const oldStart = oldLines.length > 0 ? oldLines[0].oldNo : slice[0].oldNo;
    const newStart = newLines.length > 0 ? newLines[0].newNo : slice[0].newNo;
    out.push(`@@ -${oldStart},${oldLines.length} +${newStart},${newLines.length} @@`);
    for (const o of slice) out.push(`${o.kind}${o.line}`);
  }
  return out;
}
