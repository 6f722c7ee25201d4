/**
 * Entry point of `corvid code`'s full-screen UI. The command loads it (see `loadTui`) when stdin and stdout are
 * terminals: from the package, as one bundled file with Ink, React, marked and highlight.js inside
 * (scripts/build-code-tui.mjs); from a checkout without that file, as this module. Resolves when the user exits;
 * the caller closes the session.
 */
import type { CodeSession } from '../code-session-types.js';

/** Options of `runTui`. */
export interface RunTuiOptions {
  session: CodeSession;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  /** Delay that coalesces bursts of events into one render, in ms. Default 16. */
  frameMs?: number;
  /** Route `console.*` output above the UI instead of through it. Default true. */
  patchConsole?: boolean;
  /** Called after each frame Ink writes (benchmarks and tests). */
  onRender?: () => void;
}

type UiModules = [typeof import('ink'), typeof import('react'), typeof import('./app.js')];
let loading: Promise<UiModules> | undefined;

function uiModules(): Promise<UiModules> {
  // React's development build is several times slower to load and to render; a terminal app wants production
  // unless the user asked otherwise. Set before React is first imported. (The bundle has the production build
  // compiled in: it replaces `process.env.NODE_ENV` reads, hence the alias, which it leaves alone.)
  const env = process.env;
  env.NODE_ENV ??= 'production';
  loading ??= Promise.all([import('ink'), import('react'), import('./app.js')]);
  return loading;
}

/**
 * Starts loading Ink, React and the UI (the slowest part of startup), so that it can overlap other work;
 * `runTui` then uses them. Rejects when `ink` or `react` is not installed.
 */
export async function preloadTui(): Promise<void> {
  await uiModules();
}

/**
 * Runs the UI until the user exits (`/exit`, Ctrl-C twice or Ctrl-C at an empty prompt, Ctrl-D at an empty prompt).
 * A turn still running at exit is cancelled.
 */
export async function runTui(options: RunTuiOptions): Promise<void> {
  const [{ render }, { createElement: h }, { App }] = await uiModules();
  const { session } = options;
  const instance = render(h(App, { session, frameMs: options.frameMs }), {
    stdin: options.stdin,
    stdout: options.stdout,
    exitOnCtrlC: false,
    patchConsole: options.patchConsole ?? true,
    kittyKeyboard: { mode: 'auto' },
    ...(options.onRender ? { onRender: options.onRender } : {}),
  });
  try {
    await instance.waitUntilExit();
  } finally {
    if (session.status().busy) session.cancel();
    instance.cleanup();
  }
}
