import { randomFillSync } from 'node:crypto';

/** Ids per refill of the random pool (64 KB): a refill costs tens of µs in a busy server, whatever its size. */
const POOL_IDS = 4096;
const pool = Buffer.allocUnsafe(16 * POOL_IDS);
let next = POOL_IDS;
const out = Buffer.allocUnsafe(36);
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/**
 * A random UUID (v4) as one flat string. `crypto.randomUUID()` returns a string built of many
 * pieces, which V8 copies and flattens later; for ids kept in memory (sessions, tasks) that costs
 * more than making them. Same randomness source (a pooled `randomFillSync`).
 */
export function newId(): string {
  if (next === POOL_IDS) {
    randomFillSync(pool);
    next = 0;
  }
  const base = next++ * 16;
  let j = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) out[j++] = 0x2d; // '-'
    let b = pool[base + i];
    if (i === 6)
      b = (b & 0x0f) | 0x40; // version 4
    else if (i === 8) b = (b & 0x3f) | 0x80; // RFC 4122 variant
    out[j++] = HEX[b >> 4];
    out[j++] = HEX[b & 15];
  }
  return out.toString('latin1', 0, 36);
}
