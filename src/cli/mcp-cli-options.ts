import type { McpRuntimeOptions } from '../mcp/runtime-mcp.js';
import type { McpElicitationRequest, McpElicitationResult } from '../mcp/types.js';
import type { CliContext } from './cli-context.js';
import { colorsFor } from './colors.js';

/** Asks the user one question on the terminal; resolves with the line typed (undefined when input ended). */
export type AskUser = (question: string) => Promise<string | undefined>;

/**
 * MCP options for CLI commands: warnings (a server that failed, skipped tools) on stderr, and,
 * when `ask` is given (an interactive chat), elicitation requests answered by the user.
 */
export function cliMcpOptions(context: CliContext, ask?: AskUser): McpRuntimeOptions {
  const c = colorsFor(context.stderr, context.globals);
  return {
    onWarning: (e) => void context.stderr.write(`${c.yellow('warning:')} ${e.message}\n`),
    onElicitation: ask ? (request) => elicitFromUser(request, ask) : undefined,
  };
}

/** Asks for each field of an elicitation form; "n" declines, "c" (or end of input) cancels. */
export async function elicitFromUser(request: McpElicitationRequest, ask: AskUser): Promise<McpElicitationResult> {
  const first = await ask(`MCP server "${request.server}" asks: ${request.message}\nAnswer? [y]es / [n]o (decline) / [c]ancel: `);
  const choice = first?.trim().toLowerCase();
  if (choice === undefined || choice.startsWith('c')) return { action: 'cancel' };
  if (choice.startsWith('n')) return { action: 'decline' };
  const content: Record<string, string | number | boolean | string[]> = {};
  const required = new Set(request.requestedSchema.required ?? []);
  for (const [name, raw] of Object.entries(request.requestedSchema.properties ?? {})) {
    const prop = raw as {
      type?: string;
      title?: string;
      description?: string;
      default?: unknown;
      enum?: unknown[];
      oneOf?: Array<{ const?: unknown }>;
    };
    const options = prop.enum ?? prop.oneOf?.map((o) => o.const);
    const hint = [
      prop.type === 'boolean' ? 'y/n' : options ? options.map(String).join('/') : prop.type,
      prop.default !== undefined ? `default ${String(prop.default)}` : undefined,
      required.has(name) ? 'required' : undefined,
    ]
      .filter(Boolean)
      .join(', ');
    for (;;) {
      const line = await ask(`  ${prop.title ?? name}${prop.description ? ` (${prop.description})` : ''}${hint ? ` [${hint}]` : ''}: `);
      if (line === undefined) return { action: 'cancel' };
      const text = line.trim();
      if (text === '') {
        if (prop.default !== undefined) content[name] = prop.default as string | number | boolean;
        if (prop.default !== undefined || !required.has(name)) break;
        continue;
      }
      if (prop.type === 'boolean') content[name] = /^(y|yes|true|1)$/i.test(text);
      else if (prop.type === 'number' || prop.type === 'integer') {
        const n = Number(text);
        if (Number.isNaN(n) || (prop.type === 'integer' && !Number.isInteger(n))) continue;
        content[name] = n;
      } else if (options && !options.map(String).includes(text)) continue;
      else content[name] = text;
      break;
    }
  }
  return { action: 'accept', content };
}
