import type {
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3ResponseMetadata,
  LanguageModelV3StreamPart,
  SharedV3ProviderMetadata,
} from '@ai-sdk/provider';

/** A `doGenerate` result as a cassette keeps it: no raw HTTP bodies or headers, dates as ISO text, files as base64. */
export type StoredGenerateResult = Omit<LanguageModelV3GenerateResult, 'request' | 'response'> & { response?: StoredResponseMetadata };

/** Response metadata with its timestamp as ISO text. */
export interface StoredResponseMetadata {
  id?: string;
  modelId?: string;
  timestamp?: string;
}

/** A stream part as a cassette keeps it (`raw` parts are not kept; dates as ISO text, files as base64). */
export type StoredStreamPart =
  | Exclude<LanguageModelV3StreamPart, { type: 'response-metadata' } | { type: 'raw' }>
  | ({ type: 'response-metadata' } & StoredResponseMetadata);

/** A generate result ready to store. */
export function storeGenerateResult(r: LanguageModelV3GenerateResult): StoredGenerateResult {
  const out: StoredGenerateResult = {
    content: r.content.map(storeFile),
    finishReason: r.finishReason,
    usage: r.usage,
    warnings: r.warnings,
  };
  if (r.providerMetadata !== undefined) out.providerMetadata = r.providerMetadata;
  if (r.response !== undefined) out.response = storeMetadata(r.response);
  return out;
}

/** A stream part ready to store; `undefined` for parts not kept. */
export function storeStreamPart(part: LanguageModelV3StreamPart): StoredStreamPart | undefined {
  if (part.type === 'raw') return undefined;
  if (part.type === 'response-metadata') return { type: 'response-metadata', ...storeMetadata(part) };
  if (part.type === 'error') return { type: 'error', error: part.error instanceof Error ? { message: part.error.message } : part.error };
  return storeFile(part);
}

/** The stored result as `doGenerate` returns it. */
export function reviveGenerateResult(r: StoredGenerateResult): LanguageModelV3GenerateResult {
  const { response, ...rest } = r;
  const out: LanguageModelV3GenerateResult = { ...rest, content: r.content.map((c) => ({ ...c })), warnings: r.warnings ?? [] };
  if (response !== undefined) out.response = reviveMetadata(response);
  return out;
}

/** A stored part as `doStream` emits it. */
export function reviveStreamPart(part: StoredStreamPart): LanguageModelV3StreamPart {
  if (part.type === 'response-metadata') return { type: 'response-metadata', ...reviveMetadata(part) };
  return { ...part } as LanguageModelV3StreamPart;
}

/** A recorded stream answered whole (a stream recording replayed to `doGenerate`). */
export function streamToGenerate(chunks: readonly StoredStreamPart[]): StoredGenerateResult {
  const out: StoredGenerateResult = { content: [], finishReason: { unified: 'other', raw: undefined }, usage: EMPTY_USAGE, warnings: [] };
  const open = new Map<string, OpenPart>();
  for (const part of chunks) {
    switch (part.type) {
      case 'text-start':
      case 'reasoning-start': {
        const c: OpenPart = { type: part.type === 'text-start' ? 'text' : 'reasoning', text: '' };
        if (part.providerMetadata !== undefined) c.providerMetadata = part.providerMetadata;
        open.set(`${c.type}:${part.id}`, c);
        out.content.push(c);
        break;
      }
      case 'text-delta':
      case 'reasoning-delta': {
        const kind = part.type === 'text-delta' ? 'text' : 'reasoning';
        const c = open.get(`${kind}:${part.id}`);
        if (c !== undefined) c.text += part.delta;
        else out.content.push({ type: kind, text: part.delta });
        break;
      }
      case 'tool-call':
      case 'tool-result':
      case 'file':
      case 'source':
      case 'tool-approval-request':
        out.content.push({ ...part });
        break;
      case 'stream-start':
        out.warnings = part.warnings;
        break;
      case 'response-metadata':
        out.response = { id: part.id, modelId: part.modelId, timestamp: part.timestamp };
        break;
      case 'finish':
        out.finishReason = part.finishReason;
        out.usage = part.usage;
        if (part.providerMetadata !== undefined) out.providerMetadata = part.providerMetadata;
        break;
      default:
        break;
    }
  }
  return out;
}

/** A recorded whole answer as stream parts (a generate recording replayed to `doStream`). */
export function generateToStream(r: StoredGenerateResult): StoredStreamPart[] {
  const parts: StoredStreamPart[] = [{ type: 'stream-start', warnings: r.warnings ?? [] }];
  if (r.response !== undefined) parts.push({ type: 'response-metadata', ...r.response });
  r.content.forEach((c, i) => {
    if (c.type === 'text' || c.type === 'reasoning') {
      const id = `${c.type}-${i}`;
      const meta = c.providerMetadata ? { providerMetadata: c.providerMetadata } : {};
      parts.push({ type: `${c.type}-start`, id, ...meta } as StoredStreamPart);
      parts.push({ type: `${c.type}-delta`, id, delta: c.text } as StoredStreamPart);
      parts.push({ type: `${c.type}-end`, id } as StoredStreamPart);
    } else parts.push({ ...c } as StoredStreamPart);
  });
  const finish: StoredStreamPart = { type: 'finish', finishReason: r.finishReason, usage: r.usage };
  if (r.providerMetadata !== undefined) finish.providerMetadata = r.providerMetadata;
  parts.push(finish);
  return parts;
}

/** A text or reasoning part being filled by its deltas. */
type OpenPart = { type: 'text' | 'reasoning'; text: string; providerMetadata?: SharedV3ProviderMetadata };

const EMPTY_USAGE = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

function storeMetadata(m: LanguageModelV3ResponseMetadata): StoredResponseMetadata {
  const out: StoredResponseMetadata = {};
  if (m.id !== undefined) out.id = m.id;
  if (m.modelId !== undefined) out.modelId = m.modelId;
  if (m.timestamp !== undefined) out.timestamp = m.timestamp instanceof Date ? m.timestamp.toISOString() : String(m.timestamp);
  return out;
}

function reviveMetadata(m: StoredResponseMetadata): LanguageModelV3ResponseMetadata {
  const out: LanguageModelV3ResponseMetadata = {};
  if (m.id !== undefined) out.id = m.id;
  if (m.modelId !== undefined) out.modelId = m.modelId;
  if (m.timestamp !== undefined) out.timestamp = new Date(m.timestamp);
  return out;
}

/** Binary file data as base64 (the provider spec allows either). */
function storeFile<T extends LanguageModelV3Content | LanguageModelV3StreamPart>(part: T): T {
  if (part.type !== 'file' || typeof part.data === 'string') return part;
  return { ...part, data: Buffer.from(part.data).toString('base64') };
}

type DeltaPart = Extract<StoredStreamPart, { type: 'text-delta' | 'reasoning-delta' | 'tool-input-delta' }>;

/**
 * A secret split over several deltas would escape a redaction of the written text: the deltas
 * of a text, reasoning or tool input whose whole contains one (`redact(whole) !== whole`) are
 * joined into its first delta. Other parts keep their chunking.
 */
export function joinDeltasWithSecrets(chunks: StoredStreamPart[], redact: (text: string) => string): StoredStreamPart[] {
  const groups = new Map<string, DeltaPart[]>();
  for (const c of chunks) {
    if (c.type !== 'text-delta' && c.type !== 'reasoning-delta' && c.type !== 'tool-input-delta') continue;
    const key = `${c.type}:${c.id}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [c]);
    else group.push(c);
  }
  const dropped = new Set<StoredStreamPart>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const whole = group.map((d) => d.delta).join('');
    if (redact(whole) === whole) continue;
    group[0].delta = whole;
    for (const d of group.slice(1)) dropped.add(d);
  }
  return dropped.size === 0 ? chunks : chunks.filter((c) => !dropped.has(c));
}
