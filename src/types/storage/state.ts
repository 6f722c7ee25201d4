/**
 * Where a state value lives: one session (deleted with it), one user (shared by their sessions),
 * or the whole app.
 */
export type StateScope = { session: string } | { user: string } | 'app';

/** One key-value pair of state. */
export interface StateEntry {
  key: string;
  value: unknown;
  updatedAt: Date;
}

/** Key-value state (JSON values) in session, user and app scopes. */
export interface StateStore {
  /** The value, or undefined. */
  get(scope: StateScope, key: string): Promise<unknown>;
  /** Sets (creates or replaces) a JSON value. A session scope needs an existing session. */
  set(scope: StateScope, key: string, value: unknown): Promise<void>;
  delete(scope: StateScope, key: string): Promise<boolean>;
  /** Entries sorted by key, optionally only keys starting with `prefix`. */
  list(scope: StateScope, options?: { prefix?: string }): Promise<StateEntry[]>;
}

/** An artifact version's description. */
export interface ArtifactInfo {
  sessionId: string;
  name: string;
  version: number;
  mimeType: string;
  /** Size in bytes. */
  size: number;
  createdAt: Date;
}

/** An artifact version with its content. */
export interface Artifact extends ArtifactInfo {
  data: Uint8Array;
}

/** Files produced by tools, versioned per session and name (1, 2, 3…). */
export interface ArtifactStore {
  /** Stores a new version (strings are stored as UTF-8) and returns its description. */
  save(sessionId: string, input: { name: string; mimeType?: string; data: Uint8Array | string }): Promise<ArtifactInfo>;
  /** The latest version, or the given one; undefined when missing. */
  load(sessionId: string, name: string, version?: number): Promise<Artifact | undefined>;
  /** The latest version of each artifact of the session, by name. */
  list(sessionId: string): Promise<ArtifactInfo[]>;
  /** All versions of one artifact, oldest first. */
  versions(sessionId: string, name: string): Promise<ArtifactInfo[]>;
  /** Deletes one version, or every version when `version` is absent. */
  delete(sessionId: string, name: string, version?: number): Promise<boolean>;
}
