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
  const status = hub.status();
  const unused = status.some((st) => (st.tools ?? []).length > 0 && !st.tools!.some((t) => usedTools.has(mcpToolName(st.id, t))));
  return [
    `MCP servers (${ids.length}; /mcp reconnect [server] restarts):`,
    ...status.map(serverLines),
    ...(unused
      ? [
          'This session uses the tools of the servers its agent lists: start with --agent <name> (an agent of corvid.yaml whose tools name the server).',
        ]
      : []),
  ].join('\n');
}

function serverLines(s: McpServerStatus): string {
  const state = s.state === 'connected' ? '✓ connected' : s.state === 'failed' ? '✗ failed' : `○ ${s.state}`;
  const tools = s.tools ?? [];
  const count = s.tools ? ` · ${tools.length} tool${tools.length === 1 ? '' : 's'}` : '';
  const head = `  ${s.id}  ${state}${count} · ${s.transport} ${s.target}`;
  const detail = s.error !== undefined ? `      error: ${s.error}` : tools.length ? `      ${tools.join(', ')}` : undefined;
  return detail === undefined ? head : `${head}\n${detail}`;
}
