import type { ToolResultOutput } from '../types/message.js';

/** Serialises a tool's return value for the model: strings as text, everything else as JSON. */
export function toToolResultOutput(output: unknown, isError: boolean): ToolResultOutput {
  if (isError) return { type: 'error-text', value: typeof output === 'string' ? output : safeJson(output) };
  if (typeof output === 'string') return { type: 'text', value: output };
  if (output === undefined || output === null) return { type: 'json', value: null };
  if (typeof output === 'number' || typeof output === 'boolean') return { type: 'json', value: output };
  return { type: 'json', value: toJsonValue(output) };
}

function toJsonValue(value: unknown): NonNullable<unknown> & import('@ai-sdk/provider').JSONValue {
  try {
    return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null');
  } catch {
    return String(value);
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
