import { z } from 'zod';

import { tool } from '../../core/tool.js';
import type { Tool } from '../../types/tool.js';
import { FileToolError } from './file-tool-error.js';
import type { FilesSetup } from './files-setup.js';
import { readTextFile, writeFileAtomic } from './text-file.js';
import { unifiedDiff } from './unified-diff.js';

const input = z.object({
  path: z.string().describe('File to write; missing parent folders are created.'),
  content: z.string().describe('The whole new content of the file.'),
});

/** Arguments of `write_file`. */
export type WriteFileArgs = z.infer<typeof input>;

/** What `write_file` returns. */
export interface WriteFileOutput {
  path: string;
  /** `created` or `overwritten`. */
  action: 'created' | 'overwritten';
  bytes: number;
  /** Unified diff against the previous content (overwrites of text files). */
  diff?: string;
}

/** `write_file`: creates or replaces a file atomically (temp file + rename). */
export function createWriteFile(setup: FilesSetup): Tool<WriteFileArgs, WriteFileOutput> {
  const plan = async ({ path, content }: WriteFileArgs) => {
    const file = await setup.policy.check(path, 'write');
    const shown = setup.policy.display(file.path);
    if (file.stats?.isDirectory()) throw new FileToolError(`${shown} is a folder; give a file path.`);
    const before = file.stats ? await readTextFile(file.path, shown, setup.maxFileBytes).catch(() => undefined) : undefined;
    const diff = before === undefined ? undefined : unifiedDiff(before, content, { path: shown });
    return { file, shown, diff };
  };
  return tool({
    name: 'write_file',
    description:
      'Create a file or replace its whole content (atomically; parent folders are created). Prefer edit_file to change part of an existing file.',
    input,
    async preview(args) {
      try {
        const { file, shown, diff } = await plan(args);
        if (file.stats) return diff ?? `(replaces ${shown}, ${file.stats.size} bytes, not shown)`;
        // Every line: front ends that show less elide it themselves (and can show all before approving).
        const body = args.content
          .split('\n')
          .map((l) => `+${l}`)
          .join('\n');
        return `--- /dev/null\n+++ b/${shown}\n${body}`;
      } catch (err) {
        return `(this write would fail: ${err instanceof Error ? err.message : String(err)})`;
      }
    },
    async execute(args) {
      const { file, shown, diff } = await plan(args);
      await writeFileAtomic(file.path, args.content, file.stats ? file.stats.mode & 0o7777 : undefined);
      const out: WriteFileOutput = { path: shown, action: file.stats ? 'overwritten' : 'created', bytes: Buffer.byteLength(args.content) };
      if (diff !== undefined) out.diff = diff;
      return out;
    },
  });
}
