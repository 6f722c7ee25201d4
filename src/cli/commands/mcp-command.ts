import { dirname } from 'node:path';

import type { Runnable } from '../../core/runnable.js';
import type { McpHttpServerConfig } from '../../mcp/mcp-server-config.js';
import type { Tool } from '../../types/tool.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { colorsFor } from '../colors.js';
import { loadCliRuntime } from '../load-cli-runtime.js';

const SUBCOMMANDS = ['serve', 'list', 'login', 'logout'] as const;

/** `corvid mcp serve | list | login <server> | logout <server>`. */
export async function mcpCommand(context: CliContext): Promise<number> {
  const [sub, arg] = context.positionals;
  switch (sub) {
    case 'serve':
      if (arg !== undefined) throw new UsageError(`Unexpected argument "${arg}" for "corvid mcp serve"`, 'mcp');
      return serve(context);
    case 'list':
      if (arg !== undefined) throw new UsageError(`Unexpected argument "${arg}" for "corvid mcp list"`, 'mcp');
      return list(context);
    case 'login':
    case 'logout':
      if (arg === undefined) throw new UsageError(`Missing the server: corvid mcp ${sub} <server>`, 'mcp');
      return sub === 'login' ? login(context, arg) : logout(context, arg);
    case undefined:
      throw new UsageError(`Missing the subcommand: corvid mcp ${SUBCOMMANDS.join(' | ')}`, 'mcp');
    default:
      throw new UsageError(`Unknown subcommand "${sub}". Subcommands: ${SUBCOMMANDS.join(', ')}`, 'mcp');
  }
}

function parsePort(value: string | boolean | undefined): number {
  if (value === undefined || typeof value === 'boolean') return 3000;
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new UsageError(`--port must be a port number (0-65535), got "${value}"`, 'mcp');
  return Number(value);
}

async function serve(context: CliContext): Promise<number> {
  const { stderr, values } = context;
  const http = values.http === true;
  if (!http && (values.port !== undefined || values.host !== undefined || values.token !== undefined)) {
    throw new UsageError('--port, --host and --token need --http', 'mcp');
  }
  const port = parsePort(values.port);
  const runtime = await loadCliRuntime(context);
  try {
    const wanted = (values.agent as unknown as string[] | undefined) ?? [];
    // Private agents are served only when named.
    const agents: Runnable[] = wanted.length
      ? wanted.map((name) => runtime.agent<Runnable>(name))
      : [...runtime.agents.values()].filter((a) => runtime.config.agents[a.name]?.visibility !== 'private');
    const { mcpServedParts } = await import('../../runtime/mcp-served-parts.js');
    const baseDir = runtime.configPath ? dirname(runtime.configPath) : context.cwd;
    const parts = await mcpServedParts(runtime, { agents, baseDir });
    const { createMcpServer, serveMcpHttp } = await import('../../mcp/index.js');
    const server = createMcpServer(parts);
    const names = server.listTools().map((t) => t.name);
    const content = `${parts.resources.length} resource(s), ${parts.prompts.length} prompt(s)`;
    if (!http) {
      // stdout carries the protocol: everything else goes to stderr.
      await server.serveStdio();
      stderr.write(`corvid mcp: serving ${names.length} tool(s) on stdio: ${names.join(', ') || '(none)'}; ${content}\n`);
      await new Promise<void>((resolve) => {
        context.stdin.once('end', resolve);
        context.stdin.once('close', resolve);
      });
      return EXIT.ok;
    }
    const token = typeof values.token === 'string' ? values.token : context.env.CORVID_MCP_TOKEN || undefined;
    const running = await serveMcpHttp(server, {
      port,
      host: typeof values.host === 'string' ? values.host : undefined,
      authenticate: token ? (t) => t === token : undefined,
    });
    stderr.write(`corvid mcp: MCP at ${running.mcpUrl}; REST at ${running.url}/tools, ${running.url}/execute, ${running.url}/health\n`);
    stderr.write(
      `corvid mcp: ${names.length} tool(s): ${names.join(', ') || '(none)'}; ${content}${token ? ' · bearer token required' : ''}\n`,
    );
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await running.close();
    return EXIT.ok;
  } finally {
    await runtime.close().catch(() => undefined);
  }
}

async function loadServers(context: CliContext) {
  const { loadConfig } = await import('../../config/load-config.js');
  const loaded = await loadConfig({ path: context.globals.config, cwd: context.cwd, env: context.env, allowUnknownTools: true });
  const servers = loaded.config.mcpServers ?? {};
  return { servers, baseDir: loaded.path ? dirname(loaded.path) : context.cwd, file: loaded.path };
}

async function list(context: CliContext): Promise<number> {
  const { stdout } = context;
  const c = colorsFor(stdout, context.globals);
  const { servers, baseDir, file } = await loadServers(context);
  const { McpHub } = await import('../../mcp/index.js');
  const hub = new McpHub({ servers, baseDir, interactiveAuth: false });
  try {
    const settled = await hub.toolsSettled();
    const status = hub.status();
    if (context.values.json === true) {
      stdout.write(`${JSON.stringify(status, null, 2)}\n`);
      return status.some((s) => s.state === 'failed') ? EXIT.failure : EXIT.ok;
    }
    if (status.length === 0) {
      stdout.write(`No MCP servers in ${file ?? 'the config'} (declare them under mcp_servers:).\n`);
      return EXIT.ok;
    }
    for (const s of status) {
      const ok = s.state === 'connected';
      const head = `${ok ? c.green('●') : c.red('●')} ${c.bold(s.id)}  ${c.dim(`${s.transport} · ${s.target}`)}${s.serverInfo ? c.dim(` · ${s.serverInfo.name} ${s.serverInfo.version}`) : ''}`;
      stdout.write(`${head}\n`);
      if (ok) {
        const tools = settled.find((x) => x.server === s.id && 'tools' in x) as { tools: Tool[] } | undefined;
        stdout.write(`    ${(tools?.tools ?? []).map((t) => t.name).join(', ') || c.dim('(no tools)')}\n`);
      } else stdout.write(`    ${c.red(s.error ?? s.state)}\n`);
    }
    return status.some((s) => s.state === 'failed') ? EXIT.failure : EXIT.ok;
  } finally {
    await hub.close();
  }
}

async function oauthServer(context: CliContext, id: string): Promise<McpHttpServerConfig> {
  const { servers } = await loadServers(context);
  const s = servers[id];
  const { ConfigError } = await import('../../errors/config-error.js');
  if (!s) throw new ConfigError(`Unknown MCP server "${id}"; servers: ${Object.keys(servers).join(', ') || '(none)'}`);
  if (s.transport === 'stdio' || s.auth?.type !== 'oauth') {
    throw new ConfigError(`MCP server "${id}" does not use OAuth (add auth: { type: oauth } to mcp_servers.${id})`);
  }
  return s;
}

async function login(context: CliContext, id: string): Promise<number> {
  const config = await oauthServer(context, id);
  const { createOAuthSession, McpHub } = await import('../../mcp/index.js');
  const { openInBrowser } = await import('../../mcp/oauth/open-browser.js');
  const session = await createOAuthSession(id, config, { openUrl: (url, server) => openInBrowser(url, server, context.stderr) });
  try {
    await session.login();
  } finally {
    await session.dispose();
  }
  const hub = new McpHub({ servers: { [id]: config }, interactiveAuth: false });
  try {
    const tools = await hub.listTools(id);
    context.stdout.write(
      `${colorsFor(context.stdout, context.globals).green('✓')} Logged in to ${id} (${config.url}); ${tools.length} tool(s) available.\n`,
    );
  } finally {
    await hub.close();
  }
  return EXIT.ok;
}

async function logout(context: CliContext, id: string): Promise<number> {
  const config = await oauthServer(context, id);
  const { createOAuthSession } = await import('../../mcp/index.js');
  const session = await createOAuthSession(id, config, { interactive: false });
  await session.logout();
  await session.dispose();
  context.stdout.write(`Logged out of ${id}: its stored tokens are deleted.\n`);
  return EXIT.ok;
}
