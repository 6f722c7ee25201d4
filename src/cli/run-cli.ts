// Installs the model resolver and durable runner the core's agents use (see src/core/core-services.ts).
import '../models/install-model-resolver.js';
import '../durable/install-durable-runner.js';

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { type CliContext, type CommandMain, EXIT, type GlobalFlags, UsageError } from './cli-context.js';
import { colorsFor } from './colors.js';
import { COMMANDS, type CommandSpec, findCommand, GLOBAL_OPTIONS, MAIN_HELP } from './command-specs.js';
import { formatError } from './format-error.js';

const LOADERS: Record<string, () => Promise<CommandMain>> = {
  run: async () => (await import('./commands/run-command.js')).runCommand,
  chat: async () => (await import('./commands/chat-command.js')).chatCommand,
  validate: async () => (await import('./commands/validate-command.js')).validateCommand,
  schema: async () => (await import('./commands/schema-command.js')).schemaCommand,
  mcp: async () => (await import('./commands/mcp-command.js')).mcpCommand,
  runs: async () => (await import('./commands/runs-command.js')).runsCommand,
  replay: async () => (await import('./commands/replay-command.js')).replayCommand,
  approvals: async () => (await import('./commands/approvals-command.js')).approvalsCommand,
  serve: async () => (await import('./commands/serve-command.js')).serveCommand,
  'hash-key': async () => (await import('./commands/serve-command.js')).hashKeyCommand,
  worker: async () => (await import('./commands/worker-command.js')).workerCommand,
  studio: async () => (await import('./commands/studio-command.js')).studioCommand,
  sessions: async () => (await import('./commands/sessions-command.js')).sessionsCommand,
  memories: async () => (await import('./commands/memories-command.js')).memoriesCommand,
  call: async () => (await import('./commands/call-command.js')).callCommand,
  ingest: async () => (await import('./commands/ingest-command.js')).ingestCommand,
  search: async () => (await import('./commands/search-command.js')).searchCommand,
  knowledge: async () => (await import('./commands/knowledge-command.js')).knowledgeCommand,
  code: async () => (await import('./commands/code-command.js')).codeCommand,
  eval: async () => (await import('./commands/eval-command.js')).evalCommand,
};

/** Flags that take a value, so the word after them is not the command. */
const GLOBAL_VALUE_FLAGS = new Set(['-c', '--config']);

/** Index of the command word: the first positional not consumed by a global flag. */
function commandIndex(argv: string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return -1;
    if (GLOBAL_VALUE_FLAGS.has(a)) i++;
    else if (!a.startsWith('-') || a === '-') return i;
  }
  return -1;
}

function parse(args: string[], spec: CommandSpec | undefined) {
  try {
    return parseArgs({ args, options: { ...GLOBAL_OPTIONS, ...spec?.options }, allowPositionals: true, strict: true });
  } catch (err) {
    const message = (err as Error).message.replace(/\. To specify a positional argument.*$/s, '.');
    throw new UsageError(message, spec?.name);
  }
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

function closest(word: string, candidates: string[]): string | undefined {
  const distance = (a: string, b: string): number => {
    const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
    for (let j = 1; j <= b.length; j++) d[0][j] = j;
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++)
        d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    return d[a.length][b.length];
  };
  const best = candidates.map((c) => ({ c, d: distance(word, c) })).sort((x, y) => x.d - y.d)[0];
  return best && best.d <= 2 ? best.c : undefined;
}

async function dispatch(argv: string[], globalsOut: GlobalFlags): Promise<number> {
  const out = process.stdout;
  const index = commandIndex(argv);
  const name = index >= 0 ? argv[index] : undefined;

  if (name === 'help') {
    const topic = argv[index + 1];
    const spec = topic ? findCommand(topic) : undefined;
    if (topic && !spec) throw new UsageError(`Unknown command "${topic}". Commands: ${COMMANDS.map((c) => c.name).join(', ')}`);
    out.write(`${spec ? spec.help : MAIN_HELP}\n`);
    return EXIT.ok;
  }
  const spec = name === undefined ? undefined : findCommand(name);
  if (name !== undefined && !spec) {
    const guess = closest(name, [...COMMANDS.map((c) => c.name), 'help']);
    throw new UsageError(
      `Unknown command "${name}".${guess ? ` Did you mean "${guess}"?` : ''} Commands: ${COMMANDS.map((c) => c.name).join(', ')}`,
    );
  }

  const rest = index >= 0 ? [...argv.slice(0, index), ...argv.slice(index + 1)] : argv;
  const { values, positionals } = parse(rest, spec);
  const globals: GlobalFlags = {
    config: values.config as string | undefined,
    debug: values.debug === true,
    noColor: values['no-color'] === true,
  };
  Object.assign(globalsOut, globals);

  if (!spec) {
    if (values.version) {
      out.write(`${version()}\n`);
      return EXIT.ok;
    }
    if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
    out.write(`${MAIN_HELP}\n`);
    return EXIT.ok;
  }
  if (values.help) {
    out.write(`${spec.help}\n`);
    return EXIT.ok;
  }
  if (values.version) throw new UsageError('--version takes no command: corvid --version', spec.name);
  if (positionals.length > spec.maxPositionals) {
    const extra = positionals[spec.maxPositionals];
    throw new UsageError(`Unexpected argument "${extra}" for "corvid ${spec.name}"`, spec.name);
  }
  const context: CliContext = {
    values: values as CliContext['values'],
    positionals,
    globals,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  };
  const main = await LOADERS[spec.name]();
  return main(context);
}

/** Writes pending output, then exits with `code`. Never leaves the process hanging on open handles. */
export async function exitWith(code: number): Promise<never> {
  const flush = (s: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => {
      if (s.destroyed || !s.writable) return resolve();
      s.write('', () => resolve());
    });
  await Promise.race([Promise.all([flush(process.stdout), flush(process.stderr)]), new Promise((r) => setTimeout(r, 2000).unref())]);
  process.exit(code);
}

/** Runs the CLI with the given arguments (without `node` and the script) and exits the process. */
export async function runCli(argv: string[]): Promise<void> {
  const globals: GlobalFlags = { debug: argv.includes('--debug'), noColor: argv.includes('--no-color') };
  const fail = (err: unknown): void => {
    try {
      process.stderr.write(formatError(err, { debug: globals.debug, colors: colorsFor(process.stderr, globals) }));
    } catch {
      // stderr is gone; nothing left to tell.
    }
  };
  // Reading side of a pipe went away (`corvid schema | head -1`): stop quietly.
  for (const s of [process.stdout, process.stderr]) {
    s.on('error', (err: NodeJS.ErrnoException) => process.exit(err.code === 'EPIPE' ? EXIT.ok : EXIT.failure));
  }
  process.on('uncaughtException', (err) => {
    fail(err);
    process.exit(EXIT.failure);
  });
  process.on('unhandledRejection', (err) => {
    fail(err);
    process.exit(EXIT.failure);
  });

  let code: number;
  try {
    code = await dispatch(argv, globals);
  } catch (err) {
    if (err instanceof UsageError) {
      const c = colorsFor(process.stderr, globals);
      const hint = err.command ? `corvid ${err.command} --help` : 'corvid --help';
      process.stderr.write(`${c.red(c.bold('error:'))} ${err.message}\n${c.dim(`Run "${hint}" for usage.`)}\n`);
      code = EXIT.usage;
    } else {
      fail(err);
      code = EXIT.failure;
    }
  }
  await exitWith(code);
}
