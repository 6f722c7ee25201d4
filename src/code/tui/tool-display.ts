/**
 * How a tool call looks in the transcript: reads and searches as one compact line (`● Read src/a.ts (120 lines)`),
 * edits as a line plus a coloured unified diff, shell commands as a line plus exit code and the last lines of output.
 * Unknown tools (MCP, custom) show their name and a short rendering of their arguments.
 */
import { style } from './ansi.js';
import { colorDiff } from './diff-ansi.js';

/** A tool call and, once it finished, its result. */
export interface ToolCallView {
  toolName: string;
  input: unknown;
  /** Absent while the call runs. */
  result?: { output: unknown; isError: boolean; durationMs?: number };
}

/** Options of `formatToolCall`. */
export interface ToolDisplayOptions {
  /** Last lines of shell output shown. Default 8 (`Infinity`: all, the expanded view). */
  shellTailLines?: number;
  /** Most diff lines shown. Default 40. */
  diffLines?: number;
  /** Width available for the line. Default 80. */
  width?: number;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : /(?:s|x|ch|sh)$/.test(word) ? 'es' : 's'}`;

/** The call's display: a head line, and for edits and shell commands a block under it (ANSI). */
export function formatToolCall(call: ToolCallView, options: ToolDisplayOptions = {}): string {
  const { title, detail, block } = describe(call, options);
  const bullet = !call.result ? style('gray', '○') : call.result.isError ? style('red', '●') : style('green', '●');
  const width = options.width ?? 80;
  const head = `${bullet} ${style('bold', title)} ${clip(detail.head, Math.max(10, width - title.length - 4))}`.trimEnd();
  const note = detail.note ? ' ' + style(call.result?.isError ? 'red' : 'gray', `(${detail.note})`) : '';
  const body = block ? '\n' + indent(block) : '';
  return head + note + body;
}

interface Described {
  title: string;
  detail: { head: string; note?: string };
  block?: string;
}

function describe(call: ToolCallView, options: ToolDisplayOptions): Described {
  const input = obj(call.input);
  const r = call.result;
  const out = obj(r?.output);
  const err = r?.isError ? errorNote(str(r.output)) : undefined;
  const done = r && !r.isError;
  switch (call.toolName) {
    case 'read_file':
      return { title: 'Read', detail: { head: str(input.path), note: err ?? (done ? readNote(out) : undefined) } };
    case 'list_dir':
      return { title: 'List', detail: { head: str(input.path) || '.', note: err ?? (done ? countNote(out.entries, 'entry') : undefined) } };
    case 'glob':
      return { title: 'Glob', detail: { head: str(input.pattern), note: err ?? (done ? countNote(out.files, 'file') : undefined) } };
    case 'grep':
    case 'search_files': {
      const where = input.path ? ` in ${str(input.path)}` : '';
      const note = done ? `${plural(Number(out.matches ?? 0), 'match')} in ${plural(Number(out.files ?? 0), 'file')}` : undefined;
      return { title: 'Grep', detail: { head: `"${str(input.pattern)}"${where}`, note: err ?? note } };
    }
    case 'edit_file':
    case 'multi_edit':
    case 'write_file':
      return editDisplay(call.toolName, input, out, err, options);
    case 'bash':
    case 'shell':
      return shellDisplay(input, r, options);
    case 'todo_write': {
      const todos = Array.isArray(input.todos) ? (input.todos as Obj[]) : [];
      const doneCount = todos.filter((t) => t.status === 'completed').length;
      return { title: 'Todos', detail: { head: `${doneCount}/${todos.length} done`, note: err } };
    }
    case 'exit_plan_mode': {
      const why = r?.isError ? /did not approve the plan(?::\s*([\s\S]*?))?\.? Stay in plan mode/.exec(str(r.output))?.[1] : undefined;
      const head = !r ? 'waiting for approval' : r.isError ? `not approved${why ? `: ${why}` : ''}` : 'approved';
      return { title: 'Plan', detail: { head } };
    }
    default:
      return { title: call.toolName, detail: { head: argsSummary(input), note: err ?? (done ? summary(r.output) : undefined) } };
  }
}

function editDisplay(name: string, input: Obj, out: Obj, err: string | undefined, options: ToolDisplayOptions): Described {
  const title = name === 'write_file' ? 'Write' : 'Edit';
  const diff = typeof out.diff === 'string' ? out.diff : '';
  let note = err;
  if (!err && diff) note = diffStat(diff);
  else if (!err && name === 'write_file' && out.action) note = `${str(out.action)}, ${plural(Number(out.bytes ?? 0), 'byte')}`;
  const block =
    !err && diff ? colorDiff(stripFileHeaders(diff), { maxLines: options.diffLines ?? 40, more: ' (Ctrl-O shows all)' }) : undefined;
  return { title, detail: { head: str(input.path), note }, block };
}

function shellDisplay(input: Obj, r: ToolCallView['result'], options: ToolDisplayOptions): Described {
  const command = str(input.command);
  if (!r) return { title: 'Bash', detail: { head: command } };
  if (r.isError || typeof r.output === 'string') {
    const text = str(r.output);
    return { title: 'Bash', detail: { head: command, note: r.isError ? errorNote(text) : firstLine(text) } };
  }
  const out = obj(r.output);
  const code = out.exitCode === null ? `killed${out.signal ? ` by ${str(out.signal)}` : ''}` : `exit ${str(out.exitCode)}`;
  const secs = typeof out.durationMs === 'number' ? ` · ${(out.durationMs / 1000).toFixed(1)}s` : '';
  const text = [str(out.stdout), str(out.stderr)].filter((s) => s.trim() !== '').join('\n');
  const block = tail(text, options.shellTailLines ?? 8);
  const failed = out.exitCode !== 0;
  return {
    title: 'Bash',
    detail: { head: command, note: `${code}${secs}${out.timedOut ? ', timed out' : ''}` },
    block: block ? (failed ? style('red', block) : style('gray', block)) : undefined,
  };
}

/** The last `n` lines of `text` (with a count of the lines left out), or `''`. */
export function tail(text: string, n: number): string {
  const lines = text.replace(/\s+$/, '').split('\n');
  if (lines.length === 1 && lines[0] === '') return '';
  if (lines.length <= n) return lines.join('\n');
  return [`… ${lines.length - n} lines above (Ctrl-O shows all)`, ...lines.slice(-n)].join('\n');
}

function readNote(out: Obj): string | undefined {
  if (typeof out.totalLines !== 'number') return undefined;
  const range = str(out.lines).split(' ')[0];
  const all = range === `1-${out.totalLines}` || out.totalLines === 0;
  return all ? plural(out.totalLines, 'line') : `lines ${range} of ${out.totalLines}`;
}

const countNote = (v: unknown, word: string): string | undefined =>
  Array.isArray(v) ? (word === 'entry' ? `${v.length} ${v.length === 1 ? 'entry' : 'entries'}` : plural(v.length, word)) : undefined;

/** `+a -r` of a unified diff. */
export function diffStat(diff: string): string {
  let add = 0;
  let del = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) add++;
    else if (line.startsWith('-') && !line.startsWith('---')) del++;
  }
  return `+${add} -${del}`;
}

const stripFileHeaders = (diff: string): string =>
  diff
    .split('\n')
    .filter((l) => !l.startsWith('--- ') && !l.startsWith('+++ ') && !l.startsWith('Index: ') && !/^=+$/.test(l))
    .join('\n');

function argsSummary(input: Obj): string {
  const parts = Object.entries(input).map(([k, v]) => `${k}: ${clip(typeof v === 'string' ? v : JSON.stringify(v), 40)}`);
  return parts.join(', ');
}

function summary(output: unknown): string | undefined {
  const text = typeof output === 'string' ? output : JSON.stringify(output);
  return text === undefined ? undefined : clip(firstLine(text), 60);
}

const firstLine = (s: string): string => s.split('\n')[0] ?? '';

/** The note of a failed call: its first line; a denial as `denied` with the user's reason, if any. */
function errorNote(output: string): string {
  const line = firstLine(output);
  const denial = /^The user denied this call of "[^"]*"[.:]?\s*(.*)$/.exec(line);
  if (!denial) return line;
  const reason = denial[1].replace(/^The user said no[.:]?\s*/, '');
  return reason ? `denied: ${reason}` : 'denied';
}
const clip = (s: string, n: number): string => (s.length > n ? s.slice(0, Math.max(1, n - 1)) + '…' : s);
const indent = (s: string): string =>
  s
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
