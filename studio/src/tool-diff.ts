/**
 * Diffs in tool calls: a unified diff in a tool's arguments or result (`patch`, `diff`), or an edit given as
 * old and new text (`old_string`/`new_string`, `oldText`/`newText`, …), as lines to colour.
 */

/** A line of a diff and how to show it. */
export interface DiffLine {
  kind: 'add' | 'del' | 'hunk' | 'meta' | 'same';
  text: string;
}

/** Whether a text looks like a unified diff. */
export function isUnifiedDiff(text: string): boolean {
  return /^(diff --git |--- \S|@@ -\d)/m.test(text) && /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m.test(text);
}

/** The lines of a unified diff, classified. */
export function unifiedDiffLines(text: string): DiffLine[] {
  return text.split('\n').map((line) => ({ kind: classify(line), text: line }));
}

function classify(line: string): DiffLine['kind'] {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') || line.startsWith('index ')) return 'meta';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return 'same';
}

const EDIT_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['old_string', 'new_string'],
  ['oldText', 'newText'],
  ['old_text', 'new_text'],
  ['old', 'new'],
  ['search', 'replace'],
];

/**
 * The diff a tool call shows: a unified diff found in a string field (or the value itself), or an old/new text
 * pair of an edit as removed and added lines. Undefined when there is none.
 */
export function diffOf(value: unknown): DiffLine[] | undefined {
  if (typeof value === 'string') return isUnifiedDiff(value) ? unifiedDiffLines(value) : undefined;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  for (const [before, after] of EDIT_PAIRS) {
    const a = record[before];
    const b = record[after];
    if (typeof a === 'string' && typeof b === 'string') {
      const file = typeof record.path === 'string' ? record.path : typeof record.file_path === 'string' ? record.file_path : undefined;
      const head: DiffLine[] = file ? [{ kind: 'meta', text: file }] : [];
      return [
        ...head,
        ...a.split('\n').map((text) => ({ kind: 'del' as const, text: `-${text}` })),
        ...b.split('\n').map((text) => ({ kind: 'add' as const, text: `+${text}` })),
      ];
    }
  }
  for (const field of Object.values(record)) if (typeof field === 'string' && isUnifiedDiff(field)) return unifiedDiffLines(field);
  return undefined;
}

/**
 * An approval's prompt split into its first line (the question) and what follows it: the tool's preview of the
 * call (a diff, a command), as diff lines when it is a diff, else as text.
 */
export function splitApprovalPrompt(prompt: string): { title: string; diff?: DiffLine[]; preview?: string } {
  const newline = prompt.indexOf('\n');
  if (newline < 0) return { title: prompt };
  const title = prompt.slice(0, newline).trim();
  const rest = prompt.slice(newline + 1).replace(/\s+$/, '');
  if (rest === '') return { title };
  return isUnifiedDiff(rest) ? { title, diff: unifiedDiffLines(rest) } : { title, preview: rest };
}
