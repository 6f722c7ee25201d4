import { applyEdits, type TextEdit } from './apply-edits.js';
import { FileToolError } from './file-tool-error.js';
import type { FilesSetup } from './files-setup.js';
import { readTextBytes, writeFileAtomic } from './text-file.js';
import { unifiedDiff } from './unified-diff.js';

/** What `edit_file` and `multi_edit` return. */
export interface EditOutput {
  /** The file, as shown to the model. */
  path: string;
  /** Replacements made. */
  replacements: number;
  /** Unified diff of the change. */
  diff: string;
}

/** Reads `path`, applies `edits` all-or-nothing and (unless `dryRun`) writes the result atomically. */
export async function runEdits(setup: FilesSetup, path: string, edits: readonly TextEdit[], dryRun = false): Promise<EditOutput> {
  if (edits.length === 0) throw new FileToolError('no edits given.');
  const file = await setup.policy.check(path, 'write');
  const shown = setup.policy.display(file.path);
  if (!file.stats) throw new FileToolError(`${shown} does not exist; use write_file to create it.`);
  const { text: before, bytes } = await readTextBytes(file.path, shown, setup.maxFileBytes);
  const { text: after, replacements, at } = applyEdits(before, edits, shown);
  if (!dryRun) {
    // One replacement in an ASCII file: write the old bytes around the new text, no re-encoding.
    const ascii = bytes.length === before.length && !before.includes('\uFFFD');
    const content =
      ascii && at !== undefined
        ? [bytes.subarray(0, at), Buffer.from(edits[0].new_string, 'utf8'), bytes.subarray(at + edits[0].old_string.length)]
        : after;
    await writeFileAtomic(file.path, content, file.stats.mode & 0o7777);
  }
  return { path: shown, replacements, diff: unifiedDiff(before, after, { path: shown }) };
}

/** The diff an edit would make, for the approval prompt (or why it would fail). */
export async function previewEdits(setup: FilesSetup, path: string, edits: readonly TextEdit[]): Promise<string> {
  try {
    return (await runEdits(setup, path, edits, true)).diff;
  } catch (err) {
    return `(this edit would fail: ${err instanceof Error ? err.message : String(err)})`;
  }
}
