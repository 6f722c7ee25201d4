import { createHash } from 'node:crypto';

import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';

/** A model request as a cassette keys and shows it: JSON, volatile values replaced, secrets masked. */
export type CanonicalRequest = { [key: string]: unknown };

/** Call settings that shape the answer (everything else — abort signal, headers, raw-chunk flag — is left out). */
const SETTINGS = [
  'tools',
  'toolChoice',
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'stopSequences',
  'presencePenalty',
  'frequencyPenalty',
  'seed',
  'responseFormat',
  'providerOptions',
] as const;

/** Values that differ on every run: Corvid run ids, UUIDs, ISO timestamps. */
const VOLATILE: Array<[RegExp, string]> = [
  [/\brun_[a-z0-9]{7,}\b/g, 'run_<id>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g, '<timestamp>'],
];

/**
 * The canonical form of a request to `model` (`provider:modelId`): the prompt and the settings that
 * shape the answer. Tool call ids are numbered in order of appearance (`call_1`, …), provider
 * metadata on messages (item ids, signatures) is dropped, binary data is replaced by its hash,
 * and run ids, UUIDs and timestamps in text are replaced by placeholders.
 */
export function canonicalRequest(options: LanguageModelV3CallOptions, model: string): CanonicalRequest {
  const ids = new Map<string, string>();
  const callId = (id: string): string => {
    let n = ids.get(id);
    if (n === undefined) ids.set(id, (n = `call_${ids.size + 1}`));
    return n;
  };
  const prompt = options.prompt.map((m) => {
    if (m.role === 'system') return { role: m.role, content: m.content };
    const content = (m.content as Array<{ type: string; toolCallId?: string; providerOptions?: unknown }>).map((part) => {
      const { providerOptions: _drop, ...rest } = part;
      if (typeof rest.toolCallId === 'string') rest.toolCallId = callId(rest.toolCallId);
      return rest;
    });
    return { role: m.role, content };
  });
  const out: CanonicalRequest = { model, prompt };
  for (const k of SETTINGS) if (options[k] !== undefined) out[k] = options[k];
  return toJson(out) as CanonicalRequest;
}

/** The key of a canonical request (already redacted): 16 hex digits of its SHA-256, over its keys sorted. */
export function requestKey(request: CanonicalRequest): string {
  return createHash('sha256').update(stableJson(request)).digest('hex').slice(0, 16);
}

/** JSON text with object keys sorted (the same request, the same text). */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function toJson(value: unknown): unknown {
  if (typeof value === 'string') return scrub(value);
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? undefined : value;
  if (value instanceof Uint8Array) return `<bytes sha256:${createHash('sha256').update(value).digest('hex').slice(0, 16)}>`;
  if (value instanceof URL) return value.href;
  if (value instanceof Date) return '<timestamp>';
  if (Array.isArray(value)) return value.map(toJson);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const j = toJson(v);
    if (j !== undefined) out[k] = j;
  }
  return out;
}

function scrub(text: string): string {
  let out = text;
  for (const [pattern, placeholder] of VOLATILE) out = out.replace(pattern, placeholder);
  return out;
}
