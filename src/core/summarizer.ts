import type { Message } from '../types/message.js';
import type { ResolvedModel } from '../types/resolved-model.js';
import { SUMMARY_INSTRUCTIONS } from './context-budget.js';
import { generateStep } from './model-step.js';

/** Builds the `summarize` function of a context budget from a (lazily resolved) model. */
export function summarizer(getModel: () => Promise<ResolvedModel>) {
  return async (messages: Message[], signal?: AbortSignal): Promise<string> => {
    const model = await getModel();
    const transcript = messages.map(render).join('\n');
    const out = await generateStep(
      model,
      {
        prompt: [
          { role: 'system', content: SUMMARY_INSTRUCTIONS },
          { role: 'user', content: [{ type: 'text', text: transcript }] },
        ],
      },
      { signal },
    );
    return out.text.trim();
  };
}

function render(m: Message): string {
  if (m.role === 'system') return `[earlier summary] ${m.content}`;
  const parts: string[] = [];
  for (const p of m.content) {
    if (p.type === 'text') parts.push(p.text);
    else if (p.type === 'tool-call') parts.push(`called ${p.toolName}(${JSON.stringify(p.input)})`);
    else if (p.type === 'tool-result')
      parts.push(`${p.toolName} returned ${JSON.stringify('value' in p.output ? p.output.value : p.output)}`);
  }
  return `${m.role}: ${parts.join(' ')}`;
}
