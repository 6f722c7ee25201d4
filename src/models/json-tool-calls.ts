/** A tool call found in model text. `input` is a JSON string (invalid JSON is reported to the model). */
export interface ParsedToolCall {
  toolName: string;
  input: string;
}

/** Result of scanning a model's text for JSON tool calls. */
export interface ParsedToolText {
  calls: ParsedToolCall[];
  /** The text with the tool-call JSON removed. */
  prose: string;
}

/** Options of `parseToolCallsFromText` and `JsonToolCallScanner`. */
export interface ToolCallTextOptions {
  /**
   * Names of the tools offered to the model: only JSON naming one of them is a call, anything else
   * (`{"name": "Ann", "age": 3}`) is answer text. Unset: any name is taken as a call.
   */
  tools?: Iterable<string>;
}

const NAME_KEYS = ['tool', 'name', 'tool_name', 'function'];
const ARG_KEYS = ['arguments', 'args', 'parameters', 'input', 'params'];
const FENCE = '```';
/** Fence tags whose body may hold a call; other languages (```python) are answer text. */
const CALL_FENCE_TAGS = new Set(['', 'json', 'tool', 'tool_call']);

/**
 * Finds tool calls written as JSON in model text: `{"tool": "x", "arguments": {...}}`,
 * `{"tool_calls": [...]}` or an array of calls, bare or inside code fences, with prose around.
 * A call whose JSON is malformed is returned with the raw text as input, so the model is told.
 */
export function parseToolCallsFromText(text: string, options: ToolCallTextOptions = {}): ParsedToolText {
  const scanner = new JsonToolCallScanner(options);
  const prose = scanner.push(text) + scanner.finish();
  return scanner.calls.length > 0 ? { calls: scanner.calls, prose: prose.trim() } : { calls: [], prose: text };
}

type Verdict = { kind: 'pending' } | { kind: 'text'; end: number } | { kind: 'call'; end: number; calls: ParsedToolCall[] };
const PENDING: Verdict = { kind: 'pending' };

/**
 * Splits streamed model text into answer text and JSON tool calls as it arrives. `push` returns
 * the text known not to belong to a call (prose before a call streams at once); what could still
 * become a call (an open `{"…`, a fence whose body starts with `{`) is held until it is complete.
 * Whitespace next to a call is dropped; text without calls comes out unchanged.
 */
export class JsonToolCallScanner {
  /** Calls found so far. */
  readonly calls: ParsedToolCall[] = [];
  private readonly tools: ReadonlySet<string> | undefined;
  private buf = '';
  /** Everything before `pos` is decided. */
  private pos = 0;
  /** Inside a code fence that holds no call (its text streams until the closing fence). */
  private inFence = false;
  /** Whitespace not written yet: dropped when it borders a call. */
  private held = '';
  private wroteText = false;
  /** How far the JSON value still open at the end of the text has been read. */
  private open: OpenValue | undefined;

  constructor(options: ToolCallTextOptions = {}) {
    this.tools = options.tools === undefined ? undefined : new Set(options.tools);
  }

  /** Adds model text; returns the answer text decided by it (may be empty). */
  push(delta: string): string {
    const before = this.buf.length;
    this.buf += delta;
    // Waiting on an open JSON value that has read everything before: read only the new piece (a
    // long value arriving in many small pieces is read once, and the held text is not re-read).
    const v = this.open;
    if (v !== undefined && v.end === -1 && v.at === before && balancedEnd(delta, v, before) === -1) return '';
    return this.advance(false);
  }

  /** The text ended: decides what was held; returns the rest of the answer text. */
  finish(): string {
    let out = this.advance(true);
    if (this.calls.length === 0) out += this.held;
    this.held = '';
    return out;
  }

  private advance(final: boolean): string {
    let out = '';
    const buf = this.buf;
    while (this.pos < buf.length) {
      if (this.inFence) {
        const close = buf.indexOf(FENCE, this.pos);
        if (close === -1) {
          // Keep a trailing "`" or "``": it may be the start of the closing fence.
          const end = final ? buf.length : buf.length - trailingBackticks(buf, this.pos);
          out += this.text(buf.slice(this.pos, end));
          this.pos = end;
          break;
        }
        out += this.text(buf.slice(this.pos, close + 3));
        this.pos = close + 3;
        this.inFence = false;
        continue;
      }
      const start = nextCandidate(buf, this.pos);
      if (start > this.pos || start === -1) {
        const end = start === -1 ? buf.length : start;
        out += this.text(buf.slice(this.pos, end));
        this.pos = end;
        if (start === -1) break;
      }
      const v = buf[start] === '`' ? this.fence(start, final) : this.json(start, final);
      if (v.kind === 'pending') break;
      if (v.kind === 'text') out += this.text(buf.slice(start, v.end));
      else {
        for (const c of v.calls) this.calls.push(c);
        this.held = '';
      }
      this.pos = v.end;
      if (this.open !== undefined && this.open.start < v.end) this.open = undefined;
    }
    this.compact();
    return out;
  }

  /** Drops the decided text, so the buffer holds only what is still undecided. */
  private compact(): void {
    const n = this.pos;
    if (n === 0) return;
    this.buf = this.buf.slice(n);
    this.pos = 0;
    const v = this.open;
    if (v === undefined) return;
    v.start -= n;
    v.at -= n;
    if (v.end !== -1) v.end -= n;
  }

  /** Where the JSON value starting at `start` ends (exclusive), reading on from the last look; -1 while open. */
  private valueEnd(start: number): number {
    if (this.open?.start !== start) this.open = { start, at: start, depth: 0, inString: false, end: -1 };
    return this.open.end !== -1 ? this.open.end : balancedEnd(this.buf, this.open, 0);
  }

  /** Records answer text; returns what may be written now (trailing whitespace is held back). */
  private text(s: string): string {
    let cut = s.length;
    while (cut > 0 && isSpace(s.charCodeAt(cut - 1))) cut--;
    if (cut === 0) {
      this.held += s;
      return '';
    }
    // Whitespace between a call and the first text after it is dropped.
    const lead = this.wroteText || this.calls.length === 0 ? this.held : '';
    this.held = s.slice(cut);
    this.wroteText = true;
    return lead + s.slice(0, cut);
  }

  private isCall(calls: ParsedToolCall[]): boolean {
    const tools = this.tools;
    return calls.length > 0 && (tools === undefined || calls.some((c) => tools.has(c.toolName)));
  }

  /** A `{` or `[` at `start`: a call, answer text, or not known yet. */
  private json(start: number, final: boolean): Verdict {
    const buf = this.buf;
    // An object holding a call starts with a key, an array of calls with an object.
    let next = start + 1;
    while (next < buf.length && isSpace(buf.charCodeAt(next))) next++;
    if (next === buf.length) return final ? { kind: 'text', end: buf.length } : PENDING;
    if (buf[next] !== (buf[start] === '{' ? '"' : '{')) return { kind: 'text', end: start + 1 };
    const end = this.valueEnd(start);
    if (end === -1) {
      if (!final) return PENDING;
      // Cut off at the end: a truncated call is still reported to the model.
      const call = this.malformed(buf.slice(start).trim());
      return call ? { kind: 'call', end: buf.length, calls: [call] } : { kind: 'text', end: start + 1 };
    }
    return this.decide(buf.slice(start, end), end);
  }

  /** A backtick at `start`: a fence whose body may be a call, or answer text. */
  private fence(start: number, final: boolean): Verdict {
    const buf = this.buf;
    if (!buf.startsWith(FENCE, start)) {
      // "`" or "``" at the very end may still grow into a fence.
      if (!final && buf.length - start < 3 && FENCE.startsWith(buf.slice(start))) return PENDING;
      return { kind: 'text', end: start + 1 };
    }
    let first = start + 3;
    while (first < buf.length && isWordChar(buf.charCodeAt(first))) first++;
    if (first === buf.length && !final) return PENDING;
    // ```python and other languages hold code, not calls.
    if (!CALL_FENCE_TAGS.has(buf.slice(start + 3, first).toLowerCase())) return this.openFence(start);
    while (first < buf.length && isSpace(buf.charCodeAt(first))) first++;
    if (first === buf.length) return final ? { kind: 'text', end: buf.length } : PENDING;
    if (buf[first] !== '{' && buf[first] !== '[') return this.openFence(start);
    const valueEnd = this.valueEnd(first);
    const close = valueEnd === -1 ? -1 : buf.indexOf(FENCE, valueEnd);
    // Not closed yet; at the end, the JSON inside is looked at on its own (a truncated call).
    if (close === -1) return final ? { kind: 'text', end: first } : PENDING;
    const verdict = this.decide(buf.slice(first, close).trim(), close + 3);
    return verdict.kind === 'call' ? verdict : { kind: 'text', end: close + 3 };
  }

  /** A fence that holds no call: its opening is text, and the rest streams until it closes. */
  private openFence(start: number): Verdict {
    this.inFence = true;
    return { kind: 'text', end: start + 3 };
  }

  /** Complete JSON text: calls to offered tools, or answer text. */
  private decide(json: string, end: number): Verdict {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      const call = this.malformed(json);
      return call ? { kind: 'call', end, calls: [call] } : { kind: 'text', end };
    }
    const calls = toCalls(value);
    return this.isCall(calls) ? { kind: 'call', end, calls } : { kind: 'text', end };
  }

  /** A call whose JSON does not parse, when it names an offered tool (the model is told what is wrong). */
  private malformed(json: string): ParsedToolCall | undefined {
    const name = /"(?:tool|name|tool_name|function)"\s*:\s*"([^"]+)"/.exec(json)?.[1];
    if (!name || (this.tools !== undefined && !this.tools.has(name))) return undefined;
    return { toolName: name, input: json };
  }
}

function toCalls(value: unknown): ParsedToolCall[] {
  if (Array.isArray(value)) return value.flatMap(toCalls);
  if (!value || typeof value !== 'object') return [];
  const obj = value as Record<string, unknown>;
  const list = obj.tool_calls ?? obj.toolCalls ?? obj.calls;
  if (Array.isArray(list)) return list.flatMap(toCalls);
  if (obj.function && typeof obj.function === 'object') return toCalls(obj.function);
  const nameKey = NAME_KEYS.find((k) => typeof obj[k] === 'string');
  if (!nameKey) return [];
  const argKey = ARG_KEYS.find((k) => k in obj);
  let args = argKey ? obj[argKey] : {};
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      return [{ toolName: obj[nameKey] as string, input: args as string }];
    }
  }
  return [{ toolName: obj[nameKey] as string, input: JSON.stringify(args ?? {}) }];
}

/** Index of the next `{`, `[` or backtick from `from`, or -1. */
function nextCandidate(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 123 /* { */ || c === 91 /* [ */ || c === 96 /* ` */) return i;
  }
  return -1;
}

function trailingBackticks(text: string, from: number): number {
  let n = 0;
  while (n < 2 && text.length - n > from && text.charCodeAt(text.length - 1 - n) === 96) n++;
  return n;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45 || c === 43;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** Progress through a JSON value (`{…}` or `[…]`) that may not be complete yet (indexes into the buffer). */
interface OpenValue {
  start: number;
  /** Next index to read. */
  at: number;
  depth: number;
  inString: boolean;
  /** Where the value ends (exclusive) once it is closed, else -1. */
  end: number;
}

/**
 * Reads `text` (which starts at buffer index `offset`) on from `v.at`, and returns where the value
 * ends (exclusive, a buffer index), or -1 while it is still open.
 */
function balancedEnd(text: string, v: OpenValue, offset: number): number {
  let { depth, inString } = v;
  let i = v.at - offset;
  for (; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') {
        // An escape split across pushes is finished on the next one.
        if (i + 1 >= text.length) break;
        i++;
      } else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) {
        v.end = offset + i + 1;
        return v.end;
      }
    }
  }
  v.at = offset + i;
  v.depth = depth;
  v.inString = inString;
  return -1;
}
