/**
 * File tools confined to folders by a `PathPolicy`: `read_file`, `write_file`, `edit_file`,
 * `multi_edit`, `list_dir`, `glob`, `grep` and `search_files` (an alias of `grep`).
 * @example
 * import { fileTools } from 'corvid/tools';
 * const agent = new Agent({ name: 'coder', model, tools: fileTools({ root: './project', deny: ['.env'] }) });
 */
import { stat } from 'node:fs/promises';

import type { Tool } from '../../types/tool.js';
import { createEditFile } from './edit-file.js';
import type { FileToolOptions } from './file-tool-options.js';
import { filesSetup } from './files-setup.js';
import { createGlob } from './glob-tool.js';
import { createGrep } from './grep-tool.js';
import { createListDir } from './list-dir.js';
import { createMultiEdit } from './multi-edit.js';
import { createReadFile } from './read-file.js';
import { createWriteFile } from './write-file.js';

export type { EditFileArgs } from './edit-file.js';
export type { FileToolOptions } from './file-tool-options.js';
export type { GlobArgs, GlobOutput } from './glob-tool.js';
export type { GrepArgs, GrepOutput } from './grep-tool.js';
export type { ListDirArgs, ListDirOutput } from './list-dir.js';
export type { MultiEditArgs } from './multi-edit.js';
export type { ReadFileArgs, ReadFileOutput } from './read-file.js';
export type { EditOutput } from './run-edits.js';
export { unifiedDiff, type UnifiedDiffOptions } from './unified-diff.js';
export type { WriteFileArgs, WriteFileOutput } from './write-file.js';

/**
 * Checks that the folders of `options` exist (config loading calls it, so a wrong `root` is
 * reported when the config loads rather than at the first tool call).
 * @throws Error naming the first missing folder.
 */
export async function checkFileRoots(options: FileToolOptions): Promise<void> {
  const roots = [...(options.root !== undefined ? [options.root] : []), ...(options.roots ?? []).map((r) => r.path)];
  for (const root of roots) {
    const info = await stat(root).catch(() => undefined);
    if (!info) throw new Error(`the root folder ${root} does not exist`);
    if (!info.isDirectory()) throw new Error(`the root ${root} is not a folder`);
  }
}

/** Names of the file tools. */
export const FILE_TOOL_NAMES = ['read_file', 'write_file', 'edit_file', 'multi_edit', 'list_dir', 'glob', 'grep', 'search_files'] as const;

/**
 * The file tools for `new Agent({ tools })`. Every path goes through one `PathPolicy` (built from
 * `root`, `roots` and `deny`, or `options.policy`); refusals come back to the model as tool errors.
 * The write tools (`write_file`, `edit_file`, `multi_edit`) are left out when every root is read-only.
 */
export function fileTools(options: FileToolOptions): Tool[] {
  const setup = filesSetup(options);
  const tools: Tool[] = [createReadFile(setup)];
  if (setup.writable) tools.push(createWriteFile(setup), createEditFile(setup), createMultiEdit(setup));
  tools.push(createListDir(setup), createGlob(setup), createGrep(setup), createGrep(setup, 'search_files'));
  return tools;
}
