import { readdir } from 'node:fs/promises';

import { z } from 'zod';

import { tool } from '../../core/tool.js';
import type { Tool } from '../../types/tool.js';
import { FileToolError } from './file-tool-error.js';
import type { FilesSetup } from './files-setup.js';
import { fsMessage } from './text-file.js';
import { comparePaths } from './walk-files.js';

const input = z.object({
  path: z.string().optional().describe('Folder to list. Default: the root folder.'),
});

/** Arguments of `list_dir`. */
export type ListDirArgs = z.infer<typeof input>;

/** What `list_dir` returns. */
export interface ListDirOutput {
  path: string;
  /** Names; folders end with `/`, symbolic links with `@`. */
  entries: string[];
  /** Set when the folder had more entries than shown. */
  truncated?: string;
}

/** `list_dir`: the entries of one folder (denied entries left out). */
export function createListDir(setup: FilesSetup): Tool<ListDirArgs, ListDirOutput> {
  return tool({
    name: 'list_dir',
    description: 'List the files and folders in a folder (folders end with "/"). Use glob to find files by pattern in a whole tree.',
    input,
    async execute({ path = '.' }) {
      const dir = await setup.policy.check(path, 'read');
      const shown = setup.policy.display(dir.path);
      if (!dir.stats) throw new FileToolError(`${shown} does not exist.`);
      if (!dir.stats.isDirectory()) throw new FileToolError(`${shown} is a file, not a folder (use read_file).`);
      const entries = await readdir(dir.path, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
        throw new FileToolError(fsMessage(err, shown));
      });
      const prefix = dir.relative === '.' ? '' : `${dir.relative}/`;
      const names = entries
        .filter((e) => setup.policy.deniedBy(`${prefix}${e.name}`) === undefined)
        .map((e) => (e.isDirectory() ? `${e.name}/` : e.isSymbolicLink() ? `${e.name}@` : e.name))
        .sort(comparePaths);
      const out: ListDirOutput = { path: shown, entries: names.slice(0, setup.maxResults) };
      if (names.length > setup.maxResults)
        out.truncated = `showing ${setup.maxResults} of ${names.length} entries; use glob to narrow down.`;
      return out;
    },
  });
}
