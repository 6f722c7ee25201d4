/** Helpers that read an error's `cause` chain (provider errors wrap the network error under them). */

export const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** True when `err` or one of its causes is a lost connection (reset, refused, closed mid-response). */
export function networkCause(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: string }).code;
    if (code && NETWORK_CODES.has(code)) return true;
    if (e instanceof TypeError && /fetch failed|terminated|network/i.test(e.message)) return true;
  }
  return false;
}

/** The message of the innermost cause of `err`. */
export function deepestMessage(err: unknown): string {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && (e as { cause?: unknown } | undefined)?.cause !== undefined; depth++)
    e = (e as { cause?: unknown }).cause;
  return e instanceof Error ? e.message : String(e);
}
