import { loadPeer } from '../../errors/load-peer.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { colorsFor } from '../colors.js';
import { loadCliRuntime } from '../load-cli-runtime.js';

function parsePort(value: string | boolean | undefined, command: string): number | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new UsageError(`--port must be a port number (0-65535), got "${value}"`, command);
  return Number(value);
}

/** `$PORT` as a port number; `undefined` when unset or empty. */
function portFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) > 65535)
    throw new UsageError(`PORT must be a port number (0-65535), got "${value}"`, 'serve');
  return Number(value);
}

/** The server's optional peer packages: `npm install corvid` leaves them out (the install stays small). */
const SERVER_PACKAGES = ['hono', '@hono/node-server', '@hono/node-ws', 'pino', 'prom-client'];

/** Runs `load`; a missing server package becomes a MissingPeerError naming all of them. */
async function importServer<T>(load: () => Promise<T>): Promise<T> {
  return loadPeer({ packages: SERVER_PACKAGES, feature: 'corvid serve', load });
}

/** `--concurrency <n>` as a number of runs (1-1000); undefined when not given. */
export function parseConcurrency(value: string | boolean | undefined, command: string): number | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1000)
    throw new UsageError(`--concurrency must be a number of runs from 1 to 1000, got "${value}"`, command);
  return Number(value);
}

/** `serve`'s worker option from `--no-worker` / `--concurrency`. */
function workerOption(context: CliContext): boolean | { concurrency?: number } {
  if (context.values['no-worker'] === true) {
    if (context.values.concurrency !== undefined) throw new UsageError('give either --no-worker or --concurrency, not both', 'serve');
    return false;
  }
  const concurrency = parseConcurrency(context.values.concurrency, 'serve');
  return concurrency === undefined ? true : { concurrency };
}

/** What `corvid serve` and `corvid studio` print once listening, and do then. */
export interface ServeCommandOptions {
  /** The command's name (usage errors and the banner). */
  command: 'serve' | 'studio';
  /** Called once the server listens, with its URL (after the banner). */
  onListening?: (url: string) => void;
}

/** `corvid serve [--port n] [--host addr] [--watch]`: serves every agent over HTTP until SIGINT / SIGTERM. */
export function serveCommand(context: CliContext): Promise<number> {
  return serveUntilSignal(context, { command: 'serve' });
}

/** Starts the server of the config (Studio included unless `server.studio: false`), prints where, and serves until SIGINT / SIGTERM. */
export async function serveUntilSignal(context: CliContext, options: ServeCommandOptions): Promise<number> {
  const { values, stderr } = context;
  const name = options.command;
  const port = parsePort(values.port, name);
  const host = typeof values.host === 'string' ? values.host : undefined;
  if (host !== undefined && !/^[A-Za-z0-9.:[\]-]{1,253}$/.test(host))
    throw new UsageError(`--host must be a host name or IP address, got "${host}"`, name);
  const runtime = await loadCliRuntime(context);
  const c = colorsFor(stderr, context.globals);
  try {
    // --port, else server.port, else $PORT (as hosting platforms set it), else 8080.
    const envPort = port === undefined && runtime.config.server?.port === undefined ? portFromEnv(context.env.PORT) : undefined;
    const { serve } = await importServer(() => import('../../server/app/serve.js'));
    const server = await importServer(() =>
      serve({
        runtime,
        port: port ?? envPort,
        host,
        watch: values.watch === true,
        load: { cwd: context.cwd },
        worker: workerOption(context),
      }),
    );
    const agents = [...runtime.agents.keys()].filter((n) => (runtime.config.agents[n]?.visibility ?? 'public') !== 'private');
    stderr.write(`${c.bold(`corvid ${name}`)}: listening on ${server.url}\n`);
    stderr.write(`  agents: ${agents.join(', ') || '(none)'}\n`);
    stderr.write(`  chat:   POST ${server.url}/api/v1/agents/${runtime.defaultAgent}/chat   docs: ${server.url}/api/v1/openapi.json\n`);
    if (runtime.config.server?.studio !== false) stderr.write(`  studio: ${server.url}/studio/\n`);
    if (values.watch === true) stderr.write(`  watching ${runtime.configPath ?? '(no config file)'} for changes\n`);
    options.onListening?.(server.url);
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    stderr.write(`corvid ${name}: ${signal}, shutting down\n`);
    await server.close({ timeoutMs: 10_000 });
    server.logger.flush?.();
    return EXIT.ok;
  } finally {
    await runtime.close().catch(() => undefined);
  }
}

/** `corvid hash-key [key]`: prints a new API key (or hashes the one given) and the `hash:` line for `server.auth.api_keys`. */
export async function hashKeyCommand(context: CliContext): Promise<number> {
  const { hashApiKey, generateApiKey } = await import('../../server/auth/api-keys.js');
  let key = context.positionals[0];
  if (key === '-') {
    const { readAll } = await import('../read-all.js');
    key = (await readAll(context.stdin)).trim();
    if (!key) throw new UsageError('stdin was empty: pipe the key in, e.g. echo "$KEY" | corvid hash-key -', 'hash-key');
  }
  const generated = key === undefined;
  key ??= generateApiKey();
  if (generated) context.stdout.write(`key:  ${key}\n`);
  context.stdout.write(`hash: ${hashApiKey(key)}\n`);
  if (generated)
    context.stderr.write('Give the key to the client; put the hash in server.auth.api_keys (the key is not stored anywhere).\n');
  return EXIT.ok;
}
