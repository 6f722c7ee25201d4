import type { Artifact, ArtifactInfo, ArtifactStore, StateEntry, StateScope, StateStore } from '../../types/storage/state.js';
import { unknownSession } from '../shared/errors.js';
import { decodeJson, encodeJson } from '../shared/json-codec.js';
import { escapeLike } from '../shared/text-search.js';
import { artifactBytes, checkId, stateOwner } from '../shared/validate.js';
import type { SqlValue } from './sql-client.js';
import type { SqlContext } from './sql-sessions.js';

/** Key-value state on a SQL backend. */
export class SqlStateStore implements StateStore {
  constructor(private readonly c: SqlContext) {}

  async get(scope: StateScope, key: string): Promise<unknown> {
    this.c.check();
    const { scope: s, owner } = stateOwner(scope);
    const rows = await this.c.backend.db.all<{ value: string }>(
      'SELECT value FROM corvid_state WHERE scope = ? AND owner = ? AND state_key = ?',
      [s, owner, key],
    );
    return rows[0] ? decodeJson(rows[0].value) : undefined;
  }

  async set(scope: StateScope, key: string, value: unknown): Promise<void> {
    this.c.check();
    const { scope: s, owner } = stateOwner(scope);
    checkId('State key', key, 255);
    const b = this.c.backend;
    const params: SqlValue[] = [s, owner, key, encodeJson(value), this.c.now()];
    const sql = b.upsert(
      'corvid_state',
      ['scope', 'owner', 'state_key', 'value', 'updated_at'],
      ['scope', 'owner', 'state_key'],
      ['value', 'updated_at'],
    );
    if (s !== 'session') {
      await b.db.run(sql, params);
      return;
    }
    await b.db.transaction(async (tx) => {
      const found = await tx.all(`SELECT id FROM corvid_sessions WHERE id = ?${b.forUpdate}`, [owner]);
      if (found.length === 0) throw unknownSession(owner, b.location);
      await tx.run(sql, params);
    });
  }

  async delete(scope: StateScope, key: string): Promise<boolean> {
    this.c.check();
    const { scope: s, owner } = stateOwner(scope);
    return (await this.c.backend.db.run('DELETE FROM corvid_state WHERE scope = ? AND owner = ? AND state_key = ?', [s, owner, key])) > 0;
  }

  async list(scope: StateScope, options: { prefix?: string } = {}): Promise<StateEntry[]> {
    this.c.check();
    const { scope: s, owner } = stateOwner(scope);
    const params: SqlValue[] = [s, owner];
    let sql = 'SELECT state_key, value, updated_at FROM corvid_state WHERE scope = ? AND owner = ?';
    if (options.prefix) {
      sql += " AND state_key LIKE ? ESCAPE '!'";
      params.push(`${escapeLike(options.prefix)}%`);
    }
    const rows = await this.c.backend.db.all<{ state_key: string; value: string; updated_at: number }>(sql, params);
    return rows
      .filter((r) => !options.prefix || r.state_key.startsWith(options.prefix))
      .sort((a, b) => (a.state_key < b.state_key ? -1 : a.state_key > b.state_key ? 1 : 0))
      .map((r) => ({ key: r.state_key, value: decodeJson(r.value), updatedAt: new Date(Number(r.updated_at)) }));
  }
}

interface ArtifactRow {
  name: string;
  version: number;
  mime_type: string;
  size: number;
  created_at: number;
  content?: Uint8Array;
}

const INFO_COLUMNS = 'name, version, mime_type, size, created_at';

/** Artifacts on a SQL backend (bytes in a BLOB / BYTEA / LONGBLOB column). */
export class SqlArtifactStore implements ArtifactStore {
  constructor(private readonly c: SqlContext) {}

  private info(sessionId: string, r: ArtifactRow): ArtifactInfo {
    return {
      sessionId,
      name: r.name,
      version: Number(r.version),
      mimeType: r.mime_type,
      size: Number(r.size),
      createdAt: new Date(Number(r.created_at)),
    };
  }

  async save(sessionId: string, input: { name: string; mimeType?: string; data: Uint8Array | string }): Promise<ArtifactInfo> {
    this.c.check();
    const bytes = artifactBytes(input);
    const mimeType = input.mimeType ?? (typeof input.data === 'string' ? 'text/plain' : 'application/octet-stream');
    const b = this.c.backend;
    const now = this.c.now();
    const version = await b.db.transaction(async (tx) => {
      // The session row lock serialises concurrent saves of the session's artifacts.
      const found = await tx.all(`SELECT id FROM corvid_sessions WHERE id = ?${b.forUpdate}`, [sessionId]);
      if (found.length === 0) throw unknownSession(sessionId, b.location);
      const rows = await tx.all<{ v: number | null }>('SELECT MAX(version) AS v FROM corvid_artifacts WHERE session_id = ? AND name = ?', [
        sessionId,
        input.name,
      ]);
      const v = Number(rows[0]?.v ?? 0) + 1;
      await tx.run(`INSERT INTO corvid_artifacts (session_id, ${INFO_COLUMNS}, content) VALUES (?, ?, ?, ?, ?, ?, ?)`, [
        sessionId,
        input.name,
        v,
        mimeType,
        bytes.byteLength,
        now,
        bytes,
      ]);
      return v;
    });
    return { sessionId, name: input.name, version, mimeType, size: bytes.byteLength, createdAt: new Date(now) };
  }

  async load(sessionId: string, name: string, version?: number): Promise<Artifact | undefined> {
    this.c.check();
    const sql =
      version === undefined
        ? `SELECT ${INFO_COLUMNS}, content FROM corvid_artifacts WHERE session_id = ? AND name = ? ORDER BY version DESC LIMIT 1`
        : `SELECT ${INFO_COLUMNS}, content FROM corvid_artifacts WHERE session_id = ? AND name = ? AND version = ?`;
    const params: SqlValue[] = version === undefined ? [sessionId, name] : [sessionId, name, version];
    const rows = await this.c.backend.db.all<ArtifactRow>(sql, params);
    const r = rows[0];
    if (!r) return undefined;
    const content = r.content ?? new Uint8Array();
    return { ...this.info(sessionId, r), data: new Uint8Array(content.buffer, content.byteOffset, content.byteLength) };
  }

  async list(sessionId: string): Promise<ArtifactInfo[]> {
    this.c.check();
    const rows = await this.c.backend.db.all<ArtifactRow>(
      `SELECT a.name, a.version, a.mime_type, a.size, a.created_at FROM corvid_artifacts a
       WHERE a.session_id = ? AND a.version = (SELECT MAX(b.version) FROM corvid_artifacts b WHERE b.session_id = a.session_id AND b.name = a.name)
       ORDER BY a.name`,
      [sessionId],
    );
    return rows.map((r) => this.info(sessionId, r)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async versions(sessionId: string, name: string): Promise<ArtifactInfo[]> {
    this.c.check();
    const rows = await this.c.backend.db.all<ArtifactRow>(
      `SELECT ${INFO_COLUMNS} FROM corvid_artifacts WHERE session_id = ? AND name = ? ORDER BY version`,
      [sessionId, name],
    );
    return rows.map((r) => this.info(sessionId, r));
  }

  async delete(sessionId: string, name: string, version?: number): Promise<boolean> {
    this.c.check();
    const db = this.c.backend.db;
    const n =
      version === undefined
        ? await db.run('DELETE FROM corvid_artifacts WHERE session_id = ? AND name = ?', [sessionId, name])
        : await db.run('DELETE FROM corvid_artifacts WHERE session_id = ? AND name = ? AND version = ?', [sessionId, name, version]);
    return n > 0;
  }
}
