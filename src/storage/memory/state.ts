import type { Artifact, ArtifactInfo, ArtifactStore, StateEntry, StateScope, StateStore } from '../../types/storage/state.js';
import { unknownSession } from '../shared/errors.js';
import { decodeJson, encodeJson } from '../shared/json-codec.js';
import { artifactBytes, checkId, stateOwner } from '../shared/validate.js';
import { k } from './data.js';
import type { MemContext } from './sessions.js';

/** Key-value state held in memory. */
export class MemoryStateStore implements StateStore {
  constructor(private readonly c: MemContext) {}

  private key(scope: StateScope, key?: string): string {
    this.c.check();
    const { scope: s, owner } = stateOwner(scope);
    if (key !== undefined) checkId('State key', key, 255);
    return k(s, owner, key ?? '');
  }

  async get(scope: StateScope, key: string): Promise<unknown> {
    const row = this.c.data.state.get(this.key(scope, key));
    return row ? decodeJson(row.value) : undefined;
  }

  async set(scope: StateScope, key: string, value: unknown): Promise<void> {
    const id = this.key(scope, key);
    if (typeof scope === 'object' && 'session' in scope && !this.c.data.sessions.has(scope.session)) {
      throw unknownSession(scope.session, this.c.location);
    }
    this.c.data.state.set(id, { value: encodeJson(value), updatedAt: this.c.now() });
  }

  async delete(scope: StateScope, key: string): Promise<boolean> {
    return this.c.data.state.delete(this.key(scope, key));
  }

  async list(scope: StateScope, options: { prefix?: string } = {}): Promise<StateEntry[]> {
    const base = this.key(scope);
    const prefix = base + (options.prefix ?? '');
    const out: StateEntry[] = [];
    for (const [key, row] of this.c.data.state) {
      if (key.startsWith(prefix))
        out.push({ key: key.slice(base.length), value: decodeJson(row.value), updatedAt: new Date(row.updatedAt) });
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
}

/** Artifacts held in memory (bytes copied in and out). */
export class MemoryArtifactStore implements ArtifactStore {
  constructor(private readonly c: MemContext) {}

  private info(
    sessionId: string,
    name: string,
    v: { version: number; mimeType: string; data: Uint8Array; createdAt: number },
  ): ArtifactInfo {
    return { sessionId, name, version: v.version, mimeType: v.mimeType, size: v.data.byteLength, createdAt: new Date(v.createdAt) };
  }

  async save(sessionId: string, input: { name: string; mimeType?: string; data: Uint8Array | string }): Promise<ArtifactInfo> {
    this.c.check();
    const bytes = artifactBytes(input);
    if (!this.c.data.sessions.has(sessionId)) throw unknownSession(sessionId, this.c.location);
    const key = k(sessionId, input.name);
    const versions = this.c.data.artifacts.get(key) ?? [];
    const mimeType = input.mimeType ?? (typeof input.data === 'string' ? 'text/plain' : 'application/octet-stream');
    const row = {
      version: (versions[versions.length - 1]?.version ?? 0) + 1,
      mimeType,
      data: new Uint8Array(bytes),
      createdAt: this.c.now(),
    };
    versions.push(row);
    this.c.data.artifacts.set(key, versions);
    return this.info(sessionId, input.name, row);
  }

  async load(sessionId: string, name: string, version?: number): Promise<Artifact | undefined> {
    this.c.check();
    const versions = this.c.data.artifacts.get(k(sessionId, name));
    const row = version === undefined ? versions?.[versions.length - 1] : versions?.find((v) => v.version === version);
    return row ? { ...this.info(sessionId, name, row), data: new Uint8Array(row.data) } : undefined;
  }

  async list(sessionId: string): Promise<ArtifactInfo[]> {
    this.c.check();
    const out: ArtifactInfo[] = [];
    const prefix = k(sessionId, '');
    for (const [key, versions] of this.c.data.artifacts) {
      if (key.startsWith(prefix) && versions.length > 0)
        out.push(this.info(sessionId, key.slice(prefix.length), versions[versions.length - 1]));
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async versions(sessionId: string, name: string): Promise<ArtifactInfo[]> {
    this.c.check();
    return (this.c.data.artifacts.get(k(sessionId, name)) ?? []).map((v) => this.info(sessionId, name, v));
  }

  async delete(sessionId: string, name: string, version?: number): Promise<boolean> {
    this.c.check();
    const key = k(sessionId, name);
    const versions = this.c.data.artifacts.get(key);
    if (!versions || versions.length === 0) return false;
    if (version === undefined) return this.c.data.artifacts.delete(key);
    const i = versions.findIndex((v) => v.version === version);
    if (i === -1) return false;
    versions.splice(i, 1);
    return true;
  }
}
