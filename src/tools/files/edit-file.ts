import { z } from 'zod';

import { tool } from '../../core/tool.js';
import type { Tool } from '../../types/tool.js';
import type { FilesSetup } from './files-setup.js';
import { type EditOutput, previewEdits, runEdits } from './run-edits.js';

const input = z.object({
  path: z.string().describe('File to edit.'),
  old_string: z.string().describe('Exact text to replace, with its indentation; it must occur exactly once unless replace_all is set.'),
  new_string: z.string().describe('Replacement text.'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_string. Default false.'),
});

/** Arguments of `edit_file`. */
export type EditFileArgs = z.infer<typeof input>;

/** `edit_file`: exact string replacement; returns a unified diff. */
export function createEditFile(setup: FilesSetup): Tool<EditFileArgs, EditOutput> {
  return tool({
    name: 'edit_file',
    description:
      'Replace exact text in a file. old_string must match the file exactly once (include enough surrounding lines), ' +
      'or set replace_all. When it does not match, the error shows the nearest candidates. Returns a unified diff.',
    input,
    preview: (args) => previewEdits(setup, args.path, [args]),
    execute: (args) => runEdits(setup, args.path, [args]),
  });
}
