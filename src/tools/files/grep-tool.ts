import { basename, dirname } from 'node:path';

import { z } from 'zod';

import { tool } from '../../core/tool.js';
import type { Tool } from '../../types/tool.js';
import { FileToolError } from './file-tool-error.js';
import type { FilesSetup } from './files-setup.js';
import { formatGrep } from './format-grep.js';
import { grepJs } from './grep-js.js';
import { findRipgrep, grepRg, RipgrepUnavailable } from './grep-rg.js';
import type { GrepFileHits, GrepQuery } from './grep-types.js';

const input = z.object({
  pattern: z.string().min(1).describe('Regular expression (JavaScript syntax) searched for in each line.'),
  path: z.string().optional().describe('Folder (or file) to search. Default: the root folder.'),
  glob: z.string().optional().describe('Only files matching this glob, e.g. "*.ts" (any depth) or "src/**/*.md".'),
  context: z.int().min(0).max(10).optional().describe('Lines of context shown before and after each match. Default 0.'),
  ignore_case: z.boolean().optional().describe('Match regardless of case. Default false.'),
  max_results: z.int().min(1).optional().describe("Most matching lines returned (capped by the tool's limit)."),
});

/** Arguments of `grep`. */
export type GrepArgs = z.infer<typeof input>;

/** What `grep` returns. */
export interface GrepOutput {
  pattern: string;
  path: string;
  /** Matching lines shown, and the files they are in. */
  matches: number;
  files: number;
  /** `path:line:text` per match (`path-line-text` for context), `--` between groups. */
  output: string;
  truncated?: string;
  /** Which search ran: `ripgrep` or `js`. */
  engine: 'ripgrep' | 'js';
}

/** `grep` (and its alias `search_files`): regex search over a folder, ripgrep when available. */
export function createGrep(setup: FilesSetup, name: 'grep' | 'search_files' = 'grep'): Tool<GrepArgs, GrepOutput> {
  return tool({
    name,
    description:
      (name === 'search_files' ? 'Same as grep. ' : '') +
      'Search file contents with a regular expression. Returns "path:line:text" for each matching line (with optional context lines), ' +
      'in path order; files ignored by .gitignore and binary files are skipped.',
    input,
    execute: (args, ctx) => grep(setup, args, ctx.signal),
  });
}

async function grep(setup: FilesSetup, args: GrepArgs, signal?: AbortSignal): Promise<GrepOutput> {
  try {
    new RegExp(args.pattern);
  } catch (err) {
    throw new FileToolError(`invalid regular expression: ${(err as Error).message}`);
  }
  const target = await setup.policy.check(args.path ?? '.', 'read');
  const shown = setup.policy.display(target.path);
  if (!target.stats) throw new FileToolError(`${shown} does not exist.`);
  const isFile = !target.stats.isDirectory();
  const dirRel = isFile ? dirname(target.relative) : target.relative;
  const prefix = dirRel === '.' ? '' : `${dirRel}/`;
  const maxResults = Math.min(args.max_results ?? setup.maxResults, setup.maxResults);
  const query: GrepQuery = {
    pattern: args.pattern,
    ignoreCase: args.ignore_case ?? false,
    dir: isFile ? dirname(target.path) : target.path,
    ...(isFile ? { file: basename(target.path) } : {}),
    ...(args.glob ? { fileGlob: args.glob } : {}),
    context: args.context ?? 0,
    maxResults,
    gitignore: setup.gitignore,
    maxFileBytes: setup.maxFileBytes,
    skip: (rel) => setup.policy.deniedBy(`${prefix}${rel}`) !== undefined,
    skipHardLinks: setup.policy.refusesHardLinkedReads,
    ...(signal ? { signal } : {}),
  };
  const { hits, engine } = await search(setup, query);
  const shownPrefix = setup.policy.display(query.dir) === '.' ? '' : `${setup.policy.display(query.dir)}/`;
  const formatted = formatGrep(hits, { prefix: shownPrefix, maxResults });
  const out: GrepOutput = {
    pattern: args.pattern,
    path: shown,
    matches: formatted.matches,
    files: formatted.files,
    output: formatted.text || '(no matches)',
    engine,
  };
  if (formatted.truncated) out.truncated = `stopped at ${maxResults} matching lines; narrow the pattern, path or glob to see the rest.`;
  return out;
}

async function search(setup: FilesSetup, query: GrepQuery): Promise<{ hits: GrepFileHits[]; engine: 'ripgrep' | 'js' }> {
  const rg = setup.ripgrep === 'js' ? undefined : setup.ripgrep === 'auto' ? await findRipgrep() : setup.ripgrep;
  if (rg !== undefined) {
    try {
      return { hits: await grepRg(rg, query), engine: 'ripgrep' };
    } catch (err) {
      if (!(err instanceof RipgrepUnavailable)) throw err;
    }
  }
  return { hits: await grepJs(query), engine: 'js' };
}
