import { z } from 'zod';

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const ARGUMENT = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** One resource of `mcp.resources`: fixed text, or a file read when a client asks. */
export const mcpResourceSchema = z
  .strictObject({
    uri: z.string().min(1).describe('The URI clients read it by, e.g. `docs://readme`.'),
    title: z.string().optional(),
    description: z.string().optional(),
    mime_type: z
      .string()
      .min(1)
      .optional()
      .describe('Default: from the file extension (`.md` text/markdown, `.json` application/json, else text/plain).'),
    text: z.string().optional().describe('The contents.'),
    file: z.string().min(1).optional().describe('A file whose contents are served (read on every request), relative to this config file.'),
  })
  .refine((r) => (r.text === undefined) !== (r.file === undefined), { message: 'give exactly one of `text` and `file`' })
  .describe('A resource served over MCP.');

/** One prompt of `mcp.prompts`: a message template with `{argument}` placeholders. */
export const mcpPromptSchema = z
  .strictObject({
    title: z.string().optional(),
    description: z.string().optional(),
    arguments: z
      .record(
        z.string().regex(ARGUMENT, { error: 'argument names are identifiers (letters, digits, "_")' }),
        z.strictObject({ description: z.string().optional(), required: z.boolean().optional().describe('Default true.') }),
      )
      .optional(),
    template: z.string().min(1).describe('The user message; `{name}` is replaced by the argument `name`.'),
  })
  .describe('A prompt served over MCP.');

/** `mcp:` — what `corvid mcp serve` and `corvid serve` (at `/mcp`) serve besides tools and agents. */
export const mcpContentSchema = z
  .strictObject({
    name: z.string().min(1).optional().describe('Server name announced to MCP clients. Default `corvid`.'),
    instructions: z.string().optional().describe('Instructions announced to MCP clients.'),
    resources: z
      .record(z.string().regex(NAME, { error: 'resource names use 1-64 letters, digits, ".", "_" and "-"' }), mcpResourceSchema)
      .optional(),
    prompts: z
      .record(z.string().regex(NAME, { error: 'prompt names use 1-64 letters, digits, ".", "_" and "-"' }), mcpPromptSchema)
      .optional(),
    modules: z
      .array(z.string().min(1))
      .optional()
      .describe(
        'ES modules (relative to this config file, or package names) exporting `resources` and/or `prompts` arrays made with mcpResource, mcpResourceTemplate and mcpPrompt (binary contents, URI templates, completion).',
      ),
  })
  .describe('Resources and prompts served over MCP, next to every tool and agent of the config.');
