import { readdir } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';

import picomatch from 'picomatch';

import { KnowledgeError } from '../errors/knowledge-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { KnowledgeDocument } from '../types/knowledge.js';
import type { KnowledgeSource, SourceListContext } from './knowledge-source.js';
import { loadFile } from './loaders/load-file.js';

/** Options for `directorySource`. */
export interface DirectorySourceOptions {
  /** The folder; documents' URIs are paths relative to it, with `/`. */
  path: string;
  /** Globs of files to take (relative to `path`). Default: every file. */
  include?: string[];
  /** Globs of files to leave out, besides `.git/` and `node_modules/`. */
  exclude?: string[];
  /** The source's name. Default `directory`. */
  name?: string;
  /** Largest file read, in bytes. Default 10 MB. */
  maxBytes?: number;
}

const ALWAYS_EXCLUDED = ['**/.git/**', '**/node_modules/**'];

/**
 * The files of a folder, filtered by globs, each loaded by its extension (see `loadFile`).
 * A file that cannot be loaded is reported and skipped.
 * @example
 * directorySource({ path: './docs', include: ['**\/*.md', '**\/*.pdf'], exclude: ['drafts/**'] })
 */
export function directorySource(options: DirectorySourceOptions): KnowledgeSource {
  if (typeof options?.path !== 'string' || !options.path) throw new ValidationError('directorySource: "path" (a folder) is required');
  const root = resolve(options.path);
  const name = options.name ?? 'directory';
  const include = options.include?.length ? picomatch(options.include, { dot: true }) : () => true;
  const exclude = picomatch([...ALWAYS_EXCLUDED, ...(options.exclude ?? [])], { dot: true });
  const take = (file: string): string | undefined => {
    const uri = relative(root, file).split(sep).join('/');
    return include(uri) && !exclude(uri) ? uri : undefined;
  };
  return {
    name,
    watchPaths: [root],
    async count(context) {
      let n = 0;
      for await (const file of walk(root, { signal: context.signal, report: () => undefined })) if (take(file) !== undefined) n++;
      return n;
    },
    async *list(context: SourceListContext): AsyncIterable<KnowledgeDocument> {
      for await (const file of walk(root, context)) {
        const uri = take(file);
        if (uri === undefined) continue;
        try {
          yield await loadFile({ path: file, uri, source: name, maxBytes: options.maxBytes });
        } catch (err) {
          context.report(
            err instanceof KnowledgeError
              ? err
              : new KnowledgeError(`Cannot load ${uri}: ${(err as Error).message}`, { kind: 'load', uri, cause: err }),
          );
        }
      }
    },
  };
}

async function* walk(dir: string, context: SourceListContext): AsyncIterable<string> {
  context.signal?.throwIfAborted();
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    throw new KnowledgeError(`Cannot read the folder ${dir}: ${(err as Error).message}`, { kind: 'load', cause: err });
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      yield* walk(full, context);
    } else if (entry.isFile()) yield full;
  }
}
