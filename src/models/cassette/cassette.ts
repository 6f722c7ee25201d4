import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';

import { CassetteError } from '../../errors/cassette-error.js';
import { ConfigError } from '../../errors/config-error.js';
import { modelCallInfo } from '../../types/model-call-info.js';
import type { ReplayedCall, ToolCallReplay, ToolOutcome } from '../../types/tool-call-replay.js';
import { type CanonicalRequest, canonicalRequest, requestKey } from './canonical-request.js';
import { type CassetteEntry, readCassetteFile, type RecordedResponse, writeCassetteFile } from './cassette-file.js';
import { CassetteModel } from './cassette-model.js';
import { diffRequests, formatDifference } from './request-diff.js';
import { SecretRedactor } from './secret-redactor.js';
import { joinDeltasWithSecrets } from './stored-parts.js';

/**
 * - `live`: calls go to the model, nothing is recorded;
 * - `record`: calls go to the model and the cassette is written anew;
 * - `replay`: answers come from the cassette only; a call it has no recording of fails with a `CassetteError`;
 * - `auto`: replays what is recorded, calls the model for the rest and adds it to the cassette.
 */
export type CassetteMode = 'live' | 'record' | 'replay' | 'auto';

export const CASSETTE_MODES: readonly CassetteMode[] = ['live', 'record', 'replay', 'auto'];

/** Options of `openCassette()` / `withCassette()`. */
export interface CassetteOptions {
  /** The cassette file (`*.cassette.json`); created when recording. */
  path: string;
  /** Default: the `CORVID_CASSETTE_MODE` environment variable, else `auto`. */
  mode?: CassetteMode;
  /**
   * Tools that run even when their results are recorded: `true` for every tool, or tool names.
   * Default: none — a replayed answer's tool calls get their recorded results and the tools do not run.
   */
  liveTools?: boolean | readonly string[];
  /** Further secrets to mask when recording (values of `*_KEY`, `*_TOKEN`, `*_SECRET`, `*_PASSWORD` variables are masked anyway). */
  secrets?: readonly string[];
  /** The environment read for the mode and for secret values. Default `process.env`. */
  env?: Record<string, string | undefined>;
}

/** The mode named by `CORVID_CASSETTE_MODE`, checked; `undefined` when unset. */
export function cassetteModeFromEnv(env: Record<string, string | undefined> = process.env): CassetteMode | undefined {
  const raw = env.CORVID_CASSETTE_MODE?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!(CASSETTE_MODES as readonly string[]).includes(raw))
    throw new ConfigError(`CORVID_CASSETTE_MODE must be one of ${CASSETTE_MODES.join(', ')}, got "${raw}"`);
  return raw as CassetteMode;
}

/**
 * A file of recorded model calls, shared by the models it wraps (`cassette.wrap(model)`). Calls
 * are keyed by a hash of their canonical request and kept on the lane of the agent path that
 * made them, in order, so that concurrent sub-agents replay the same whatever their interleaving.
 * The file is rewritten (atomically) after each recorded call or tool result.
 * @example
 * const cassette = openCassette({ path: 'test/cassettes/weather.cassette.json' });
 * const agent = new Agent({ name: 'weather', model: cassette.wrap(model), tools: [forecast] });
 */
export class Cassette {
  readonly path: string;
  readonly mode: CassetteMode;
  private readonly liveTools: boolean | ReadonlySet<string>;
  private readonly redactor: SecretRedactor;
  private readonly list: CassetteEntry[];
  private readonly used = new Set<CassetteEntry>();
  /** The tool replay the wrapped models offer the agent loop. */
  readonly tools: ToolCallReplay = {
    replay: (call, path) => this.replayTool(call, path.join('/')),
    record: (call, path, outcome) => this.recordTool(call, path.join('/'), outcome),
  };

  constructor(options: CassetteOptions) {
    if (typeof options?.path !== 'string' || options.path === '') throw new ConfigError('A cassette needs a file path: { path: "…" }');
    if (options.mode !== undefined && !CASSETTE_MODES.includes(options.mode))
      throw new ConfigError(`Cassette mode must be one of ${CASSETTE_MODES.join(', ')}, got "${String(options.mode)}"`);
    const env = options.env ?? process.env;
    this.path = options.path;
    this.mode = options.mode ?? cassetteModeFromEnv(env) ?? 'auto';
    this.liveTools = Array.isArray(options.liveTools) ? new Set(options.liveTools) : options.liveTools === true;
    this.redactor = new SecretRedactor({ env, secrets: options.secrets });
    // `record` starts a new cassette; the file is replaced at the first recorded call.
    const recorded = this.mode === 'replay' || this.mode === 'auto' ? readCassetteFile(this.path) : undefined;
    this.list = recorded ?? [];
    if (this.mode === 'replay' && recorded === undefined)
      throw new CassetteError(`Cassette ${this.path} does not exist: record it first (mode "record" or "auto")`, {
        kind: 'miss',
        path: this.path,
      });
  }

  /** The recorded calls, in file order once written. */
  get entries(): readonly CassetteEntry[] {
    return this.list;
  }

  /**
   * `model` recording to / replaying from this cassette (`live` mode: `model` itself). `name`
   * (default `provider:modelId`) is part of each request's key.
   */
  wrap(model: LanguageModelV3, name = `${model.provider}:${model.modelId}`): LanguageModelV3 {
    if (this.mode === 'live') return model;
    return new CassetteModel(this, model, name);
  }

  /** Masks a secret known to the caller (a model's API key) when the cassette is written. */
  addSecret(secret: string | undefined): void {
    this.redactor.add(secret);
  }

  /** The lane and canonical request of a call (redacted, as stored). @internal */
  requestOf(options: LanguageModelV3CallOptions, model: string): { lane: string; request: CanonicalRequest; key: string } {
    const request = JSON.parse(this.redactor.text(JSON.stringify(canonicalRequest(options, model)))) as CanonicalRequest;
    return { lane: modelCallInfo(options)?.path.join('/') ?? '', request, key: requestKey(request) };
  }

  /**
   * The recording for a call: the lane's first unused one with the key, else (the same request
   * again, as in repeated eval runs) its last one. @internal
   */
  take(lane: string, key: string): CassetteEntry | undefined {
    let last: CassetteEntry | undefined;
    for (const e of this.inLane(lane)) {
      if (e.key !== key) continue;
      if (!this.used.has(e)) {
        this.used.add(e);
        return e;
      }
      last = e;
    }
    return last;
  }

  /** Records an answer (written at once). @internal */
  add(lane: string, request: CanonicalRequest, key: string, response: RecordedResponse): void {
    if (response.kind === 'stream') response.chunks = joinDeltasWithSecrets(response.chunks, (t) => this.redactor.text(t));
    const seq = this.inLane(lane).reduce((n, e) => Math.max(n, e.seq), 0) + 1;
    const entry: CassetteEntry = { lane, seq, key, request, response };
    this.list.push(entry);
    this.used.add(entry);
    this.save();
  }

  /** The replay miss of a call: what differs from the nearest recording. @internal */
  miss(lane: string, request: CanonicalRequest): CassetteError {
    const where = lane === '' ? '' : ` on lane "${lane}"`;
    const lines = [`Cassette ${this.path} has no recording of this model call${where} (mode "${this.mode}").`];
    const nearest = this.nearest(lane, request);
    if (nearest === undefined) lines.push('It holds no recordings.');
    else {
      const at = nearest.entry.lane === '' ? '' : ` of lane "${nearest.entry.lane}"`;
      lines.push(`Nearest recording: call ${nearest.entry.seq}${at}, which differs in ${nearest.count} field(s):`);
      lines.push(...nearest.fields.map(formatDifference));
      if (nearest.count > nearest.fields.length) lines.push(`  … and ${nearest.count - nearest.fields.length} more`);
    }
    lines.push('Record it again (mode "record", or CORVID_CASSETTE_MODE=record), or use mode "auto" to record what is missing.');
    return new CassetteError(lines.join('\n'), { kind: 'miss', path: this.path });
  }

  private nearest(lane: string, request: CanonicalRequest) {
    let best: { entry: CassetteEntry; count: number; fields: ReturnType<typeof diffRequests>['fields'] } | undefined;
    for (const entry of this.list) {
      const d = diffRequests(entry.request, request);
      // The same lane first, then the fewest differences.
      const sameLane = entry.lane === lane;
      const bestSameLane = best?.entry.lane === lane;
      if (best === undefined || (sameLane && !bestSameLane) || (sameLane === bestSameLane && d.count < best.count)) best = { entry, ...d };
    }
    return best;
  }

  private replayTool(call: ReplayedCall, lane: string): ToolOutcome | undefined {
    if (this.liveTools === true || (this.liveTools !== false && this.liveTools.has(call.toolName))) return undefined;
    if (this.mode === 'record') return undefined;
    const entries = this.inLane(lane).reverse();
    const found = (entries.find((e) => this.used.has(e) && e.tools?.[call.toolCallId]) ?? entries.find((e) => e.tools?.[call.toolCallId]))
      ?.tools?.[call.toolCallId];
    if (found !== undefined) return found;
    if (this.mode === 'auto') return undefined;
    const where = lane === '' ? '' : ` on lane "${lane}"`;
    throw new CassetteError(
      `Cassette ${this.path} has no recorded result of tool "${call.toolName}" (call ${call.toolCallId}${where}, mode "replay"): ` +
        `record it again, or let the tool run with liveTools: ["${call.toolName}"]`,
      { kind: 'miss', path: this.path },
    );
  }

  private recordTool(call: ReplayedCall, lane: string, outcome: ToolOutcome): void {
    if (this.mode !== 'record' && this.mode !== 'auto') return;
    const entry = this.inLane(lane)
      .reverse()
      .find((e) => answersWithCall(e.response, call.toolCallId));
    if (entry === undefined) return;
    (entry.tools ??= {})[call.toolCallId] = { output: outcome.output, isError: outcome.isError };
    this.save();
  }

  private inLane(lane: string): CassetteEntry[] {
    return this.list.filter((e) => e.lane === lane).sort((a, b) => a.seq - b.seq);
  }

  private save(): void {
    writeCassetteFile(this.path, this.list, (text) => this.redactor.text(text));
  }
}

/** Opens a cassette file (see `Cassette`). */
export function openCassette(options: CassetteOptions): Cassette {
  return new Cassette(options);
}

function answersWithCall(response: RecordedResponse, toolCallId: string): boolean {
  const parts = response.kind === 'generate' ? response.result.content : response.chunks;
  return parts.some((p) => p.type === 'tool-call' && p.toolCallId === toolCallId);
}
