import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';

import { Agent, type AgentEvent, type AgentOptions } from '../../src/index.js';
import { type Script, ScriptedModel, type ScriptedTurn } from '../../src/testing/index.js';

/** An LLM agent on a scripted model; returns both. */
export function scripted(name: string, script: Script, options: Partial<AgentOptions> = {}): { agent: Agent; model: ScriptedModel } {
  const model = new ScriptedModel(script);
  return { agent: new Agent({ name, model, ...options }), model };
}

/** An agent that always answers `text`. */
export function answering(name: string, text: string, options: Partial<AgentOptions> = {}): { agent: Agent; model: ScriptedModel } {
  return scripted(name, () => ({ text }), options);
}

/** Collects events; `lines()` shows them as `path: type` for compact assertions. */
export function recorder() {
  const events: AgentEvent[] = [];
  return {
    events,
    onEvent: (e: AgentEvent) => void events.push(e),
    lines: (filter?: (e: AgentEvent) => boolean) => events.filter(filter ?? (() => true)).map((e) => `${e.path.join(' > ')}: ${e.type}`),
    of: <T extends AgentEvent['type']>(type: T) => events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type),
  };
}

/** A promise with its resolve function outside. */
export function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * A model turn that waits until the call is aborted (then rejects like a provider would), and
 * reports that it started. `aborted` counts the aborts it saw.
 */
export function waitForAbort(onStart?: () => void) {
  const seen = { aborted: 0 };
  const turn = (call: LanguageModelV3CallOptions): Promise<ScriptedTurn> =>
    new Promise((_, reject) => {
      onStart?.();
      const signal = call.abortSignal!;
      const fail = () => {
        seen.aborted++;
        reject(signal.reason ?? new Error('aborted'));
      };
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
  return { turn, seen };
}

/** The text of the last user message a model call received. */
export function lastUserText(call: LanguageModelV3CallOptions): string {
  for (let i = call.prompt.length - 1; i >= 0; i--) {
    const m = call.prompt[i];
    if (m.role === 'user') return m.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  }
  return '';
}

/** The system prompt a model call received. */
export function systemOf(call: LanguageModelV3CallOptions): string | undefined {
  const m = call.prompt[0];
  return m?.role === 'system' ? m.content : undefined;
}
