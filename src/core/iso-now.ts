let lastMs = -1;
let lastIso = '';

/**
 * The current time as an ISO 8601 string (`Date#toISOString`), reusing the string while the
 * millisecond has not changed: servers stamp several events per request, and formatting a date
 * costs about a microsecond each time.
 */
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
