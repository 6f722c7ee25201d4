import type { ScoreInput } from '../../types/scorer.js';

/** Which text a text scorer reads: the input, the answer, or the tool calls (`name {json args}` per line). */
export type TextTarget = 'input' | 'output' | 'tool_calls';

/**
 * The text a text scorer checks: `target` when given, else what the stage is about — the input
 * for input guardrails, the call for tool-call guardrails, the answer otherwise.
 */
export function scoredText(input: ScoreInput, target: TextTarget | undefined): string {
  const t = target ?? (input.stage === 'input' ? 'input' : input.stage === 'tool_call' ? 'tool_calls' : 'output');
  switch (t) {
    case 'input':
      return input.input;
    case 'output':
      return input.output;
    case 'tool_calls':
      return input.toolCalls.map((c) => `${c.toolName} ${JSON.stringify(c.input ?? {})}`).join('\n');
    default: {
      const never: never = t;
      return never;
    }
  }
}

/** A score of 1 or 0. */
export function binary(
  pass: boolean,
  reason: string,
  details?: Record<string, unknown>,
): { score: number; pass: boolean; reason: string; details?: Record<string, unknown> } {
  return details ? { score: pass ? 1 : 0, pass, reason, details } : { score: pass ? 1 : 0, pass, reason };
}

/** The start of a text, on one line, for reasons. */
export function excerpt(text: string, max = 80): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
