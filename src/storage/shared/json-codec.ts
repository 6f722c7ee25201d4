/**
 * JSON with full fidelity for the values messages and run states carry besides plain JSON:
 * `Uint8Array` (file parts), `URL` and `Date` are stored as tagged objects and revived on load.
 */
const TAG = '$corvid';
const MARKER = `"${TAG}"`;

type Tagged = { [TAG]: 'bytes'; base64: string } | { [TAG]: 'url'; href: string } | { [TAG]: 'date'; iso: string };

function replacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  if (raw instanceof Uint8Array)
    return { [TAG]: 'bytes', base64: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64') };
  if (raw instanceof URL) return { [TAG]: 'url', href: raw.href };
  if (raw instanceof Date) return { [TAG]: 'date', iso: raw.toISOString() };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !(TAG in value)) return value;
  const v = value as Tagged;
  switch (v[TAG]) {
    case 'bytes':
      return new Uint8Array(Buffer.from(v.base64, 'base64'));
    case 'url':
      return new URL(v.href);
    case 'date':
      return new Date(v.iso);
    default:
      return value;
  }
}

/** True when `value` holds something plain JSON would mangle (checked first: the replacer is slow). */
function needsTags(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (value instanceof Uint8Array || value instanceof URL || value instanceof Date || depth > 32) return true;
  if (Array.isArray(value)) {
    for (const v of value) if (needsTags(v, depth + 1)) return true;
    return false;
  }
  for (const k in value) if (needsTags((value as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}

/** Serialises a value; `undefined` becomes null. */
export function encodeJson(value: unknown): string {
  if (value === undefined) return 'null';
  return needsTags(value, 0) ? JSON.stringify(value, replacer) : JSON.stringify(value);
}

/** Parses what `encodeJson` wrote (the reviver only runs when a tagged value is present). */
export function decodeJson(text: string): unknown {
  return text.includes(MARKER) ? JSON.parse(text, reviver) : JSON.parse(text);
}

/** `decodeJson` for nullable columns. */
export function decodeOptional(text: string | null | undefined): unknown {
  return text === null || text === undefined ? undefined : decodeJson(text);
}
