/**
 * Finds and loads `corvid code`'s full-screen UI: the bundle built by scripts/build-code-tui.mjs (Ink, React,
 * marked and highlight.js inside: what the package ships), else `run-tui.js` itself (a checkout built with `tsc`
 * only, or tests from source), which needs ink and react installed.
 */
import { fileURLToPath } from 'node:url';

import type { CodeSession } from '../code-session-types.js';

/** What the UI module (run-tui.ts, bundled or not) exports. */
export interface TuiModule {
  /** Loads Ink, React and the UI; rejects when they cannot load. */
  preloadTui(): Promise<void>;
  /** Runs the UI until the user exits. */
  runTui(options: { session: CodeSession; stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream }): Promise<void>;
}

/** The outcome of `loadTui`: the UI and the file it came from, or why there is none. */
export type TuiLoadResult = { ok: true; tui: TuiModule; file: string } | { ok: false; reason: string };

/** Options of `loadTui`. */
export interface LoadTuiOptions {
  /**
   * The module files to try, in order; a missing file is skipped. Default: `run-tui.bundle.js`, then `run-tui.js`,
   * beside this module.
   */
  candidates?: readonly URL[];
}

/** The default candidates: the bundle, then the unbundled module. */
export const TUI_CANDIDATES: readonly URL[] = [new URL('./run-tui.bundle.js', import.meta.url), new URL('./run-tui.js', import.meta.url)];

/**
 * Loads the first UI module that exists and preloads Ink and React in it. Never rejects: a reason to show
 * (the UI is then unavailable and `corvid code` uses plain output).
 * @example
 * const loaded = await loadTui();
 * if (loaded.ok) await loaded.tui.runTui({ session, stdin: process.stdin, stdout: process.stdout });
 */
export async function loadTui(options: LoadTuiOptions = {}): Promise<TuiLoadResult> {
  const candidates = options.candidates ?? TUI_CANDIDATES;
  for (const url of candidates) {
    const file = fileURLToPath(url);
    let tui: TuiModule;
    try {
      // A variable specifier: which file exists is known only at run time.
      const specifier = url.href;
      tui = (await import(specifier)) as TuiModule;
    } catch (error) {
      if (isMissing(error, file)) continue;
      return { ok: false, reason: `the full-screen UI (${file}) failed to load: ${messageOf(error)}` };
    }
    try {
      await tui.preloadTui();
      return { ok: true, tui, file };
    } catch (error) {
      const message = messageOf(error);
      if (/['"](ink|react)['"]/.test(message))
        return { ok: false, reason: 'the full-screen UI is not built (npm run build) and ink and react are not installed' };
      return { ok: false, reason: `the full-screen UI (${file}) failed to start: ${message}` };
    }
  }
  return { ok: false, reason: `the full-screen UI is not built: none of ${candidates.map((u) => fileURLToPath(u)).join(', ')} exists` };
}

/** Whether `error` says that `file` itself does not exist (not one of its imports). */
function isMissing(error: unknown, file: string): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' && messageOf(error).includes(file);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
