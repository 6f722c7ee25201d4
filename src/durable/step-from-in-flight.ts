import type { ModelStepOutput } from '../core/model-step.js';
import { emptyUsage } from '../types/usage.js';
import type { InFlightStep } from './run-state-v1.js';

/** The model output of a step recorded in a checkpoint (resuming while its tools ran). */
export function stepFromInFlight(f: InFlightStep): ModelStepOutput {
  const content = (f.assistantMessage.role === 'assistant' ? f.assistantMessage.content : []) as ModelStepOutput['content'];
  let text = '';
  let reasoning = '';
  for (const c of content) {
    if (c.type === 'text') text += c.text;
    else if (c.type === 'reasoning') reasoning += c.text;
  }
  return { content, calls: f.calls.map((c) => ({ ...c })), text, reasoning, finishReason: 'tool-calls', usage: emptyUsage() };
}
