import picomatch from 'picomatch';
import { z } from 'zod';

import { tool } from '../../core/tool.js';
import type { Tool } from '../../types/tool.js';
import { FileToolError } from './file-tool-error.js';
import type { FilesSetup } from './files-setup.js';
import { walkFiles } from './walk-files.js';

const input = z.object({
  pattern: z.string().min(1).describe('Glob matched against paths relative to `path`, e.g. "**/*.ts", "src/*.md", "*.{js,json}".'),
  path: z.string().optional().describe('Folder to search. Default: the root folder.'),
});

/** Arguments of `glob`. */
export type GlobArgs = z.infer<typeof input>;

/** What `glob` returns. */
export interface GlobOutput {
  pattern: string;
  path: string;
  /** Matching files, relative to `path`, sorted. */
  files: string[];
  truncated?: string;
}

/** `glob`: files matching a pattern (respecting .gitignore, leaving denied paths out). */
export function createGlob(setup: FilesSetup): Tool<GlobArgs, GlobOutput> {
  return tool({
    name: 'glob',
    description:
      'Find files by glob pattern (e.g. "**/*.ts"), relative to `path`. Files ignored by .gitignore are left out. Returns sorted paths.',
    input,
    async execute({ pattern, path = '.' }) {
      const dir = await setup.policy.check(path, 'read');
      const shown = setup.policy.display(dir.path);
      if (!dir.stats?.isDirectory()) throw new FileToolError(`${shown} is not a folder.`);
      const match = picomatch(pattern, { dot: true });
      const prefix = dir.relative === '.' ? '' : `${dir.relative}/`;
      const walked = await walkFiles(dir.path, {
        gitignore: setup.gitignore,
        skip: (rel) => setup.policy.deniedBy(`${prefix}${rel}`) !== undefined,
      });
      const files = walked.files.filter((f) => match(f));
      const out: GlobOutput = { pattern, path: shown, files: files.slice(0, setup.maxResults) };
      if (files.length > setup.maxResults)
        out.truncated = `showing ${setup.maxResults} of ${files.length} files; use a narrower pattern or path.`;
      return out;
    },
  });
}
