import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

import { CassetteError } from '../../errors/cassette-error.js';
import type { ToolOutcome } from '../../types/tool-call-replay.js';
import type { CanonicalRequest } from './canonical-request.js';
import type { StoredGenerateResult, StoredStreamPart } from './stored-parts.js';

/** The format version this Corvid writes and reads. */
export const CASSETTE_VERSION = 1;

/** A recorded answer: a `doGenerate` result whole, or a `doStream` answer chunk by chunk. */
export type RecordedResponse = { kind: 'generate'; result: StoredGenerateResult } | { kind: 'stream'; chunks: StoredStreamPart[] };

/** One recorded model call. */
export interface CassetteEntry {
  /** The agent path that made the call (`team/researcher`; `''` outside an agent loop): its lane. */
  lane: string;
  /** Order of the call within its lane, from 1. */
  seq: number;
  /** Hash of the canonical request (`request`), what replay looks calls up by. */
  key: string;
  /** The canonical request (volatile values removed, secrets redacted). */
  request: CanonicalRequest;
  response: RecordedResponse;
  /** Outcomes of the tool calls of this answer, by tool call id (tools replayed from the cassette). */
  tools?: Record<string, ToolOutcome>;
}

/** A cassette file (`*.cassette.json`): pretty-printed JSON, entries sorted by lane, then order. */
export interface CassetteFileV1 {
  corvidCassette: 1;
  entries: CassetteEntry[];
}

/** Reads a cassette file; `undefined` when there is none. @throws CassetteError when it is damaged or of a newer format. */
export function readCassetteFile(path: string): CassetteEntry[] | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CassetteError(`Cassette ${path} cannot be read: ${(err as Error).message}`, { kind: 'invalid', path, cause: err });
  }
  let data: Partial<CassetteFileV1>;
  try {
    data = JSON.parse(text) as Partial<CassetteFileV1>;
  } catch (err) {
    throw new CassetteError(`Cassette ${path} is not valid JSON: ${(err as Error).message}`, { kind: 'invalid', path, cause: err });
  }
  const version = data?.corvidCassette;
  if (typeof version !== 'number' || !Array.isArray(data.entries))
    throw new CassetteError(`Cassette ${path} is not a Corvid cassette (no "corvidCassette" version and "entries" list)`, {
      kind: 'invalid',
      path,
    });
  if (version > CASSETTE_VERSION)
    throw new CassetteError(
      `Cassette ${path} has format version ${version}, written by a newer Corvid; this version reads version ${CASSETTE_VERSION}`,
      { kind: 'invalid', path },
    );
  data.entries.forEach((e, i) => {
    if (typeof e?.key !== 'string' || typeof e.lane !== 'string' || (e.response?.kind !== 'generate' && e.response?.kind !== 'stream'))
      throw new CassetteError(`Cassette ${path}: entry ${i + 1} is damaged (missing lane, key or response)`, { kind: 'invalid', path });
  });
  return data.entries;
}

/**
 * Writes a cassette atomically (a temporary file renamed over it), entries sorted by lane and
 * order so the file is the same whatever order concurrent lanes recorded in. `redact` runs over
 * the whole text: whatever it masks never reaches the disk.
 */
export function writeCassetteFile(path: string, entries: readonly CassetteEntry[], redact: (text: string) => string): void {
  const sorted = [...entries].sort((a, b) => (a.lane < b.lane ? -1 : a.lane > b.lane ? 1 : a.seq - b.seq));
  const file: CassetteFileV1 = { corvidCassette: CASSETTE_VERSION, entries: sorted };
  const text = redact(`${JSON.stringify(file, null, 2)}\n`);
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (err) {
    throw new CassetteError(`Cassette ${path} cannot be written: ${(err as Error).message}`, { kind: 'invalid', path, cause: err });
  }
}
