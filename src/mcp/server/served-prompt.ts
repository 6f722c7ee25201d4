import type { z } from 'zod';

import type { McpResultContent } from './served-context.js';
import type { McpCompleter } from './served-resource.js';

/** One message of a prompt. */
export interface McpPromptMessage {
  role: 'user' | 'assistant';
  content: McpResultContent;
}

/**
 * What a prompt's `get` may return: a string (one user message), messages, or messages with a
 * description.
 */
export type McpPromptResult = string | McpPromptMessage[] | { description?: string; messages: McpPromptMessage[] };

/** The arguments of a prompt: a zod object of string fields (`.describe()` gives each a description; `.optional()` makes it optional). */
export type McpPromptArgs = z.ZodObject<Record<string, z.ZodType<string | undefined>>>;

/** A prompt served by `createMcpServer({ prompts })`. */
export interface McpPromptDefinition<Args extends McpPromptArgs = McpPromptArgs> {
  name: string;
  title?: string;
  /** Shown to users choosing a prompt; recommended. */
  description?: string;
  /** The arguments, as a zod object of strings. Validated before `get` runs. */
  arguments?: Args;
  /** Suggestions for arguments (`completion/complete` with `ref/prompt`). */
  complete?: { [K in keyof z.infer<Args>]?: McpCompleter };
  /** Builds the messages. */
  get(args: z.infer<Args>, context: { signal: AbortSignal }): McpPromptResult | Promise<McpPromptResult>;
}

/** A prompt made by `mcpPrompt`. */
export type McpServedPrompt = McpPromptDefinition & { kind: 'prompt' };

/**
 * A prompt (a message template a user picks in an MCP client), for `createMcpServer({ prompts })`.
 * @example
 * mcpPrompt({
 *   name: 'review', description: 'Review a piece of code',
 *   arguments: z.object({ code: z.string().describe('The code'), language: z.string().optional() }),
 *   complete: { language: ['typescript', 'python', 'rust'] },
 *   get: ({ code, language }) => `Review this ${language ?? ''} code:\n${code}`,
 * })
 */
export function mcpPrompt<Args extends McpPromptArgs>(definition: McpPromptDefinition<Args>): McpServedPrompt {
  return { kind: 'prompt', ...(definition as unknown as McpPromptDefinition) };
}
