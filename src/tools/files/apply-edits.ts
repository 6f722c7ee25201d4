import { FileToolError } from './file-tool-error.js';
import { nearestCandidates } from './nearest-candidates.js';

/** One exact-text replacement. */
export interface TextEdit {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

/**
 * Applies `edits` in order to `text` (each on the result of the previous ones) and returns the
 * new text and how many replacements were made; throws a `FileToolError` for the model when an
 * edit matches nowhere (with the nearest candidates) or in several places without `replace_all`.
 */
export function applyEdits(text: string, edits: readonly TextEdit[], shown: string): { text: string; replacements: number; at?: number } {
  let current = text;
  let replacements = 0;
  let first = -1;
  edits.forEach((edit, i) => {
    const which = edits.length > 1 ? `edit ${i + 1} of ${edits.length}: ` : '';
    if (edit.old_string === '')
      throw new FileToolError(`${which}old_string is empty; give the exact text to replace (use write_file to create a file).`);
    if (edit.old_string === edit.new_string) throw new FileToolError(`${which}old_string and new_string are the same; nothing to change.`);
    const at = occurrences(current, edit.old_string);
    if (at.length === 0) {
      const hint = nearestCandidates(current, edit.old_string);
      throw new FileToolError(
        `${which}old_string was not found in ${shown}.${hint}\nNo change was made. Re-read the file and copy the text exactly (with its indentation).`,
      );
    }
    if (at.length > 1 && !edit.replace_all) {
      const lines = at.slice(0, 10).map((index) => lineOf(current, index));
      throw new FileToolError(
        `${which}old_string occurs ${at.length} times in ${shown} (lines ${lines.join(', ')}${at.length > 10 ? ', …' : ''}). ` +
          'No change was made. Include more surrounding text so it matches once, or set replace_all to replace every occurrence.',
      );
    }
    current =
      at.length === 1
        ? current.slice(0, at[0]) + edit.new_string + current.slice(at[0] + edit.old_string.length)
        : current.split(edit.old_string).join(edit.new_string);
    replacements += at.length;
    if (first === -1) first = at[0];
  });
  // `at`: where the only replacement happened, when there was exactly one (writers can splice bytes).
  return edits.length === 1 && replacements === 1 ? { text: current, replacements, at: first } : { text: current, replacements };
}

function occurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

/** 1-based line number of `index`. */
export function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
