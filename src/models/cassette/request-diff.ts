import type { CanonicalRequest } from './canonical-request.js';

/** One field where two requests differ (`path` like `prompt[2].content[0].text`). */
export interface FieldDifference {
  path: string;
  recorded: unknown;
  now: unknown;
}

/** The fields where `now` differs from `recorded`, depth first, at most `limit`; `count` is how many there are in all. */
export function diffRequests(recorded: CanonicalRequest, now: CanonicalRequest, limit = 6): { count: number; fields: FieldDifference[] } {
  const fields: FieldDifference[] = [];
  let count = 0;
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (a === b) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], `${path}[${i}]`);
      return;
    }
    if (isObject(a) && isObject(b)) {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[k], b[k], path ? `${path}.${k}` : k);
      return;
    }
    count++;
    if (fields.length < limit) fields.push({ path, recorded: a, now: b });
  };
  walk(recorded, now, '');
  return { count, fields };
}

/** A difference as one line: `  prompt[1].content[0].text: recorded "2 + 2" → now "2 + 3"`. */
export function formatDifference(d: FieldDifference): string {
  return `  ${d.path || '(request)'}: recorded ${show(d.recorded)} → now ${show(d.now)}`;
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
