import { z } from 'zod';
import { PROVIDER_ALIASES } from '../models/parse-model-id.js';

/**
 * The zod schema of the `corvid.yaml` file format (snake_case, every object strict). It checks
 * shapes, types and ranges; cross-references (model, agent and tool names) are checked
 * separately by `checkConfigReferences`, so all problems are reported together.
 *
 * Top-level sections reserved for later (`mcp_servers`, `storage`, `server`) are
 * rejected as unknown keys until they are implemented: add them to `configFileSchema` here.
 */

/** Agent names: they become tool names (`ask_<name>`), so letters, digits, `_` and `-`. */
export const AGENT_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,59}$/;
/** Model names: no `:`, so they never look like an inline `provider:model` id. */
export const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** Tool names, as in `tool()`. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Top-level sections that later versions will add; reported as "not supported yet". */
export const RESERVED_SECTIONS = ['mcp_servers', 'storage', 'server'] as const;
/** A tool reference in `agents.*.tools`: a tool name, a tool-module id, or `module.tool`. */
export const TOOL_REF = /^[a-zA-Z0-9_-]{1,64}(\.[a-zA-Z0-9_-]{1,64})?$/;

const PROVIDERS = Object.keys(PROVIDER_ALIASES) as [string, ...string[]];

const positiveInt = () => z.int().positive();
const temperature = () => z.number().min(0).max(2).describe('Sampling temperature, 0-2.');
const topP = () => z.number().min(0).max(1).describe('Nucleus sampling, 0-1.');
const maxTokens = () => positiveInt().describe('Maximum output tokens per model call.');
const toolMode = () =>
  z
    .enum(['native', 'json'])
    .describe('How the model receives tools: `native` tool calling, or `json` (tools described in the prompt, calls parsed from text) for models without tool support.');
const modelRef = () =>
  z
    .string()
    .min(1)
    .describe('A model name from `models`, or an inline `provider:model` id such as `openai:gpt-4.1-mini`.');

/** `reasoning:` — thinking effort and/or budget. */
export const reasoningSchema = z
  .strictObject({
    effort: z.enum(['minimal', 'low', 'medium', 'high']).optional().describe('Reasoning effort level.'),
    budget_tokens: positiveInt().optional().describe('Thinking token budget (Anthropic, Gemini); mapped to an effort level elsewhere.'),
  })
  .describe('Reasoning / thinking settings: an effort level, a token budget, or both.');

/** `retry:` — retry policy for transient provider failures. */
export const retrySchema = z
  .strictObject({
    max_retries: z.int().min(0).optional().describe('Retries after the first attempt. Default 3.'),
    initial_delay_ms: z.int().min(0).optional().describe('First backoff delay in ms. Default 500.'),
    max_delay_ms: z.int().min(0).optional().describe('Cap for one delay (also caps Retry-After) in ms. Default 30000.'),
  })
  .describe('Retry policy for 429, 5xx, network errors and timeouts.');

/** One entry of `models:`. */
export const modelSchema = z
  .strictObject({
    provider: z
      .enum(PROVIDERS, { error: (iss) => (iss.input === undefined ? '"provider" is required' : `must be one of ${PROVIDERS.join(', ')}`) })
      .describe('Provider: openai, anthropic (alias claude), google (alias gemini), ollama, openai-compatible (alias compatible), openai-chat (OpenAI Chat Completions).'),
    model: z.string().min(1).describe('The provider\'s model id, e.g. `gpt-4.1-mini`, `claude-sonnet-4-5`, `llama3.2`.'),
    api_key: z
      .string()
      .optional()
      .describe('API key; use `${ENV_VAR}`. Default: the provider\'s usual variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY). Never printed.'),
    base_url: z
      .string()
      .refine((s) => s === '' || URL.canParse(s), { error: 'must be an absolute URL, e.g. http://127.0.0.1:8000/v1' })
      .optional()
      .describe('API endpoint. Required for openai-compatible; Ollama defaults to $OLLAMA_HOST or http://127.0.0.1:11434/v1.'),
    headers: z.record(z.string(), z.string()).optional().describe('Extra HTTP headers sent with every request.'),
    api: z.enum(['responses', 'chat']).optional().describe('OpenAI only: `responses` (default) or `chat` (Chat Completions).'),
    temperature: temperature().optional(),
    max_tokens: maxTokens().optional(),
    top_p: topP().optional(),
    reasoning: reasoningSchema.optional(),
    tool_mode: toolMode().optional(),
    timeout_ms: positiveInt().optional().describe('Per-request timeout in ms. Default 120000.'),
    retry: retrySchema.optional(),
    provider_options: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .optional()
      .describe('Passed through to the AI SDK provider unchanged, keyed by provider (e.g. `openai: { parallelToolCalls: false }`); inner keys are camelCase as the SDK expects.'),
  })
  .describe('A model: provider, model id and call settings.');

/** `tool_choice:` of an agent. */
export const toolChoiceSchema = z
  .union([z.enum(['auto', 'none', 'required']), z.strictObject({ tool: z.string().min(1).describe('Name of the tool the model must call.') })], {
    error: 'must be auto, none, required or { tool: <tool name> }',
  })
  .describe('Whether the model may, must not, or must call a tool, or which one.');

/** `context:` of an agent. */
export const contextSchema = z
  .strictObject({
    max_tokens: positiveInt().describe('Budget for system prompt + history, in estimated tokens.'),
    strategy: z.enum(['window', 'summarize']).optional().describe('`window` (default) drops the oldest turns; `summarize` has a model summarise them.'),
    keep_recent_messages: z.int().min(0).optional().describe('Messages at the end that are always kept. Default 4.'),
    summary_model: modelRef().optional().describe('Model that writes summaries (name from `models` or `provider:model`); default the agent\'s model.'),
  })
  .describe('Keep the conversation under a token budget.');

/** One entry of `agents:`. */
export const agentSchema = z
  .strictObject({
    description: z.string().optional().describe('What the agent does; shown to other agents that use it through `agent_tools`.'),
    model: modelRef().optional().describe('A model name from `models` or `provider:model`. Default: `defaults.model`, else the default-model rules.'),
    instructions: z.string().optional().describe('The system prompt.'),
    tools: z
      .array(z.string().regex(TOOL_REF, { error: 'tool references are a tool name, a tool-module id, or module.tool (letters, digits, "_" or "-")' }))
      .optional()
      .describe('Tools of this agent: names of code tools registered with `loadRuntime({ tools })`, ids from `tools:` (every tool of that module), or `module.tool` (one tool of a module).'),
    agent_tools: z
      .array(z.string().min(1))
      .optional()
      .describe('Other agents this agent may call, each exposed as an `ask_<name>` tool.'),
    max_steps: positiveInt().optional().describe('Model calls allowed per run. Default `defaults.max_steps`, else 10.'),
    temperature: temperature().optional(),
    max_tokens: maxTokens().optional(),
    top_p: topP().optional(),
    reasoning: reasoningSchema.optional(),
    tool_choice: toolChoiceSchema.optional(),
    tool_concurrency: positiveInt().optional().describe('Tool calls of one model response run at most this many at once. Default 8.'),
    tool_errors: z.enum(['return', 'throw']).optional().describe('`return` (default): tool failures go back to the model; `throw`: the run fails.'),
    tool_timeout_ms: positiveInt().optional().describe('Default per-call time limit for tools without their own, in ms.'),
    context: contextSchema.optional(),
  })
  .describe('An agent: instructions, a model and tools.');

/** One entry of `tools:` — a JavaScript module whose exports are Corvid tools. */
export const toolModuleSchema = z
  .strictObject({
    module: z.string().min(1).describe('Path of an ES module (.js/.mjs), relative to this config file, or a package name, that exports tools made with `tool()`.'),
    export: z.string().min(1).optional().describe('Use only this named export (a tool or an array of tools). Default: every exported tool.'),
  })
  .describe('Tools loaded from a JavaScript module, so YAML-only setups (and the CLI) can use code tools.');

/** `defaults:` — values used where agents and models leave them out. */
export const defaultsSchema = z
  .strictObject({
    model: modelRef().optional().describe('Model of agents without `model`.'),
    agent: z.string().min(1).optional().describe('Agent used when none is named (e.g. `corvid run` without `--agent`). Default: the first agent.'),
    max_steps: positiveInt().optional().describe('`max_steps` of agents without one. Default 10.'),
    temperature: temperature().optional().describe('Temperature of models without one.'),
    tool_mode: toolMode().optional().describe('`tool_mode` of models without one. Default native.'),
  })
  .describe('Defaults for agents and models.');

/** The whole `corvid.yaml` file. */
export const configFileSchema = z
  .strictObject({
    version: z.literal(1, { error: 'the only config version is 1' }).optional().describe('Config format version. Default 1.'),
    defaults: defaultsSchema.optional(),
    models: z
      .record(z.string().regex(MODEL_NAME, { error: 'model names use letters, digits, ".", "_" and "-" (no ":")' }), modelSchema)
      .optional()
      .describe('Named models that agents refer to.'),
    tools: z
      .record(z.string().regex(TOOL_NAME, { error: 'tool-module ids use 1-64 letters, digits, "_" or "-"' }), toolModuleSchema)
      .optional()
      .describe('Tool modules by id; agents list an id (all its tools) or `id.tool` in their `tools`.'),
    agents: z
      .record(z.string().regex(AGENT_NAME, { error: 'agent names start with a letter and use letters, digits, "_" and "-" (at most 60)' }), agentSchema)
      .optional()
      .describe('Named agents. Without any, the runtime provides one agent named `assistant`.'),
  })
  .describe('Corvid configuration (corvid.yaml).');

/** The file format as written (snake_case), e.g. for building a config in code. */
export type CorvidConfigFile = z.input<typeof configFileSchema>;
/** One model entry as written. */
export type ModelFileEntry = z.input<typeof modelSchema>;
/** One agent entry as written. */
export type AgentFileEntry = z.input<typeof agentSchema>;
