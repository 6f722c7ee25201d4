/**
 * The run a chat page is following, kept in sessionStorage per session: a reload (or a page opened again in the
 * same tab) finds the run it was streaming and follows it again, even before the run wrote to its session.
 */

/** What is kept of a followed run. */
export interface RememberedRun {
  runId: string;
  /** The message that started it (shown as the turn's question until the session has it). */
  message: string;
  /** The last seq of its event log seen. */
  seq: number;
}

const key = (sessionId: string) => `corvid.studio.run.${sessionId}`;

/** Remembers the run session `sessionId` is streaming. */
export function rememberRun(sessionId: string, run: RememberedRun): void {
  try {
    sessionStorage.setItem(key(sessionId), JSON.stringify(run));
  } catch {}
}

/** The run session `sessionId` was streaming in this tab, if any. */
export function recallRun(sessionId: string): RememberedRun | undefined {
  try {
    const text = sessionStorage.getItem(key(sessionId));
    const run = text ? (JSON.parse(text) as Partial<RememberedRun>) : undefined;
    return run && typeof run.runId === 'string' ? { runId: run.runId, message: run.message ?? '', seq: run.seq ?? 0 } : undefined;
  } catch {
    return undefined;
  }
}

/** Forgets run `runId` of session `sessionId` (it ended). */
export function forgetRun(sessionId: string, runId: string): void {
  try {
    if (recallRun(sessionId)?.runId === runId) sessionStorage.removeItem(key(sessionId));
  } catch {}
}

/** A new session id (the chat names a new session before its first run creates it). */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `ses_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
