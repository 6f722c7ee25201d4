import { completeValues } from './complete-values.js';
import { failure, type RequestOutcome, RPC_ERROR } from './request-outcome.js';
import type { McpPromptMessage, McpPromptResult, McpServedPrompt } from './served-prompt.js';

/** A prompt as `prompts/list` shows it. */
export interface McpPromptInfo {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required: boolean }[];
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

function toMessages(result: McpPromptResult): { description?: string; messages: McpPromptMessage[] } {
  if (typeof result === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: result } }] };
  if (Array.isArray(result)) return { messages: result };
  if (result && Array.isArray(result.messages)) return result;
  throw new Error('get() must return a string, an array of messages, or { messages }');
}

/** The prompts of a served MCP server: lists them, validates arguments, builds messages, completes arguments. */
export class PromptRegistry {
  private readonly byName = new Map<string, McpServedPrompt>();

  constructor(prompts: readonly McpServedPrompt[]) {
    for (const p of prompts) {
      if (p.kind !== 'prompt') throw new Error(`Not a prompt: ${JSON.stringify(p)}; make prompts with mcpPrompt()`);
      if (this.byName.has(p.name)) throw new Error(`Two prompts are named "${p.name}"; prompt names must be unique on one server`);
      this.byName.set(p.name, p);
    }
  }

  get size(): number {
    return this.byName.size;
  }

  /** Whether an argument has suggestions. */
  get completable(): boolean {
    return [...this.byName.values()].some((p) => p.complete && Object.keys(p.complete).length > 0);
  }

  list(): McpPromptInfo[] {
    return [...this.byName.values()].map((p) => {
      const listed: McpPromptInfo = { name: p.name };
      if (p.title !== undefined) listed.title = p.title;
      if (p.description !== undefined) listed.description = p.description;
      if (p.arguments) {
        listed.arguments = Object.entries(p.arguments.shape).map(([name, field]) => {
          const arg: { name: string; description?: string; required: boolean } = { name, required: !field.safeParse(undefined).success };
          if (field.description !== undefined) arg.description = field.description;
          return arg;
        });
      }
      return listed;
    });
  }

  async get(
    name: string,
    args: Record<string, string> | undefined,
    signal: AbortSignal,
  ): Promise<RequestOutcome<{ description?: string; messages: McpPromptMessage[] }>> {
    const prompt = this.byName.get(name);
    if (!prompt)
      return failure(RPC_ERROR.invalidParams, `Unknown prompt "${name}". Prompts: ${[...this.byName.keys()].join(', ') || '(none)'}`);
    let input: Record<string, string | undefined> = args ?? {};
    if (prompt.arguments) {
      const parsed = prompt.arguments.safeParse(input);
      if (!parsed.success) {
        const problems = parsed.error.issues
          .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
          .join('; ');
        return failure(RPC_ERROR.invalidParams, `Invalid arguments for prompt "${name}": ${problems}`);
      }
      input = parsed.data;
    }
    try {
      const built = toMessages(await prompt.get(input, { signal }));
      const description = built.description ?? prompt.description;
      return { ok: true, value: description === undefined ? { messages: built.messages } : { description, messages: built.messages } };
    } catch (err) {
      return failure(RPC_ERROR.internal, `Prompt "${name}" failed: ${errorText(err)}`);
    }
  }

  /** Suggestions for argument `arg` of prompt `name`. */
  async complete(name: string, arg: string, value: string, args: Record<string, string>): Promise<RequestOutcome<string[]>> {
    const prompt = this.byName.get(name);
    if (!prompt)
      return failure(RPC_ERROR.invalidParams, `Unknown prompt "${name}". Prompts: ${[...this.byName.keys()].join(', ') || '(none)'}`);
    try {
      return { ok: true, value: await completeValues((prompt.complete as Record<string, never> | undefined)?.[arg], value, args) };
    } catch (err) {
      return failure(RPC_ERROR.internal, `Completing "${arg}" of prompt "${name}" failed: ${errorText(err)}`);
    }
  }
}
