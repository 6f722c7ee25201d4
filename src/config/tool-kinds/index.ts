import { z } from 'zod';

import { filesToolEntrySchema } from './files-tool-entry.js';
import { restToolEntrySchema } from './rest-tool-entry.js';
import { shellToolEntrySchema } from './shell-tool-entry.js';
import { slackToolEntrySchema } from './slack-tool-entry.js';
import { webToolEntrySchema } from './web-tool-entry.js';

export { type FilesToolEntry, filesToolEntrySchema, filesToolOptions } from './files-tool-entry.js';
export { type RestToolEntry, restToolEntrySchema, restToolOptions } from './rest-tool-entry.js';
export { type ShellToolEntry, shellToolEntrySchema, shellToolOptions } from './shell-tool-entry.js';
export { type SlackToolEntry, slackToolEntrySchema, slackToolOptions } from './slack-tool-entry.js';
export { type WebToolEntry, webToolEntrySchema, webToolOptions } from './web-tool-entry.js';

/**
 * The schemas of the built-in tool families an entry of `tools:` can name with `type:`.
 * Each family adds its schema here (one line) and a loader in `src/runtime/tool-kinds.ts`.
 */
export const toolKindEntrySchemas = [
  filesToolEntrySchema,
  shellToolEntrySchema,
  webToolEntrySchema,
  slackToolEntrySchema,
  restToolEntrySchema,
] as const;

/** The `type:` values of the built-in tool families. */
export const TOOL_KIND_NAMES: readonly string[] = toolKindEntrySchemas.map((s) => s.shape.type.value);

/** The keys an entry of the family `type` may have, or `undefined` for an unknown type. */
export function toolKindKeys(type: unknown): string[] | undefined {
  const schema = toolKindEntrySchemas.find((s) => s.shape.type.value === type);
  return schema ? Object.keys(schema.shape) : undefined;
}

/** A `tools:` entry of a built-in family, told apart by `type`. */
export const toolKindEntrySchema = z.discriminatedUnion('type', toolKindEntrySchemas);

/** A validated built-in tool-family entry of `tools:`. */
export type ToolKindEntry = z.output<typeof toolKindEntrySchema>;

/** The built-in tool families (`type:` values). */
export type ToolKind = ToolKindEntry['type'];
