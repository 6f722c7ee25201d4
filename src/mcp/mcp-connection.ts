import { resolve } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

import { redactUrl, redactUrls } from '../core/redact-urls.js';
import { McpError } from '../errors/mcp-error.js';
import { callError, connectError, type ConnectionDiagnostics, handshakeTimeoutError, isTimeout } from './connection-errors.js';
import { createSdkClient } from './create-sdk-client.js';
import {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  type McpAuthSession,
  type McpCallOptions,
  type McpConnectionOptions,
} from './mcp-connection-options.js';
import type { McpServerConfig } from './mcp-server-config.js';
import { type ClientSdk, loadClientSdk } from './sdk.js';
import { toMcpToolInfo } from './tool-info.js';
import type { McpCallResult } from './tool-result.js';
import type { McpServerState, McpServerStatus, McpToolInfo } from './types.js';

interface CallListener {
  onLog?: McpCallOptions['onLog'];
}

let progressTokens = 0;

function describeTarget(config: McpServerConfig): string {
  return config.transport === 'stdio' ? [config.command, ...config.args].join(' ') : config.url;
}

function logText(data: unknown): string {
  if (typeof data === 'string') return data;
  try {
    return JSON.stringify(data);
  } catch {
    return String(data);
  }
}

/**
 * One MCP server: started (or reached) on first use, then reused. A stdio server that exits is
 * started again on the next call; the call that was running fails with an error saying so.
 * Every error is an `McpError` naming the server.
 */
export class McpConnection {
  readonly id: string;
  readonly config: McpServerConfig;
  private readonly options: McpConnectionOptions;
  private client: Client | undefined;
  private transport: Transport | undefined;
  private connecting: Promise<Client> | undefined;
  private toolCache: McpToolInfo[] | undefined;
  private auth: McpAuthSession | undefined;
  private state: McpServerState = 'idle';
  private lastError: McpError | undefined;
  private stderrTail = '';
  private garbage: string[] = [];
  private usedTransport: string | undefined;
  private readonly calls = new Set<CallListener>();
  private readonly progress = new Map<string, NonNullable<McpCallOptions['onProgress']>>();
  private closed = false;
  /** Set when the connection dropped while calls were running, for their error messages. */
  private dropped = false;

  constructor(id: string, config: McpServerConfig, options: McpConnectionOptions = {}) {
    this.id = id;
    this.config = config;
    this.options = options;
  }

  /** State, tools and last error, without connecting. */
  status(): McpServerStatus {
    const s: McpServerStatus = {
      id: this.id,
      state: this.state,
      transport: this.usedTransport ?? this.config.transport,
      target: describeTarget(this.config),
    };
    if (this.toolCache) s.tools = this.toolCache.map((t) => t.name);
    if (this.lastError) s.error = this.lastError.message;
    const info = this.client?.getServerVersion();
    if (info) s.serverInfo = { name: info.name, version: info.version };
    return s;
  }

  /** Process id of a running stdio server. */
  get pid(): number | undefined {
    const t = this.transport as { pid?: number | null } | undefined;
    return t?.pid ?? undefined;
  }

  /** Starts or reaches the server (once; concurrent callers share the attempt). */
  async connect(): Promise<Client> {
    if (this.closed) throw new McpError(`MCP server "${this.id}" is closed`, { kind: 'connection', server: this.id });
    if (this.client) return this.client;
    if (!this.connecting) {
      this.connecting = this.open()
        .then((client) => {
          this.client = client;
          this.state = 'connected';
          this.lastError = undefined;
          return client;
        })
        .catch((err: unknown) => {
          const e = McpError.isInstance(err) ? err : this.connectError(err);
          this.state = 'failed';
          this.lastError = e;
          throw e;
        })
        .finally(() => {
          this.connecting = undefined;
        });
    }
    return this.connecting;
  }

  /** The server's tools after `include` / `exclude` (listed once, then kept until the server says they changed). */
  async listTools(options: { refresh?: boolean } = {}): Promise<McpToolInfo[]> {
    const client = await this.connect();
    if (this.toolCache && !options.refresh) return this.toolCache;
    let listed: Awaited<ReturnType<Client['listTools']>>['tools'] = [];
    try {
      let cursor: string | undefined;
      do {
        const params = cursor ? { cursor } : undefined;
        const page = await this.withAuthRetry(() =>
          client.listTools(params, { timeout: this.config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS }),
        );
        listed = listed.concat(page.tools);
        cursor = page.nextCursor;
      } while (cursor);
    } catch (err) {
      throw this.callError(err, 'tools/list', undefined);
    }
    this.toolCache = toMcpToolInfo(listed, this.config);
    return this.toolCache;
  }

  /** Calls a tool by the server's name for it. Resolves with the raw result (`isError` included). */
  async callTool(name: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<McpCallResult> {
    const client = await this.connect();
    await this.auth?.ensureFresh();
    const timeout = options.timeoutMs ?? this.config.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const listener: CallListener = { onLog: options.onLog };
    this.calls.add(listener);
    // Our own progress token, watched on the transport: the SDK handles notifications a tick
    // after responses, so its `onprogress` misses progress sent just before the result.
    const token = options.onProgress ? `corvid-${++progressTokens}` : undefined;
    if (token) this.progress.set(token, options.onProgress!);
    try {
      const params = token ? { name, arguments: args, _meta: { progressToken: token } } : { name, arguments: args };
      const result = await this.withAuthRetry(() => client.callTool(params, undefined, { signal: options.signal, timeout }));
      return result as McpCallResult;
    } catch (err) {
      if (options.signal?.aborted) throw err;
      throw this.callError(err, `tool "${name}"`, timeout);
    } finally {
      this.calls.delete(listener);
      if (token) this.progress.delete(token);
    }
  }

  /**
   * Runs a request; when the server asks for new authorization mid-session (a 401, or a 403
   * `insufficient_scope` step-up) and the SDK started one, completes it and tries once more.
   */
  private async withAuthRetry<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      const sdk = await loadClientSdk();
      const transport = this.transport as (Transport & { finishAuth?(code: string): Promise<void> }) | undefined;
      if (!this.auth || !(err instanceof sdk.auth.UnauthorizedError) || !transport?.finishAuth) throw err;
      await transport.finishAuth(await this.auth.waitForCode());
      return request();
    }
  }

  /** Stops the server (or drops the HTTP session); the next use starts it again. Keeps the tool list. */
  async restart(): Promise<void> {
    await this.disconnect();
    this.state = 'idle';
  }

  /** Closes the connection for good; a stdio server's process is ended. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    await this.disconnect();
    await this.auth?.dispose();
    this.auth = undefined;
    this.state = 'closed';
  }

  private async disconnect(): Promise<void> {
    const pending = this.connecting;
    if (pending) await pending.catch(() => undefined);
    const client = this.client;
    const transport = this.transport;
    const pid = this.pid;
    this.client = undefined;
    this.transport = undefined;
    // The SDK ends stdin and waits 2 s before SIGTERM; servers busy with a timer ignore stdin's end.
    const term = pid === undefined ? undefined : setTimeout(() => killQuietly(pid), 300);
    if (client) await client.close().catch(() => undefined);
    else if (transport) await transport.close().catch(() => undefined);
    clearTimeout(term);
  }

  /**
   * Sees every message before the SDK does, synchronously, so progress and logs keep their order
   * relative to the result they precede: delivers progress of our calls and log messages.
   */
  private observe(message: unknown): void {
    const m = message as { method?: string; params?: { progressToken?: unknown; progress?: number; total?: number; message?: string } };
    if (m.method === 'notifications/message') {
      const p = (message as { params?: { level?: string; logger?: string; data?: unknown } }).params ?? {};
      const log = { level: String(p.level ?? 'info'), logger: p.logger, message: logText(p.data) };
      for (const call of this.calls) call.onLog?.(log);
      this.options.onNotice?.({ kind: 'log', server: this.id, ...log });
      return;
    }
    if (m.method !== 'notifications/progress' || typeof m.params?.progressToken !== 'string') return;
    const listener = this.progress.get(m.params.progressToken);
    if (listener && typeof m.params.progress === 'number')
      listener({ progress: m.params.progress, total: m.params.total, message: m.params.message });
  }

  private async open(): Promise<Client> {
    const sdk = await loadClientSdk();
    this.state = 'connecting';
    this.stderrTail = '';
    this.garbage = [];
    this.dropped = false;
    const timeout = this.config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    if (this.config.transport === 'stdio') {
      const client = this.newClient(sdk);
      const c = this.config;
      const transport = new sdk.stdio.StdioClientTransport({
        command: c.command,
        args: c.args,
        env: { ...sdk.stdio.getDefaultEnvironment(), ...c.env },
        cwd: resolve(this.options.baseDir ?? process.cwd(), c.cwd ?? '.'),
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-2000);
      });
      transport.onerror = (err) => {
        if (this.garbage.length < 3) this.garbage.push(err.message.slice(0, 200));
      };
      transport.onmessage = (m) => this.observe(m);
      this.transport = transport;
      await this.withDeadline(client.connect(transport, { timeout }), timeout, transport);
      this.usedTransport = 'stdio';
      return client;
    }
    return this.openHttp(sdk, timeout);
  }

  private async openHttp(sdk: ClientSdk, timeout: number): Promise<Client> {
    const c = this.config as Extract<McpServerConfig, { url: string }>;
    const headers: Record<string, string> = { ...c.headers };
    if (c.auth?.type === 'bearer') headers.Authorization = `Bearer ${c.auth.token}`;
    if (c.auth?.type === 'oauth' && !this.auth) {
      if (!this.options.createAuthSession) {
        const { createOAuthSession } = await import('./oauth/oauth-session.js');
        this.auth = await createOAuthSession(this.id, c, {});
      } else this.auth = await this.options.createAuthSession(this.id, c);
    }
    const url = new URL(c.url);
    const attempt = async (kind: 'streamable_http' | 'sse'): Promise<Client> => {
      // A fresh transport per try: after an authorization the SDK wants a new one.
      for (let round = 0; ; round++) {
        const client = this.newClient(sdk);
        const opts = { requestInit: { headers }, authProvider: this.auth?.provider };
        const transport: Transport & { finishAuth(code: string): Promise<void> } =
          kind === 'sse' ? new sdk.sse.SSEClientTransport(url, opts) : new sdk.http.StreamableHTTPClientTransport(url, opts);
        transport.onmessage = (m) => this.observe(m);
        this.transport = transport;
        try {
          if (round === 0) await this.auth?.ensureFresh();
          await this.withDeadline(client.connect(transport, { timeout }), timeout, transport);
          this.usedTransport = kind;
          return client;
        } catch (err) {
          if (this.auth && err instanceof sdk.auth.UnauthorizedError && round < 2) {
            await transport.close().catch(() => undefined);
            const code = await this.auth.waitForCode();
            await transport.finishAuth(code);
            continue;
          }
          await transport.close().catch(() => undefined);
          throw err;
        }
      }
    };
    if (c.transport === 'sse') return attempt('sse');
    if (c.transport === 'streamable_http') return attempt('streamable_http');
    try {
      return await attempt('streamable_http');
    } catch (err) {
      // Servers of the 2024-11-05 era answer the Streamable HTTP POST with 4xx: try HTTP+SSE.
      const status = (err as { code?: unknown }).code;
      const legacy =
        err instanceof sdk.http.StreamableHTTPError &&
        typeof status === 'number' &&
        status >= 400 &&
        status < 500 &&
        status !== 401 &&
        status !== 403;
      if (!legacy) throw err;
      try {
        return await attempt('sse');
      } catch (sseErr) {
        throw new McpError(
          `MCP server "${this.id}" (${redactUrl(c.url)}) answered neither as Streamable HTTP (HTTP ${String(status)}) nor as HTTP+SSE: ${redactUrls((sseErr as Error).message)}`,
          { kind: 'connection', server: this.id, cause: sseErr },
        );
      }
    }
  }

  private newClient(sdk: ClientSdk): Client {
    return createSdkClient({
      sdk,
      server: this.id,
      onElicitation: this.options.onElicitation,
      onNotice: this.options.onNotice,
      onToolsChanged: (client, tools) => {
        if (this.client !== client) return;
        this.toolCache = toMcpToolInfo(tools, this.config);
        this.options.onToolsChanged?.(this.id, this.toolCache);
      },
      onClose: (client) => {
        if (this.client !== client) return;
        // The server went away (a stdio process exited): the next use connects again.
        this.client = undefined;
        this.transport = undefined;
        this.dropped = true;
        if (!this.closed) {
          this.state = 'failed';
          this.lastError = new McpError(`MCP server "${this.id}" closed the connection${this.stderrHint()}`, {
            kind: 'connection',
            server: this.id,
          });
        }
      },
    });
  }

  /** Races the handshake against the connect timeout (the SDK's own timeout covers only the request). */
  private async withDeadline<T>(work: Promise<T>, ms: number, transport: Transport): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TimeoutMarker()), ms + 50);
    });
    try {
      return await Promise.race([work, deadline]);
    } catch (err) {
      await transport.close().catch(() => undefined);
      if (err instanceof TimeoutMarker || isTimeout(err)) throw handshakeTimeoutError(this.diagnostics(), ms);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private stderrHint(): string {
    const tail = this.stderrTail.trim();
    if (!tail) return '';
    const lines = tail.split('\n').slice(-5).join('\n  ');
    return `; its stderr ended with:\n  ${lines}`;
  }

  /** What error messages need to know about the server. */
  private diagnostics(): ConnectionDiagnostics {
    return { id: this.id, config: this.config, stderrHint: () => this.stderrHint(), garbage: this.garbage, dropped: this.dropped };
  }

  private connectError(err: unknown): McpError {
    return connectError(this.diagnostics(), err);
  }

  private callError(err: unknown, what: string, timeout: number | undefined): McpError {
    return callError(this.diagnostics(), err, what, timeout);
  }
}

class TimeoutMarker extends Error {}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}
