import type { Message } from '../types/message.js';

/** How the conversation is kept under a token budget. */
export interface ContextBudget {
  /** Budget for the prompt (system + history), in estimated tokens. */
  maxTokens: number;
  /** `window` drops the oldest turns; `summarize` replaces them with a model-written summary. */
  strategy: 'window' | 'summarize';
  /** Messages at the end that are always kept. Default 4. */
  keepRecentMessages?: number;
  /** Writes the summary (required for `summarize`; agents wire their summary model here). */
  summarize?: (messages: Message[], signal?: AbortSignal) => Promise<string>;
}

/** What a compaction did (the payload of the `context_compacted` event). */
export interface CompactionReport {
  strategy: 'window' | 'summarize';
  removedMessages: number;
  tokensBefore: number;
  tokensAfter: number;
  /** Why the summary could not be written, when `summarize` fell back to dropping the turns. */
  summaryError?: string;
}

const SUMMARY_PREFIX = 'Summary of the earlier conversation:\n';
const OMITTED = '[Earlier messages were removed to fit the context budget.]';

/** Rough token estimate: ~4 characters a token, plus a small per-message overhead. */
export function estimateTokens(messages: readonly Message[]): number {
  let chars = 0;
  for (const m of messages) {
    chars += 16;
    if (typeof m.content === 'string') chars += m.content.length;
    else
      for (const part of m.content) {
        if (part.type === 'text' || part.type === 'reasoning') chars += part.text.length;
        else chars += JSON.stringify(part).length;
      }
  }
  return Math.ceil(chars / 4);
}

/**
 * Shrinks `history` in place when system + history exceed the budget. Cuts fall only before a
 * user message or before an assistant message that follows tool results, so a tool call is never
 * separated from its result. With `summarize`, a summary model that fails (other than by the run's
 * cancellation) does not fail the run: the turns are dropped as with `window`, and the report says
 * so (`strategy: 'window'`, `summaryError`). Returns what it did, or undefined when nothing was needed.
 */
export async function compactContext(args: {
  history: Message[];
  system: Message | undefined;
  budget: ContextBudget;
  signal?: AbortSignal;
  keepFrom?: number;
}): Promise<CompactionReport | undefined> {
  const { history, system, budget } = args;
  const systemTokens = system ? estimateTokens([system]) : 0;
  const before = systemTokens + estimateTokens(history);
  if (before <= budget.maxTokens) return undefined;

  const hasSummary = history[0]?.role === 'system';
  const start = hasSummary ? 1 : 0;
  const keepRecent = budget.keepRecentMessages ?? 4;
  const lastAllowedCut = Math.max(start, history.length - keepRecent);
  let cut = start;
  let tokens = before;
  // Walk safe cut points from oldest, removing until under budget.
  for (let i = start + 1; i <= lastAllowedCut && tokens > budget.maxTokens; i++) {
    if (!isSafeCut(history, i)) continue;
    cut = i;
    tokens = systemTokens + estimateTokens(history.slice(0, start)) + estimateTokens(history.slice(cut));
  }
  if (cut === start) return undefined;

  const removed = history.slice(start, cut);
  const replacement: Message[] = [];
  let strategy = budget.strategy;
  let summary: string | undefined;
  let summaryError: string | undefined;
  if (strategy === 'summarize' && budget.summarize) {
    const input = hasSummary ? [history[0], ...removed] : removed;
    try {
      summary = await budget.summarize(input, args.signal);
    } catch (error) {
      // A cancelled run stays cancelled; any other failure of the summary model falls back to dropping the turns.
      if (args.signal?.aborted) throw error;
      summaryError = error instanceof Error ? error.message : String(error);
      strategy = 'window';
    }
  }
  if (summary !== undefined) {
    replacement.push({ role: 'system', content: `${SUMMARY_PREFIX}${summary}` });
    history.splice(0, cut, ...replacement);
  } else {
    if (history[cut]?.role !== 'user') replacement.push({ role: 'user', content: [{ type: 'text', text: OMITTED }] });
    history.splice(start, cut - start, ...replacement);
  }
  return {
    strategy,
    removedMessages: removed.length,
    tokensBefore: before,
    tokensAfter: systemTokens + estimateTokens(history),
    ...(summaryError !== undefined ? { summaryError } : {}),
  };
}

function isSafeCut(history: readonly Message[], i: number): boolean {
  const m = history[i];
  if (!m) return false;
  if (m.role === 'user') return true;
  return m.role === 'assistant' && history[i - 1]?.role === 'tool';
}

/** The instruction given to the summary model. */
export const SUMMARY_INSTRUCTIONS =
  'Summarise the conversation below for your own later use. Keep facts, decisions, names, numbers, open questions and tool results that still matter. Be concise; write plain text.';
