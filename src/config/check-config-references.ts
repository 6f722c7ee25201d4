import { assertReadOnlySelect } from '../knowledge/read-only-sql.js';
import { canonicalProvider, PROVIDER_ALIASES } from '../models/parse-model-id.js';
import { MEMORY_TOOL_NAMES } from '../tools/memory/builtin-tool-names.js';
import { type AgentEdge, agentTypeOf, checkAgentTypes, transferName } from './check-agent-types.js';
import type { ConfigPath, RawIssue } from './parse-config-source.js';

/** Tools every config can use without registering them. */
export const BUILTIN_TOOLS = ['exit_loop', 'ask_user', ...MEMORY_TOOL_NAMES] as const;

/** How tool names in `agents.*.tools` are checked. */
export interface ToolNameOptions {
  /** Names of tools that will be registered (code tools, built-ins). */
  knownTools?: Iterable<string>;
  /** Accept names outside `knownTools`; they are reported as warnings instead of errors. */
  allowUnknownTools?: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: Obj, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
const list = (names: Iterable<string>): string => [...names].map((n) => `"${n}"`).join(', ') || '(none)';

/** The `ask_<name>` tool name an agent gets when another agent lists it in `agent_tools`. */
export function agentToolName(agent: string): string {
  return `ask_${agent.replace(/[^a-zA-Z0-9_-]/g, '_')}`.slice(0, 64);
}

/**
 * Cross-reference checks on parsed (not yet schema-validated) config data: model references,
 * `defaults.agent`, tool and agent-tool names, `tool_choice`, summary models, provider-specific
 * settings, and cycles among `agent_tools`. Tolerates wrong shapes (the schema reports those),
 * so these problems are reported together with schema problems.
 */
export function checkConfigReferences(data: unknown, options: ToolNameOptions = {}): { errors: RawIssue[]; warnings: RawIssue[] } {
  const errors: RawIssue[] = [];
  const warnings: RawIssue[] = [];
  if (!isObj(data)) return { errors, warnings };
  const models = isObj(data.models) ? data.models : {};
  const agents = isObj(data.agents) ? data.agents : {};
  const known = options.knownTools ? new Set(options.knownTools) : undefined;
  const toolModules = isObj(data.tools) ? data.tools : {};
  const mcpServers = isObj(data.mcp_servers) ? data.mcp_servers : {};
  for (const id of Object.keys(mcpServers)) {
    if (has(toolModules, id))
      errors.push({
        path: ['mcp_servers', id],
        at: 'key',
        message: `"${id}" is both a tool module (tools.${id}) and an MCP server; give them different ids`,
      });
  }

  const checkModelRef = (ref: unknown, path: ConfigPath): void => {
    if (typeof ref !== 'string' || ref === '' || has(models, ref)) return;
    const i = ref.indexOf(':');
    if (i === -1) {
      const names = Object.keys(models);
      errors.push({
        path,
        message: `unknown model "${ref}": define it under models${names.length ? ` (defined: ${list(names)})` : ''} or write "provider:model", e.g. "openai:gpt-4.1-mini"`,
      });
    } else if (i === 0 || i === ref.length - 1) {
      errors.push({ path, message: `invalid model id "${ref}": write "provider:model", e.g. "ollama:llama3.2"` });
    } else if (!canonicalProvider(ref.slice(0, i))) {
      errors.push({
        path,
        message: `unknown provider "${ref.slice(0, i)}" in "${ref}"; known providers: ${Object.keys(PROVIDER_ALIASES).join(', ')}`,
      });
    }
  };

  for (const [name, m] of Object.entries(models)) {
    if (!isObj(m) || typeof m.provider !== 'string') continue;
    const provider = canonicalProvider(m.provider);
    if (provider === 'openai-compatible' && (m.base_url === undefined || m.base_url === '')) {
      errors.push({
        path: ['models', name],
        at: 'key',
        message: 'an openai-compatible model needs base_url, e.g. http://127.0.0.1:8000/v1',
      });
    }
    if (m.api !== undefined && provider !== undefined && provider !== 'openai') {
      errors.push({ path: ['models', name, 'api'], message: `api applies only to openai models, not ${m.provider}` });
    }
  }

  const defaults = isObj(data.defaults) ? data.defaults : {};
  checkModelRef(defaults.model, ['defaults', 'model']);
  errors.push(...checkScheduleAgents(data.schedules, agents));
  if (typeof defaults.agent === 'string' && !has(agents, defaults.agent)) {
    errors.push({ path: ['defaults', 'agent'], message: `unknown agent "${defaults.agent}"; agents: ${list(Object.keys(agents))}` });
  }

  const knowledge = checkKnowledgeReferences(data, errors, checkModelRef);
  const graph = checkAgentTypes(agents, errors);
  for (const [name, a] of Object.entries(agents)) {
    if (!isObj(a)) continue;
    const base = ['agents', name];
    const type = agentTypeOf(a);
    if (type === 'router' && isObj(a.classifier)) checkModelRef(a.classifier.model, [...base, 'classifier', 'model']);
    // Keys of other types are reported by checkAgentTypes; their references are not checked again.
    if (type !== 'llm') continue;
    checkModelRef(a.model, [...base, 'model']);
    if (isObj(a.context)) checkModelRef(a.context.summary_model, [...base, 'context', 'summary_model']);
    const toolNames = new Map<string, ConfigPath>();
    let usesModules = false;
    const addName = (tool: string, path: ConfigPath, what: string): boolean => {
      if (!toolNames.has(tool)) return toolNames.set(tool, path) !== undefined;
      errors.push({
        path,
        message: `${what}: agent "${name}" already has a tool named "${tool}" (at ${formatPathShort(toolNames.get(tool)!)})`,
      });
      return false;
    };
    if (Array.isArray(a.tools)) {
      a.tools.forEach((tool, i) => {
        if (typeof tool !== 'string') return;
        const path = [...base, 'tools', i];
        const dot = tool.indexOf('.');
        if (dot > 0) {
          // `module.tool`: the module must be declared; the tool itself is checked when the module loads.
          const moduleId = tool.slice(0, dot);
          if (!has(toolModules, moduleId) && !has(mcpServers, moduleId)) {
            const mcp = Object.keys(mcpServers).length ? `; MCP servers: ${list(Object.keys(mcpServers))}` : '';
            errors.push({
              path,
              message: `unknown tool module "${moduleId}" in "${tool}"; tool modules: ${list(Object.keys(toolModules))}${mcp}`,
            });
          } else usesModules = true;
          addName(tool, path, `duplicate tool "${tool}"`);
          return;
        }
        if (has(toolModules, tool) || has(mcpServers, tool)) {
          usesModules = true;
          addName(tool, path, `duplicate ${has(mcpServers, tool) ? 'MCP server' : 'tool module'} "${tool}"`);
          return;
        }
        if (!addName(tool, path, `duplicate tool "${tool}"`) || known?.has(tool) || (BUILTIN_TOOLS as readonly string[]).includes(tool))
          return;
        const issue = {
          path,
          message: known
            ? `unknown tool "${tool}" in agent "${name}"; registered tools: ${list(known)}`
            : `tool "${tool}" of agent "${name}" is not known here; code-defined tools are registered with loadRuntime({ tools })`,
        };
        (options.allowUnknownTools ? warnings : errors).push(issue);
      });
    }
    for (const [tool, path, kb] of agentKnowledgeTools(a.knowledge, [...base, 'knowledge'], knowledge, errors)) {
      addName(tool, path, `knowledge base "${kb}"`);
    }
    const edges: AgentEdge[] = graph.get(name) ?? [];
    if (Array.isArray(a.agent_tools)) {
      a.agent_tools.forEach((entry, i) => {
        const target = typeof entry === 'string' ? entry : isObj(entry) ? entry.agent : undefined;
        if (typeof target !== 'string') return;
        const path = typeof entry === 'string' ? [...base, 'agent_tools', i] : [...base, 'agent_tools', i, 'agent'];
        if (target === name) errors.push({ path, message: `agent "${name}" cannot list itself in agent_tools` });
        else if (!has(agents, target)) errors.push({ path, message: `unknown agent "${target}"; agents: ${list(Object.keys(agents))}` });
        else {
          addName(agentToolName(target), path, `agent tool "${target}"`);
          edges.push({ target, path, kind: 'agent_tools' });
        }
      });
    }
    if (Array.isArray(a.sub_agents)) {
      a.sub_agents.forEach((target, i) => {
        if (typeof target === 'string' && target !== name && has(agents, target)) {
          addName(transferName(target), [...base, 'sub_agents', i], `handoff to "${target}"`);
        }
      });
    }
    graph.set(name, edges);
    const choice = a.tool_choice;
    if (isObj(choice) && typeof choice.tool === 'string' && !toolNames.has(choice.tool) && !usesModules) {
      errors.push({
        path: [...base, 'tool_choice', 'tool'],
        message: `tool_choice names "${choice.tool}", which agent "${name}" does not have; its tools: ${list(toolNames.keys())}`,
      });
    }
  }
  errors.push(...findCycles(graph));
  checkQueueUrl(data, errors);
  return { errors, warnings };
}

/** A postgres queue without its own url takes the storage's, which must then be a Postgres one. */
function checkQueueUrl(data: Obj, errors: RawIssue[]): void {
  const queue = isObj(data.queue) ? data.queue : {};
  if (queue.backend !== 'postgres' || queue.url !== undefined) return;
  const storage = isObj(data.storage) ? data.storage : {};
  const url = typeof storage.url === 'string' ? storage.url : '';
  if (storage.driver === 'postgres' || /^postgres(ql)?:/i.test(url)) return;
  errors.push({
    path: ['queue', 'backend'],
    message: 'the postgres queue needs a url: set queue.url (postgres://…), or put storage on Postgres (its url is then used)',
  });
}

/** The tool an agent gets for knowledge base `name` when it lists several (one alone: `search_knowledge`). */
export function knowledgeToolName(name: string): string {
  return `search_${name}`.slice(0, 64);
}

/** The search tools an agent's `knowledge` (a list, or `{ bases, tool }`) gives (tool name, path, base); unknown bases are errors. */
function agentKnowledgeTools(refs: unknown, path: ConfigPath, knowledge: Obj, errors: RawIssue[]): Array<[string, ConfigPath, string]> {
  let tools = true;
  if (isObj(refs)) {
    tools = refs.tool !== false;
    path = [...path, 'bases'];
    refs = refs.bases;
  }
  if (!Array.isArray(refs)) return [];
  const out: Array<[string, ConfigPath, string]> = [];
  refs.forEach((kb: unknown, i) => {
    if (typeof kb !== 'string') return;
    if (has(knowledge, kb)) {
      if (tools) out.push([(refs as unknown[]).length > 1 ? knowledgeToolName(kb) : 'search_knowledge', [...path, i], kb]);
    } else
      errors.push({
        path: [...path, i],
        message: `unknown knowledge base "${kb}"; define it under knowledge (defined: ${list(Object.keys(knowledge))})`,
      });
  });
  return out;
}

/**
 * `knowledge.*.embedder` and `storage.embedder` name an entry of `embedders`; openai-compatible
 * embedders have a base_url; `knowledge.*.search.model` is a model reference; SQL sources read
 * only and name a database URL that parses (nothing is connected to). Returns `knowledge:`.
 */
function checkKnowledgeReferences(data: Obj, errors: RawIssue[], checkModelRef: (ref: unknown, path: ConfigPath) => void): Obj {
  const embedders = isObj(data.embedders) ? data.embedders : {};
  const knowledge = isObj(data.knowledge) ? data.knowledge : {};
  for (const [name, e] of Object.entries(embedders)) {
    if (isObj(e) && typeof e.provider === 'string' && canonicalProvider(e.provider) === 'openai-compatible' && !e.base_url) {
      errors.push({
        path: ['embedders', name],
        at: 'key',
        message: 'an openai-compatible embedder needs base_url, e.g. http://127.0.0.1:8000/v1',
      });
    }
  }
  const storage = isObj(data.storage) ? data.storage : {};
  if (typeof storage.embedder === 'string' && !has(embedders, storage.embedder)) {
    errors.push({
      path: ['storage', 'embedder'],
      message: `unknown embedder "${storage.embedder}"; define it under embedders (defined: ${list(Object.keys(embedders))})`,
    });
  }
  for (const [name, k] of Object.entries(knowledge)) {
    if (!isObj(k)) continue;
    if (typeof k.embedder === 'string' && !has(embedders, k.embedder)) {
      errors.push({
        path: ['knowledge', name, 'embedder'],
        message: `unknown embedder "${k.embedder}"; define it under embedders (defined: ${list(Object.keys(embedders))})`,
      });
    }
    if (isObj(k.search)) checkModelRef(k.search.model, ['knowledge', name, 'search', 'model']);
    if (Array.isArray(k.sources)) k.sources.forEach((source, i) => checkSqlSource(source, ['knowledge', name, 'sources', i], errors));
    if (isObj(k.search) && typeof k.search.mmr === 'number' && k.embedder === undefined) {
      errors.push({ path: ['knowledge', name, 'search', 'mmr'], message: "MMR compares the passages' vectors: it needs an embedder" });
    }
    if (isObj(k.search) && k.search.mode === 'vector' && k.embedder === undefined) {
      errors.push({
        path: ['knowledge', name, 'search', 'mode'],
        message: 'vector search needs an embedder: set embedder, or use mode keyword',
      });
    }
  }
  return knowledge;
}

/** The database URL schemes a SQL source understands (anything without `scheme://` is a SQLite file path). */
const SQL_URL = /^(postgres|postgresql|mysql|sqlite|file):$/i;

/** A `type: sql` source: its query reads only; its `url`, when a URL, parses and has a known scheme. */
function checkSqlSource(source: unknown, path: ConfigPath, errors: RawIssue[]): void {
  if (!isObj(source) || source.type !== 'sql') return;
  if (typeof source.query === 'string' && source.query.trim()) {
    try {
      assertReadOnlySelect(source.query, 'sql source');
    } catch (err) {
      errors.push({ path: [...path, 'query'], message: (err as Error).message.replace(/^sql source: /, '') });
    }
  }
  if (typeof source.url !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\//i.test(source.url)) return;
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(source.url)![0];
  if (!SQL_URL.test(scheme)) {
    errors.push({
      path: [...path, 'url'],
      message: `unsupported database URL scheme "${scheme}//": use postgres://…, mysql://… or a SQLite file path (relative to this config file)`,
    });
  } else if (!URL.canParse(source.url)) {
    errors.push({
      path: [...path, 'url'],
      message: `the database URL does not parse; write e.g. postgres://user:password@host:5432/db (percent-encode special characters)`,
    });
  }
}

function formatPathShort(path: ConfigPath): string {
  const i = path.findIndex((p) => typeof p === 'number');
  const last = i > 0 ? path.slice(i - 1, i + 1) : path.slice(-2);
  return `${last[0]}[${last[1]}]`;
}

/**
 * Depth-first search over the references that nest one agent's run in another's (agent_tools,
 * workflow sub_agents, tasks, stages, routes; handoffs may go back and forth); each back edge
 * closes one cycle.
 */
function findCycles(graph: Map<string, AgentEdge[]>): RawIssue[] {
  const issues: RawIssue[] = [];
  const state = new Map<string, 'active' | 'done'>();
  const stack: Array<{ node: string; kind?: AgentEdge['kind'] }> = [];
  const visit = (node: string, via?: AgentEdge['kind']): void => {
    state.set(node, 'active');
    stack.push({ node, kind: via });
    for (const edge of graph.get(node) ?? []) {
      const s = state.get(edge.target);
      if (s === 'active') {
        const from = stack.findIndex((e) => e.node === edge.target);
        const kinds = new Set([...stack.slice(from + 1).map((e) => e.kind), edge.kind]);
        const cycle = [...stack.slice(from).map((e) => e.node), edge.target].join(' → ');
        issues.push({
          path: edge.path,
          message:
            kinds.size === 1 && kinds.has('agent_tools')
              ? `agent_tools cycle: ${cycle}`
              : `agent cycle: ${cycle} (an agent cannot contain or call itself, directly or through others)`,
        });
      } else if (s === undefined && graph.has(edge.target)) visit(edge.target, edge.kind);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return issues;
}

/** `schedules.*.agent` names an agent (without agents, the runtime's `assistant`). */
function checkScheduleAgents(schedules: unknown, agents: Obj): RawIssue[] {
  const names = Object.keys(agents).length > 0 ? Object.keys(agents) : ['assistant'];
  return Object.entries(isObj(schedules) ? schedules : {})
    .filter(([, s]) => isObj(s) && typeof s.agent === 'string' && !names.includes(s.agent))
    .map(([name, s]) => ({
      path: ['schedules', name, 'agent'],
      message: `unknown agent "${String((s as Obj).agent)}"; agents: ${list(names)}`,
    }));
}
