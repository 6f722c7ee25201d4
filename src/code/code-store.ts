import { homedir } from 'node:os';
import nodePath from 'node:path';

import type { Session } from '../types/storage/sessions.js';
import type { Store } from '../types/storage/store.js';

/** The agent name `corvid code` sessions are stored under (sessions of other commands are left out of `/sessions`). */
export const CODE_SESSION_AGENT = 'corvid-code';

/** Where `corvid code` keeps its sessions: `$CORVID_HOME/code.db`, else `~/.corvid/code.db`. */
export function codeStorePath(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.CORVID_HOME !== undefined && env.CORVID_HOME !== '' ? env.CORVID_HOME : nodePath.join(env.HOME || homedir(), '.corvid');
  return nodePath.join(home, 'code.db');
}

/** What `corvid code` keeps in a session's metadata. */
export interface CodeSessionMetadata {
  /** The folder the session works in (real path). */
  cwd: string;
  /** The first line of the first message, for `/sessions`. */
  title?: string;
  /** `provider:model` last used. */
  model?: string;
  /** The session this one was compacted from (`/compact`). */
  compactedFrom?: string;
}

/** The folder a stored session belongs to, when it is a `corvid code` session. */
export function sessionCwd(session: Session): string | undefined {
  const cwd = session.metadata.cwd;
  return typeof cwd === 'string' ? cwd : undefined;
}

/** `corvid code` sessions of `cwd`, newest first (at most `limit`). */
export async function listCodeSessions(store: Store, cwd: string, limit = 20): Promise<Session[]> {
  const out: Session[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.sessions.list({ agent: CODE_SESSION_AGENT, limit: 200, ...(cursor ? { cursor } : {}) });
    for (const s of page.sessions) if (sessionCwd(s) === cwd) out.push(s);
    cursor = page.nextCursor;
  } while (cursor !== undefined && out.length < limit);
  return out.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime()).slice(0, limit);
}
