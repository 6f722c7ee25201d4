import type { Usage } from '../types/usage.js';

/** Shortens `text` to `max` characters, ending with `…` when cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** JSON that survives BigInt, cycles and Errors (for NDJSON and for display). */
export function safeJson(value: unknown, indent?: number): string {
  const seen = new WeakSet<object>();
  try {
    const text = JSON.stringify(
      value,
      (_key, v: unknown) => {
        if (typeof v === 'bigint') return v.toString();
        if (v instanceof Error) return { name: v.name, message: v.message };
        if (typeof v === 'object' && v !== null) {
          if (seen.has(v)) return '[Circular]';
          seen.add(v);
        }
        return v;
      },
      indent,
    );
    return text ?? String(value);
  } catch {
    return String(value);
  }
}

/** One-line display of any value: strings as they are, the rest as compact JSON; whitespace collapsed. */
export function compact(value: unknown, max = 200): string {
  const text = typeof value === 'string' ? value : safeJson(value);
  return truncate(text.replace(/\s+/g, ' ').trim(), max);
}

/** `1,234`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** `120 in · 30 out` plus reasoning / cached counts when present. */
export function formatUsage(u: Usage): string {
  const parts = [`${formatCount(u.inputTokens)} in`, `${formatCount(u.outputTokens)} out`];
  if (u.reasoningTokens) parts.push(`${formatCount(u.reasoningTokens)} reasoning`);
  if (u.cachedInputTokens) parts.push(`${formatCount(u.cachedInputTokens)} cached`);
  return parts.join(' · ');
}

/** `850 ms`, `2.4 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
