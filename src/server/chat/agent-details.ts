import type { AgentConfig, CorvidConfig } from '../../config/corvid-config.js';
import type { Runnable } from '../../core/runnable.js';
import { isMemoryToolName } from '../../tools/memory/builtin-tool-names.js';
import type { Tool } from '../../types/tool.js';
import { modelLabel } from './model-label.js';

/** The mark of MCP tools (`mcpTool()`), read without loading the MCP code. */
const MCP_TOOL = Symbol.for('corvid.mcpTool');

/** Where a tool of an agent comes from. */
export type ToolSource = 'builtin' | 'module' | 'mcp' | 'agent' | 'knowledge' | 'code';

/** A tool as `GET /api/v1/agents/{name}` shows it. */
export interface AgentToolView {
  name: string;
  description?: string;
  source: ToolSource;
  needsApproval?: boolean;
}

/** The multi-agent structure of an agent: its handoffs, the agents it runs, its task graph. */
export interface AgentStructure {
  handoffs?: string[];
  subAgents?: string[];
  /** Agents it calls as tools (`agent_tools:`, the `ask_<agent>` tools). */
  agentTools?: string[];
  tasks?: Array<{ name: string; agent: string; dependsOn: string[] }>;
}

/** What `GET /api/v1/agents/{name}` adds to an agent's listing. */
export interface AgentDetails {
  model?: string;
  tools: AgentToolView[];
  structure?: AgentStructure;
}

/** Where a tool comes from: its marks (MCP), the agent's config (agent tools, knowledge, modules), else code. */
function sourceOf(tool: Tool, config: AgentConfig | undefined, whole: CorvidConfig): ToolSource {
  if ((tool as unknown as Record<symbol, unknown>)[MCP_TOOL] !== undefined) return 'mcp';
  if (config === undefined) return 'code';
  if (config.agentTools.some((a) => tool.name === `ask_${a}`)) return 'agent';
  const bases = config.knowledge ?? [];
  if (bases.length > 0 && (tool.name === 'search_knowledge' || bases.some((b) => tool.name === `search_${b}`.slice(0, 64))))
    return 'knowledge';
  if (config.tools.includes(tool.name)) return isMemoryToolName(tool.name) && !(tool.name in whole.toolModules) ? 'builtin' : 'code';
  const families = config.tools.filter((ref) => {
    const entry = whole.toolModules[ref.split('.')[0]!];
    return entry !== undefined && 'type' in entry;
  });
  // Tools of a `tools:` entry the agent names: a built-in family (`type: files` …) or a module.
  return families.length > 0 && families.length === config.tools.length ? 'builtin' : 'module';
}

function needsApproval(tool: Tool, config: AgentConfig | undefined): boolean {
  return tool.requireApproval !== undefined || config?.requireApproval?.[tool.name] !== undefined;
}

function structureOf(agent: Runnable, config: AgentConfig | undefined): AgentStructure | undefined {
  const out: AgentStructure = {};
  const handoffs = (agent as { handoffs?: readonly Runnable[] }).handoffs;
  if (agent.kind === 'llm') {
    if (handoffs && handoffs.length > 0) out.handoffs = handoffs.map((h) => h.name);
  } else if (agent.subAgents.length > 0) out.subAgents = agent.subAgents.map((a) => a.name);
  if (config?.agentTools && config.agentTools.length > 0) out.agentTools = [...config.agentTools];
  if (agent.kind === 'orchestrator') {
    const tasks =
      config?.tasks?.map((t) => ({ name: t.id, agent: t.agent, dependsOn: [...t.dependsOn] })) ??
      (agent as unknown as { tasks?: Array<{ id: string; agent: Runnable; dependsOn?: string[] }> }).tasks?.map((t) => ({
        name: t.id,
        agent: t.agent.name,
        dependsOn: [...(t.dependsOn ?? [])],
      }));
    if (tasks && tasks.length > 0) out.tasks = tasks;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The model, tools (with where each comes from and whether it needs approval) and multi-agent
 * structure of an agent, for the Studio's agent page. Tool sources are read from the config
 * when the agent has one (agent tools, knowledge, tool families, modules), MCP tools from their
 * mark; tools of agents built in code are `code`.
 */
export function agentDetails(agent: Runnable, config: CorvidConfig): AgentDetails {
  const own = config.agents[agent.name];
  const tools = ((agent as { tools?: readonly Tool[] }).tools ?? []).map((t): AgentToolView => {
    const view: AgentToolView = { name: t.name, source: sourceOf(t, own, config) };
    if (t.description) view.description = t.description;
    if (needsApproval(t, own)) view.needsApproval = true;
    return view;
  });
  const out: AgentDetails = { tools };
  if (agent.kind === 'llm' || agent.kind === 'router') out.model = modelLabel(agent);
  const structure = structureOf(agent, own);
  if (structure) out.structure = structure;
  return out;
}
