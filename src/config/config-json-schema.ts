import { z } from 'zod';

import { configFileSchema } from './config-file-schema.js';

/** The `$id` of the JSON Schema. */
export const CONFIG_SCHEMA_ID = 'https://corvid.dev/schema/corvid.schema.json';

/**
 * JSON Schema (draft 2020-12) of the `corvid.yaml` format, generated from the zod schema, with
 * descriptions on fields; for editors (`# yaml-language-server: $schema=...`) and other tools.
 * Cross-references (model, agent and tool names) and interpolation are beyond JSON Schema: use
 * `validateConfig` for those. Values written as `${VAR}` are strings, so an editor may flag
 * `max_steps: ${STEPS}`; Corvid itself accepts it.
 */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configFileSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...schema, $id: CONFIG_SCHEMA_ID, title: 'Corvid configuration' };
}
