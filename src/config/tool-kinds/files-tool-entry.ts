import { isAbsolute, resolve } from 'node:path';

import { z } from 'zod';

import type { FileToolOptions } from '../../tools/files/file-tool-options.js';

const rootSchema = z
  .strictObject({
    path: z.string().min(1).describe('A folder, relative to this config file or absolute.'),
    mode: z.enum(['read-only', 'read-write']).optional().describe('`read-write` (default) or `read-only`.'),
  })
  .describe('One more folder the tools may use.');

/** `tools: { <id>: { type: files, … } }` — read_file, write_file, edit_file, multi_edit, list_dir, glob, grep. */
export const filesToolEntrySchema = z
  .strictObject({
    type: z
      .literal('files')
      .describe(
        'File tools confined to folders: read_file, write_file, edit_file, multi_edit, list_dir, glob, grep (and search_files, an alias of grep).',
      ),
    root: z
      .string()
      .min(1)
      .describe(
        'The folder every path is confined to, relative to this config file or absolute; relative paths the model gives start here.',
      ),
    read_only: z
      .boolean()
      .optional()
      .describe('`true`: the root is read-only (the write tools are left out when every root is). Default false.'),
    roots: z.array(rootSchema).optional().describe('More folders (reached with absolute paths), each read-only or read-write.'),
    deny: z
      .array(z.string().min(1))
      .optional()
      .describe(
        'Globs refused for reading and writing, matched on the root-relative real path; a pattern without "/" matches a name at any depth, e.g. [".env", "**/*.pem", ".git/**"].',
      ),
    refuse_hard_linked_reads: z
      .boolean()
      .optional()
      .describe('Also refuse reading files with several hard links (writing them is always refused). Default false.'),
    max_read_bytes: z
      .int()
      .positive()
      .optional()
      .describe('Most bytes read_file returns at once; longer reads end with a "truncated" note. Default 262144.'),
    max_file_bytes: z
      .int()
      .positive()
      .optional()
      .describe('Largest file edit_file, multi_edit and grep work on. Default 20971520 (20 MiB).'),
    max_results: z.int().positive().optional().describe('Most entries list_dir, glob and grep return. Default 200.'),
    gitignore: z.boolean().optional().describe('glob, grep and list_dir skip what .gitignore files ignore. Default true.'),
    ripgrep: z
      .string()
      .min(1)
      .optional()
      .describe('How grep searches: `auto` (default: ripgrep when `rg` is on PATH, else JavaScript), `js`, or the path of an rg binary.'),
  })
  .describe('Built-in file tools confined to a folder (and optional more folders).');

/** A validated `type: files` entry. */
export type FilesToolEntry = z.output<typeof filesToolEntrySchema>;

/** The `fileTools()` options of a `type: files` entry; relative folders are resolved against `baseDir` (the config file's folder). */
export function filesToolOptions(entry: FilesToolEntry, ctx: { baseDir: string }): FileToolOptions {
  const at = (p: string) => (isAbsolute(p) ? p : resolve(ctx.baseDir, p));
  const options: FileToolOptions = { root: at(entry.root) };
  if (entry.read_only !== undefined) options.readOnly = entry.read_only;
  if (entry.roots) options.roots = entry.roots.map((r) => ({ path: at(r.path), mode: r.mode ?? 'read-write' }));
  if (entry.deny) options.deny = entry.deny;
  if (entry.refuse_hard_linked_reads !== undefined) options.refuseHardLinkedReads = entry.refuse_hard_linked_reads;
  if (entry.max_read_bytes !== undefined) options.maxReadBytes = entry.max_read_bytes;
  if (entry.max_file_bytes !== undefined) options.maxFileBytes = entry.max_file_bytes;
  if (entry.max_results !== undefined) options.maxResults = entry.max_results;
  if (entry.gitignore !== undefined) options.gitignore = entry.gitignore;
  if (entry.ripgrep !== undefined) options.ripgrep = entry.ripgrep;
  return options;
}
