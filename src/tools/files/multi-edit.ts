import { z } from 'zod';

import { tool } from '../../core/tool.js';
import type { Tool } from '../../types/tool.js';
import type { FilesSetup } from './files-setup.js';
import { type EditOutput, previewEdits, runEdits } from './run-edits.js';

const input = z.object({
  path: z.string().describe('File to edit.'),
  edits: z
    .array(
      z.object({
        old_string: z.string().describe('Exact text to replace (after the previous edits are applied).'),
        new_string: z.string().describe('Replacement text.'),
        replace_all: z.boolean().optional().describe('Replace every occurrence. Default false.'),
      }),
    )
    .min(1)
    .describe('Edits applied in order, each to the result of the previous one.'),
});

/** Arguments of `multi_edit`. */
export type MultiEditArgs = z.infer<typeof input>;

/** `multi_edit`: several exact replacements in one file, applied all-or-nothing. */
export function createMultiEdit(setup: FilesSetup): Tool<MultiEditArgs, EditOutput> {
  return tool({
    name: 'multi_edit',
    description:
      'Apply several exact-text replacements to one file, in order, all or nothing: if any edit does not match ' +
      '(or matches more than once without replace_all), the file is left unchanged and the error names that edit. Returns a unified diff.',
    input,
    preview: (args) => previewEdits(setup, args.path, args.edits),
    execute: (args) => runEdits(setup, args.path, args.edits),
  });
}
