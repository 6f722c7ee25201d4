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

const NAME_KEYS = ['tool', 'name', 'tool_name', 'function'];
const ARG_KEYS = ['arguments', 'args', 'parameters', 'input', 'params'];

/**
 * Finds tool calls written as JSON in model text: `{"tool": "x", "arguments": {...}}`,
 * `{"tool_calls": [...]}` or an array of calls, bare or inside code fences, with prose around.
 * A call whose JSON is malformed is returned with the raw text as input, so the model is told.
 */
export function parseToolCallsFromText(text: string): ParsedToolText {
  for (const candidate of candidates(text)) {
    let value: unknown;
    try {
      value = JSON.parse(candidate.json);
    } catch {
      const name = /"(?:tool|name|tool_name|function)"\s*:\s*"([^"]+)"/.exec(candidate.json)?.[1];
      if (name) return { calls: [{ toolName: name, input: candidate.json }], prose: strip(text, candidate) };
      continue;
    }
    const calls = toCalls(value);
    if (calls.length > 0) return { calls, prose: strip(text, candidate) };
  }
  return { calls: [], prose: text };
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

interface Candidate {
  json: string;
  start: number;
  end: number;
}

function* candidates(text: string): Generator<Candidate> {
  const fence = /```(?:json|tool|tool_call)?\s*\n?([\s\S]*?)```/g;
  for (let m = fence.exec(text); m; m = fence.exec(text)) {
    const body = m[1].trim();
    if (body.startsWith('{') || body.startsWith('[')) yield { json: body, start: m.index, end: m.index + m[0].length };
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '{' && c !== '[') continue;
    const end = balancedEnd(text, i);
    if (end > i) {
      yield { json: text.slice(i, end), start: i, end };
      i = end - 1;
    } else {
      // Unbalanced: offer the rest of the text so a truncated call is still reported.
      yield { json: text.slice(i).trim(), start: i, end: text.length };
      return;
    }
  }
}

function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function strip(text: string, c: Candidate): string {
  return (text.slice(0, c.start) + text.slice(c.end)).trim();
}
