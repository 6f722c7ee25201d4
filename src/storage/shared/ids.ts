import { randomBytes } from 'node:crypto';

let lastTime = 0;
let counter = 0;

/**
 * A unique id such as `ses_0lw3k2j9a0001f9c1b7e2d4a0`: milliseconds, a per-process counter, then
 * random bytes, so ids from one process sort in creation order.
 */
export function sortableId(prefix: string): string {
  const now = Date.now();
  if (now === lastTime) counter++;
  else ((lastTime = now), (counter = 0));
  return `${prefix}_${now.toString(36).padStart(9, '0')}${counter.toString(36).padStart(4, '0')}${randomBytes(5).toString('hex')}`;
}
