import { allowRuleError } from '../../code/approval-gate.js';
import type { CodeMode, CodeSession } from '../../code/code-session-types.js';
import { CODE_MODES } from '../../code/code-session-types.js';
import { PendingCodeSession } from '../../code/pending-code-session.js';
import type { TuiModule } from '../../code/tui/load-tui.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { colorsFor } from '../colors.js';
import { cliMcpOptions } from '../mcp-cli-options.js';
import { readAll } from '../read-all.js';

/** Exit code after SIGTERM (128 + 15, as a shell reports a process the signal ended). */
const EXIT_TERMINATED = 143;

/** Time within which a second Ctrl-C exits (plain and headless modes). */
const DOUBLE_CTRL_C_MS = 2000;

function parseMode(value: string | boolean | undefined): CodeMode | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(CODE_MODES as readonly string[]).includes(value))
    throw new UsageError(`--mode must be one of ${CODE_MODES.join(', ')}`, 'code');
  return value as CodeMode;
}

/** The `-p` task: the text given, or stdin for `-`. */
async function headlessPrompt(context: CliContext): Promise<string | undefined> {
  const print = context.values.print;
  if (print === undefined) return undefined;
  const text = print === '-' ? (await readAll(context.stdin)).replace(/\r?\n$/, '') : String(print);
  if (text.trim() === '') throw new UsageError('-p needs a task (or "-" to read it from stdin)', 'code');
  return text;
}

/**
 * Ctrl-C while a turn runs cancels it; a second Ctrl-C within 2 s (or one when idle) exits.
 * Returns the function removing the handler.
 */
function onCtrlC(session: CodeSession, note: (text: string) => void): () => void {
  let last = 0;
  const handler = (): void => {
    const now = Date.now();
    if (session.status().busy && now - last > DOUBLE_CTRL_C_MS) {
      last = now;
      note('Cancelling the turn (Ctrl-C again to quit).');
      session.cancel();
      return;
    }
    process.exit(EXIT.interrupted);
  };
  process.on('SIGINT', handler);
  return () => void process.off('SIGINT', handler);
}

/**
 * The full-screen UI, drawn before the session has opened: the prompt takes input at once (messages sent meanwhile
 * wait for the session) and the session opens behind it. If it cannot open, the UI closes and the error is thrown,
 * as without the UI. Quitting before it has opened does not wait for it.
 */
async function fullScreen(
  context: CliContext,
  tui: TuiModule,
  open: () => Promise<CodeSession>,
  mode: CodeMode | undefined,
): Promise<number> {
  // Opening starts once the first frame is drawn (runTui draws it before anything else runs) and so does not
  // delay it.
  const opening = new Promise<void>((resolve) => setImmediate(resolve)).then(open);
  const session = new PendingCodeSession({ opening, cwd: context.cwd, ...(mode ? { mode } : {}) });
  try {
    await tui.runTui({ session, stdin: context.stdin, stdout: context.stdout });
    // The UI closed because the session could not open: say why, as without the UI.
    if (session.state === 'failed') await session.opened;
  } finally {
    await session.close();
  }
  return EXIT.ok;
}

/**
 * Headless mode's wait for the model on stderr: a spinner on a terminal (not with --verbose, whose
 * lines show the progress), else a line per retry and one every ~10 s, naming the model and host.
 */
async function watchWaits(context: CliContext, session: CodeSession): Promise<() => void> {
  const verbose = context.values.verbose === true;
  const { stderr } = context;
  if (verbose && stderr.isTTY === true) return () => undefined;
  const { waitStatusFor } = await import('../wait-notices.js');
  const status = session.status();
  const endpoint = { model: status.model, ...(status.modelHost ? { host: status.modelHost } : {}) };
  const wait = waitStatusFor({
    out: stderr,
    colors: colorsFor(stderr, context.globals),
    env: context.env,
    endpointOf: () => endpoint,
    verbose,
  });
  const unsubscribe = session.subscribe((event) => {
    if (event.type === 'agent') wait.update(event.event);
  });
  return () => {
    unsubscribe();
    wait.stop();
  };
}

/** `corvid code -p`: one task, then exit. SIGTERM (a CI job cancelled, a timeout) ends the turn as a cancellation, so --json still gets its turn_end. */
async function headless(context: CliContext, session: CodeSession, prompt: string, note: (text: string) => void): Promise<number> {
  const { values, stdout, stderr } = context;
  const unwatch = await watchWaits(context, session);
  const off = onCtrlC(session, note);
  let terminated = false;
  const onTerm = (): void => {
    terminated = true;
    session.cancel();
  };
  process.on('SIGTERM', onTerm);
  try {
    const { runHeadless } = await import('../../code/run-headless.js');
    const result = await runHeadless({ session, prompt, stdout, stderr, json: values.json === true, verbose: values.verbose === true });
    if (terminated) return EXIT_TERMINATED;
    return result.status === 'completed' ? EXIT.ok : result.status === 'cancelled' ? EXIT.interrupted : EXIT.failure;
  } finally {
    unwatch();
    off();
    process.off('SIGTERM', onTerm);
  }
}

/**
 * `corvid code`: the coding agent. Headless with `-p`, the full-screen UI on a terminal, plain
 * lines otherwise (pipes, `--plain`, or the UI not built).
 */
export async function codeCommand(context: CliContext): Promise<number> {
  const { values, positionals, stdout, stderr } = context;
  if (positionals.length > 0 && values.resume !== true)
    throw new UsageError(`Unexpected argument "${positionals[0]}" (a task goes after -p; a session id after --resume)`, 'code');
  if (values.json === true && values.print === undefined) throw new UsageError('--json needs -p (headless mode)', 'code');
  const mode = parseMode(values.mode);
  const allow = Array.isArray(values.allow) ? values.allow.map(String) : typeof values.allow === 'string' ? [values.allow] : [];
  for (const rule of allow) {
    const error = allowRuleError(rule);
    if (error !== undefined) throw new UsageError(error, 'code');
  }
  const prompt = await headlessPrompt(context);
  const open = async (): Promise<CodeSession> => {
    const { openCodeSession } = await import('../../code/open-code-session.js');
    return openCodeSession({
      cwd: context.cwd,
      env: context.env,
      configPath: context.globals.config,
      ...(typeof values.agent === 'string' ? { agent: values.agent } : {}),
      ...(typeof values.model === 'string' ? { model: values.model } : {}),
      ...(mode ? { mode } : {}),
      sandbox: values['no-sandbox'] !== true,
      allow,
      dangerouslyRunUnsandboxed: values['dangerously-run-unsandboxed'] === true,
      web: values.web === true,
      ...(values.resume === true ? { resume: positionals[0] ?? true } : {}),
      headless: prompt !== undefined,
      mcp: cliMcpOptions(context),
    });
  };
  const note = (text: string): void => void stderr.write(`${colorsFor(stderr, context.globals).dim(text)}\n`);
  if (values['dangerously-run-unsandboxed'] === true)
    stderr.write(
      'corvid code: WARNING: --dangerously-run-unsandboxed: the shell sandbox is off and yolo mode is allowed, so commands the model writes can run unconfined, with your permissions. Use it only in a throwaway container.\n',
    );
  const terminal = prompt === undefined && context.stdin.isTTY === true && stdout.isTTY === true && values.plain !== true;
  if (terminal) {
    const { loadTui } = await import('../../code/tui/load-tui.js');
    const loaded = await loadTui();
    if (loaded.ok) return fullScreen(context, loaded.tui, open, mode);
    note(`corvid code: ${loaded.reason}; using plain output.`);
  }
  const session = await open();
  try {
    if (prompt !== undefined) return await headless(context, session, prompt, note);
    const off = onCtrlC(session, note);
    try {
      const { runPlain } = await import('../../code/run-plain.js');
      await runPlain({ session, stdin: context.stdin, stdout, prompt: context.stdin.isTTY === true });
      return EXIT.ok;
    } finally {
      off();
    }
  } finally {
    await session.close();
  }
}
