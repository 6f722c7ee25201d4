import { mcpToolName } from '../mcp/tool-names.js';
import type { McpServerStatus } from '../mcp/types.js';
import type { CodeRuntime } from './code-runtime.js';

/**
 * `/mcp`: the MCP servers of `corvid.yaml` with their state (each is connected to list its tools, so a server that
 * cannot start shows its error), their tools, and whether this session's agent uses them; `/mcp reconnect [id]`
 * restarts one server (or all) first. Returns the text to show.
 */
export async function mcpReport(runtime: CodeRuntime, args: string[], usedTools: ReadonlySet<string>): Promise<string> {
  const hub = runtime.mcp;
  if (hub === undefined)
    return 'No MCP servers: add them under mcp_servers: in corvid.yaml (and list them in the tools of the agent you start with --agent).';
  const [verb, id] = args;
  const ids = hub.status().map((s) => s.id);
  if (verb !== undefined && verb !== 'reconnect') return `/mcp takes nothing or "reconnect [server]", not "${verb}".`;
  if (id !== undefined && !ids.includes(id)) return `No MCP server "${id}": the servers are ${ids.join(', ')}.`;
  if (verb === 'reconnect') await hub.reload(id).catch(() => undefined);
  else await hub.toolsSettled();
  const lines = hub.status().map((s) => serverLines(s, usedTools));
  return [`MCP servers (${ids.length}; /mcp reconnect [server] restarts):`, ...lines].join('\n');
}

function serverLines(s: McpServerStatus, usedTools: ReadonlySet<string>): string {
  const state = s.state === 'connected' ? '✓ connected' : s.state === 'failed' ? '✗ failed' : `○ ${s.state}`;
  const tools = s.tools ?? [];
  const used = tools.some((t) => usedTools.has(mcpToolName(s.id, t)));
  const head = `  ${s.id}  ${state}  ${s.transport} ${s.target}${s.tools ? `  ${tools.length} tool${tools.length === 1 ? '' : 's'}` : ''}${used ? '' : tools.length ? ' (not used by this session: start with --agent naming an agent that lists it)' : ''}`;
  const detail = s.error !== undefined ? `      error: ${s.error}` : tools.length ? `      ${tools.join(', ')}` : undefined;
  return detail === undefined ? head : `${head}\n${detail}`;
}
