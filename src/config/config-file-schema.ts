import { z } from 'zod';

import { PROVIDER_ALIASES } from '../models/parse-model-id.js';
import { codeSchema } from './code-config-schema.js';
import { durationSchema } from './duration-schema.js';
import { guardrailsSchema, scoringSchema } from './guardrails-schema.js';
import { embeddersSchema, KNOWLEDGE_NAME, knowledgeSchema } from './knowledge-schema.js';
import { mcpContentSchema } from './mcp-content-schema.js';
import { mcpServersSchema } from './mcp-servers-schema.js';
import { queueSchema } from './queue-schema.js';
import { schedulesSchema } from './schedules-schema.js';
import { serverSchema } from './server-config-schema.js';
import { storageSchema } from './storage-schema.js';
import { TOOL_KIND_NAMES, toolKindEntrySchemas } from './tool-kinds/index.js';

/**
 * The zod schema of the `corvid.yaml` file format (snake_case, every object strict). It checks
 * shapes, types and ranges; cross-references (model, agent and tool names) are checked
 * separately by `checkConfigReferences`, so all problems are reported together.
 *
 * Top-level sections reserved for later (none at the moment) are listed in `RESERVED_SECTIONS`
 * and rejected as "not supported yet" until they are implemented in `configFileSchema`.
 */

/** Agent names: they become tool names (`ask_<name>`), so letters, digits, `_` and `-`. */
export const AGENT_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,59}$/;
/** Model names: no `:`, so they never look like an inline `provider:model` id. */
export const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** Tool names, as in `tool()`. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Top-level sections that later versions will add; reported as "not supported yet". */
export const RESERVED_SECTIONS: readonly string[] = [];
/** A tool reference in `agents.*.tools`: a tool name, a tool-module id, or `module.tool`. */
export const TOOL_REF = /^[a-zA-Z0-9_-]{1,64}(\.[a-zA-Z0-9_./-]{1,128})?$/;

const PROVIDERS = Object.keys(PROVIDER_ALIASES) as [string, ...string[]];

const positiveInt = () => z.int().positive();
const temperature = () => z.number().min(0).max(2).describe('Sampling temperature, 0-2.');
const topP = () => z.number().min(0).max(1).describe('Nucleus sampling, 0-1.');
const maxTokens = () => positiveInt().describe('Maximum output tokens per model call.');
const toolMode = () =>
  z
    .enum(['native', 'json'])
    .describe(
      'How the model receives tools: `native` tool calling, or `json` (tools described in the prompt, calls parsed from text) for models without tool support.',
    );
const modelRef = () =>
  z.string().min(1).describe('A model name from `models`, or an inline `provider:model` id such as `openai:gpt-4.1-mini`.');

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
      .describe(
        'Provider: openai, anthropic (alias claude), google (alias gemini), ollama, openai-compatible (alias compatible), openai-chat (OpenAI Chat Completions).',
      ),
    model: z.string().min(1).describe("The provider's model id, e.g. `gpt-4.1-mini`, `claude-sonnet-4-5`, `llama3.2`."),
    api_key: z
      .string()
      .optional()
      .describe(
        "API key; use `${ENV_VAR}`. Default: the provider's usual variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY). Never printed.",
      ),
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
    first_byte_timeout_ms: positiveInt()
      .optional()
      .describe(
        'Streaming calls: how long the response may take to start before the call is aborted and retried, in ms. Default 60000 (ollama: timeout_ms).',
      ),
    retry: retrySchema.optional(),
    context_window: positiveInt()
      .optional()
      .describe(
        "The model's context window in tokens (corvid code compacts its session before 80 % of it). Default: known for the major hosted models, else 128000.",
      ),
    provider_options: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .optional()
      .describe(
        'Passed through to the AI SDK provider unchanged, keyed by provider (e.g. `openai: { parallelToolCalls: false }`); inner keys are camelCase as the SDK expects.',
      ),
  })
  .describe('A model: provider, model id and call settings.');

/** `tool_choice:` of an agent. */
export const toolChoiceSchema = z
  .union(
    [z.enum(['auto', 'none', 'required']), z.strictObject({ tool: z.string().min(1).describe('Name of the tool the model must call.') })],
    {
      error: 'must be auto, none, required or { tool: <tool name> }',
    },
  )
  .describe(
    'Whether the model may, must not, or must call a tool, or which one. required and { tool } apply to the first step of a run only.',
  );

/** `context:` of an agent. */
export const contextSchema = z
  .strictObject({
    max_tokens: positiveInt().describe('Budget for system prompt + history, in estimated tokens.'),
    strategy: z
      .enum(['window', 'summarize'])
      .optional()
      .describe('`window` (default) drops the oldest turns; `summarize` has a model summarise them.'),
    keep_recent_messages: z.int().min(0).optional().describe('Messages at the end that are always kept. Default 4.'),
    summary_model: modelRef()
      .optional()
      .describe("Model that writes summaries (name from `models` or `provider:model`); default the agent's model."),
  })
  .describe('Keep the conversation under a token budget.');

/** Agent types (`type:` of an agent; `llm` when absent). */
export const AGENT_TYPES = ['llm', 'sequential', 'parallel', 'loop', 'orchestrator', 'pipeline', 'router', 'remote'] as const;
/** One agent type. */
export type AgentTypeName = (typeof AGENT_TYPES)[number];
/** Keys of state and outputs (`output_key`, `until.state`). */
export const STATE_KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
/** Task ids of an orchestrator. */
export const TASK_ID = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

const agentRef = () => z.string().min(1);

/** `limits:` — limits of a run started at an agent (and of everything that run starts). */
export const limitsSchema = z
  .strictObject({
    max_depth: positiveInt().optional().describe('Deepest agent nesting (the length of an event path). Default 10.'),
    max_total_steps: positiveInt().optional().describe('Model steps across every agent of the run.'),
    max_total_tokens: positiveInt().optional().describe('Tokens (input + output) across every agent of the run.'),
    max_duration_ms: positiveInt().optional().describe('Wall time of the whole run, in ms.'),
  })
  .describe('Limits of a run started at this agent, across everything it starts; exceeding one stops the run with a clear error.');

const knowledgeRefs = z.array(
  z.string().regex(KNOWLEDGE_NAME, { error: 'knowledge base names start with a letter and use letters, digits, "_" and "-"' }),
);

/** An agent's `knowledge`: a list of bases (search tools), or `{ bases, tool, inject, budget_tokens, top_k }`. */
export const agentKnowledgeSchema = z
  .union(
    [
      knowledgeRefs,
      z
        .strictObject({
          bases: knowledgeRefs.min(1).describe('Knowledge bases from `knowledge`.'),
          tool: z.boolean().optional().describe('Give the model a search tool for them (default true).'),
          inject: z
            .boolean()
            .optional()
            .describe(
              'Search them with each user message and put the best passages, with citations, into the instructions (default false).',
            ),
          budget_tokens: z.int().min(50).optional().describe('Inject: most tokens of passages per knowledge base and turn. Default 1500.'),
          top_k: z
            .int()
            .min(1)
            .max(50)
            .optional()
            .describe("Inject: passages searched for (those that fit the budget are added). Default: the base's top_k."),
        })
        .refine((k) => k.tool !== false || k.inject === true, {
          error: 'with tool: false, set inject: true (else the agent does not use these knowledge bases)',
        }),
    ],
    { error: 'knowledge is a list of knowledge base names, or { bases: [...], inject: true, tool, budget_tokens, top_k }' },
  )
  .describe(
    'Knowledge bases from `knowledge` this agent uses. A list gives search tools: one base a `search_knowledge` tool, several one `search_<name>` tool each. `{ bases, inject: true }` also puts the passages found for each user message into the instructions (`tool: false`: only that).',
  );

/** An entry of `agent_tools`: an agent name, or a mapping with options. */
export const agentToolSchema = z.union(
  [
    agentRef().describe('An agent name.'),
    z
      .strictObject({
        agent: agentRef().describe('The agent to expose as a tool.'),
        persistent: z.boolean().optional().describe('Keep one sub-conversation per calling conversation instead of a fresh one per call.'),
      })
      .describe('An agent tool with options.'),
  ],
  { error: 'an agent_tools entry is an agent name or { agent: <name>, persistent: true }' },
);

/** `until:` of a loop agent. */
export const untilSchema = z
  .strictObject({
    state: z.string().min(1).optional().describe('Stop when this session-state key is set (truthy), or equals `equals`.'),
    equals: z.union([z.string(), z.number(), z.boolean()]).optional().describe('With `state`: the value that ends the loop.'),
    output: agentRef().optional().describe('Stop when the output of this agent (or task, or stage) matches `matches`.'),
    matches: z.string().min(1).optional().describe('With `output`: a regular expression (case-insensitive).'),
  })
  .describe('Loop agents: a condition on the state, checked after each sub-agent run, that ends the loop.');

/** One task of an orchestrator. */
export const taskSchema = z
  .strictObject({
    agent: agentRef().describe('The agent that does the task.'),
    input: z
      .string()
      .optional()
      .describe(
        "The task's request, a template: {input} (the orchestrator's input), {output.<task>}, {state.x}. Default: the orchestrator's input; dependency results are appended unless the template names them.",
      ),
    depends_on: z.array(z.string().min(1)).optional().describe('Tasks that must complete first; their results are passed to this one.'),
  })
  .describe('An orchestrator task.');

/** One stage of a pipeline: an agent name, or a mapping. */
export const stageSchema = z.union(
  [
    agentRef().describe('An agent name.'),
    z
      .strictObject({
        agent: agentRef().describe('The agent of this stage.'),
        name: z
          .string()
          .regex(TASK_ID, { error: 'stage names use letters, digits, "_" and "-"' })
          .optional()
          .describe("Stage name (unique); default the agent's name."),
        input: z
          .string()
          .optional()
          .describe(
            "This stage's request, a template: {previous} (the previous stage's result), {input}, {output.<stage>}, {state.x}. Default: the previous result.",
          ),
      })
      .describe('A pipeline stage with options.'),
  ],
  { error: 'a stage is an agent name or { agent: <name>, name?, input? }' },
);

/** One route of a router: an agent name, or a mapping. */
export const routeSchema = z.union(
  [
    agentRef().describe('An agent name (a route the classifier may pick).'),
    z
      .strictObject({
        agent: agentRef().describe('Where matching requests go.'),
        name: z
          .string()
          .regex(TASK_ID, { error: 'route names use letters, digits, "_" and "-"' })
          .optional()
          .describe("Route name (unique); default the agent's name."),
        description: z.string().optional().describe("What requests belong here (for the classifier); default the agent's description."),
        keywords: z.array(z.string().min(1)).optional().describe('Matches requests containing one of these words (whole words, any case).'),
        patterns: z
          .array(z.string().min(1))
          .optional()
          .describe('Matches requests one of these regular expressions matches (case-insensitive).'),
        priority: z.int().optional().describe('Higher priorities are tried first. Default 0.'),
      })
      .describe('A route with matching rules.'),
  ],
  { error: 'a route is an agent name or { agent: <name>, keywords?, patterns?, priority? }' },
);

/** `classifier:` of a router. */
export const classifierSchema = z
  .strictObject({
    model: modelRef().optional().describe('Model that picks the route; default the default model.'),
    instructions: z.string().optional().describe('Extra instructions for the classifier (the route list is added).'),
  })
  .describe('Routers: a model that picks the route when no keyword or pattern matches.');

/** `a2a:` of an agent — how its A2A agent card describes it (`corvid serve`). */
export const agentA2ASchema = z
  .strictObject({
    version: z.string().min(1).optional().describe('Version on the agent card. Default: the Corvid package version.'),
    skills: z
      .array(
        z.strictObject({
          id: z.string().min(1).describe('Skill id.'),
          name: z.string().min(1).optional().describe('Display name; default the id.'),
          description: z.string().optional().describe('What the skill does; default the agent description.'),
          tags: z.array(z.string().min(1)).optional().describe('Keywords.'),
          examples: z.array(z.string().min(1)).optional().describe('Example requests.'),
        }),
      )
      .optional()
      .describe('Skills on the agent card. Default: one skill named after the agent, with its description.'),
  })
  .describe('How the agent is advertised over A2A (its agent card).');

/** A duration: milliseconds, or a number with `ms`, `s` or `m` (`30s`). Lives in its own module so tool-kind schemas can use it. */
export { durationSchema };

/** One entry of `agents:`. */
export const agentSchema = z
  .strictObject({
    description: z.string().optional().describe('What the agent does; shown to other agents that use it through `agent_tools`.'),
    model: modelRef()
      .optional()
      .describe('A model name from `models` or `provider:model`. Default: `defaults.model`, else the default-model rules.'),
    instructions: z.string().optional().describe('The system prompt.'),
    tools: z
      .array(
        z.string().regex(TOOL_REF, {
          error: 'tool references are a tool name, a tool-module or MCP server id, or id.tool (letters, digits, "_" or "-")',
        }),
      )
      .optional()
      .describe(
        'Tools of this agent: names of code tools registered with `loadRuntime({ tools })`, ids from `tools:` or `mcp_servers:` (every tool of that module or server), or `id.tool` (one tool of it).',
      ),
    knowledge: agentKnowledgeSchema.optional(),
    agent_tools: z
      .array(agentToolSchema)
      .optional()
      .describe('Other agents this agent may call, each exposed as an `ask_<name>` tool (the caller keeps control).'),
    sub_agents: z
      .array(agentRef())
      .optional()
      .describe(
        'llm agents: agents it can hand the conversation over to (`transfer_to_<name>` tools). sequential, parallel and loop agents: the agents they run.',
      ),
    output_key: z
      .string()
      .regex(STATE_KEY, { error: 'state keys start with a letter or "_" and use letters, digits, "_" and "-"' })
      .optional()
      .describe('Also save the final answer in session state under this key ({state.<key>}).'),
    max_steps: positiveInt().optional().describe('Model calls allowed per run. Default `defaults.max_steps`, else 10.'),
    temperature: temperature().optional(),
    max_tokens: maxTokens().optional(),
    top_p: topP().optional(),
    reasoning: reasoningSchema.optional(),
    tool_choice: toolChoiceSchema.optional(),
    tool_concurrency: positiveInt().optional().describe('Tool calls of one model response run at most this many at once. Default 8.'),
    tool_errors: z
      .enum(['return', 'throw'])
      .optional()
      .describe('`return` (default): tool failures go back to the model; `throw`: the run fails.'),
    tool_timeout_ms: positiveInt().optional().describe('Default per-call time limit for tools without their own, in ms.'),
    require_approval: z
      .union(
        [
          z.array(z.string().min(1, { error: 'a tool name' })),
          z.record(z.string().min(1), z.union([z.string(), z.literal(true)]), { error: 'a map of tool name to prompt text (or true)' }),
        ],
        { error: 'require_approval is a list of tool names, or a map of tool name to the prompt shown to the approver' },
      )
      .optional()
      .describe(
        'Tools whose calls wait for a human\'s approval: a list of tool names, or { tool: "prompt text" } ({field} is filled from the arguments). The run pauses until someone answers (corvid approvals), or corvid chat asks inline.',
      ),
    context: contextSchema.optional(),
    limits: limitsSchema.optional(),
    guardrails: guardrailsSchema.optional(),
    scoring: scoringSchema.optional(),
    type: z
      .enum(AGENT_TYPES)
      .optional()
      .describe(
        'llm (default): a model with tools. sequential, parallel, loop: run sub_agents. orchestrator: a task graph. pipeline: chained stages. router: one route per request. remote: an agent served elsewhere over A2A (url).',
      ),
    max_concurrency: positiveInt().optional().describe('parallel agents: sub-agents running at once. Default: all.'),
    fail_fast: z
      .boolean()
      .optional()
      .describe(
        'parallel and orchestrator agents: the first failure cancels the rest and fails the run (default true); false continues and returns every outcome.',
      ),
    max_iterations: positiveInt().optional().describe('loop agents: iterations at most. Default 10.'),
    until: untilSchema.optional(),
    on_max_iterations: z
      .enum(['stop', 'error'])
      .optional()
      .describe('loop agents: reaching max_iterations ends the loop (`stop`, default) or fails the run (`error`).'),
    tasks: z
      .record(z.string().regex(TASK_ID, { error: 'task ids start with a letter or "_" and use letters, digits, "_" and "-"' }), taskSchema)
      .optional()
      .describe('orchestrator agents: tasks by id; depends_on between them forms a graph without cycles.'),
    max_parallel: positiveInt().optional().describe('orchestrator agents: tasks running at once. Default: every task that is ready.'),
    stages: z.array(stageSchema).optional().describe("pipeline agents: the stages, each receiving the previous stage's result."),
    routes: z.array(routeSchema).optional().describe('router agents: the routes, by keywords, patterns and priority.'),
    default_route: agentRef().optional().describe('router agents: the route (or agent) for requests no route matches.'),
    classifier: classifierSchema.optional(),
    url: z
      .string()
      .refine((u) => /^https?:\/\//.test(u) && URL.canParse(u), {
        error: 'must be an http(s) URL: the agent card, the server base URL or a JSON-RPC endpoint',
      })
      .optional()
      .describe("remote agents: the A2A agent-card URL (…/agent-card.json), the server's base URL, or a JSON-RPC endpoint."),
    headers: z
      .record(z.string(), z.string())
      .optional()
      .describe('remote agents: HTTP headers sent with every request (use ${VAR} for secrets).'),
    timeout: durationSchema.optional().describe('remote agents: time allowed for one call, e.g. 30s (default) or 120000.'),
    a2a: agentA2ASchema.optional(),
    visibility: z
      .enum(['public', 'internal', 'private'])
      .optional()
      .describe(
        'Over HTTP (`corvid serve`): `public` (default) listed and reachable; `internal` needs a valid token even where other paths are open; `private` answers 404 (still usable as a sub-agent or agent tool).',
      ),
  })
  .describe('An agent: an LLM agent (instructions, a model and tools) or a workflow agent of the given type.');

/** One entry of `tools:` — a JavaScript module whose exports are Corvid tools. */
export const toolModuleSchema = z
  .strictObject({
    module: z
      .string()
      .min(1)
      .describe('Path of an ES module (.js/.mjs), relative to this config file, or a package name, that exports tools made with `tool()`.'),
    export: z
      .string()
      .min(1)
      .optional()
      .describe('Use only this named export (a tool or an array of tools). Default: every exported tool.'),
  })
  .describe('Tools loaded from a JavaScript module, so YAML-only setups (and the CLI) can use code tools.');

/** One entry of `tools:` — a tool module, or a built-in tool family (`type: files`, …) with its options. */
export const toolEntrySchema = z
  .discriminatedUnion(
    'type',
    [
      toolModuleSchema.extend({ type: z.literal('module').optional().describe('`module` (the default when `module:` is given).') }),
      ...toolKindEntrySchemas,
    ],
    {
      error: (issue) =>
        issue.code === 'invalid_union'
          ? `type must be one of: ${TOOL_KIND_NAMES.join(', ')} (or leave it out for a { module: … } entry)`
          : undefined,
    },
  )
  .describe('A tool module, or a built-in tool family with its options.');

/** `defaults:` — values used where agents and models leave them out. */
export const defaultsSchema = z
  .strictObject({
    model: modelRef().optional().describe('Model of agents without `model`.'),
    agent: z
      .string()
      .min(1)
      .optional()
      .describe('Agent used when none is named (e.g. `corvid run` without `--agent`). Default: the first agent.'),
    max_steps: positiveInt().optional().describe('`max_steps` of agents without one. Default 10.'),
    temperature: temperature().optional().describe('Temperature of models without one.'),
    tool_mode: toolMode().optional().describe('`tool_mode` of models without one. Default native.'),
    limits: limitsSchema.optional().describe('`limits` of agents without their own.'),
  })
  .describe('Defaults for agents and models.');

/** `cassette:` — record and replay the model calls of every agent (docs/cassettes.md). */
export const cassetteSchema = z
  .strictObject({
    path: z.string().min(1).describe('The cassette file (JSON), relative to the working directory.'),
    mode: z
      .enum(['live', 'record', 'replay', 'auto'])
      .optional()
      .describe(
        'live, record, replay or auto (replay what is recorded, record the rest). Default auto; CORVID_CASSETTE_MODE and --record/--replay override it.',
      ),
    live_tools: z
      .union([z.boolean(), z.array(z.string().min(1))])
      .optional()
      .describe('Tools that run even when their results are recorded: true for all, or tool names. Default: none.'),
  })
  .describe('Record model calls to a cassette file and replay them.');

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
      .record(z.string().regex(TOOL_NAME, { error: 'tool-module ids use 1-64 letters, digits, "_" or "-"' }), toolEntrySchema)
      .optional()
      .describe(
        'Tool modules and built-in tool families (`type: files`, …) by id; agents list an id (all its tools) or `id.tool` in their `tools`.',
      ),
    mcp_servers: mcpServersSchema.optional(),
    mcp: mcpContentSchema.optional(),
    embedders: embeddersSchema.optional(),
    knowledge: knowledgeSchema.optional(),
    storage: storageSchema.optional(),
    queue: queueSchema.optional(),
    schedules: schedulesSchema.optional(),
    agents: z
      .record(
        z.string().regex(AGENT_NAME, { error: 'agent names start with a letter and use letters, digits, "_" and "-" (at most 60)' }),
        agentSchema,
      )
      .optional()
      .describe('Named agents. Without any, the runtime provides one agent named `assistant`.'),
    server: serverSchema.optional(),
    code: codeSchema.optional(),

    cassette: cassetteSchema.optional(),
  })
  .describe('Corvid configuration (corvid.yaml).');

/** The file format as written (snake_case), e.g. for building a config in code. */
export type CorvidConfigFile = z.input<typeof configFileSchema>;
/** One model entry as written. */
export type ModelFileEntry = z.input<typeof modelSchema>;
/** One agent entry as written. */
export type AgentFileEntry = z.input<typeof agentSchema>;

const COMMON_KEYS = ['description', 'output_key', 'limits', 'type', 'visibility', 'a2a'] as const;
/** Agent keys only workflow agents take. */
const WORKFLOW_ONLY_KEYS: readonly string[] = [
  'max_concurrency',
  'fail_fast',
  'max_iterations',
  'until',
  'on_max_iterations',
  'tasks',
  'max_parallel',
  'stages',
  'routes',
  'default_route',
  'classifier',
];

/** Agent keys only remote agents take. */
const REMOTE_ONLY_KEYS: readonly string[] = ['url', 'headers', 'timeout'];

/**
 * The keys each agent type takes. The schema accepts the union (so editors can complete any),
 * and validation reports a key that does not belong to the agent's type.
 */
export const AGENT_TYPE_KEYS: Record<AgentTypeName, readonly string[]> = {
  // Everything else the schema has is for llm agents.
  llm: Object.keys(agentSchema.shape).filter((k) => !WORKFLOW_ONLY_KEYS.includes(k) && !REMOTE_ONLY_KEYS.includes(k)),
  sequential: [...COMMON_KEYS, 'sub_agents'],
  parallel: [...COMMON_KEYS, 'sub_agents', 'max_concurrency', 'fail_fast'],
  loop: [...COMMON_KEYS, 'sub_agents', 'max_iterations', 'until', 'on_max_iterations'],
  orchestrator: [...COMMON_KEYS, 'tasks', 'max_parallel', 'fail_fast'],
  pipeline: [...COMMON_KEYS, 'stages'],
  router: [...COMMON_KEYS, 'routes', 'default_route', 'classifier'],
  // Output keys and run limits belong to runs started here; a remote agent's run is elsewhere.
  remote: ['description', 'type', 'visibility', 'a2a', ...REMOTE_ONLY_KEYS],
};
