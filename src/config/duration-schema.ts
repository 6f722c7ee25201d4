import { z } from 'zod';

const DURATION_ERROR = 'a duration is milliseconds or a number with ms, s or m, e.g. 30s';

/** A duration: milliseconds, or a number with `ms`, `s` or `m` (`30s`). */
export const durationSchema = z.union([z.int().positive(), z.string().regex(/^\d+(\.\d+)?(ms|s|m)$/, { error: DURATION_ERROR })], {
  error: DURATION_ERROR,
});

/** Milliseconds of a value accepted by `durationSchema`. */
export function durationToMs(d: number | string): number {
  if (typeof d === 'number') return d;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(d);
  if (!m) throw new Error(`not a duration: ${d}`);
  const n = Number(m[1]);
  return Math.round(m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n * 60_000);
}
