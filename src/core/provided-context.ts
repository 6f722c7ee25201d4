import { ValidationError } from '../errors/validation-error.js';
import type { ContextProvider } from '../types/context-provider.js';
import { buildPrompt, type LoopRun } from './loop-run.js';

/**
 * Before a turn's first model call: asks the agent's context providers (all at once) for their
 * sections and appends them, in the providers' order, to the system prompt of every step of the
 * turn. A provider that throws fails the run.
 */
export async function addProvidedContext(run: LoopRun, providers: readonly ContextProvider[]): Promise<void> {
  const { p } = run;
  const request = {
    input: run.input,
    agent: run.agentName,
    runId: run.runId,
    path: run.path,
    messages: p.history,
    state: run.state,
    signal: p.signal,
    emit: run.sink,
  };
  const sections = await Promise.all(providers.map((provider) => provider.provide(request)));
  const added = sections.filter((s, i): s is string => {
    if (s !== undefined && typeof s !== 'string') {
      throw new ValidationError(`Context provider "${providers[i].name}" of agent "${run.agentName}" returned ${typeof s}, not text`);
    }
    return typeof s === 'string' && s.trim() !== '';
  });
  if (added.length === 0) return;
  const content = [run.system?.content, ...added].filter((s) => s !== undefined && s !== '').join('\n\n');
  run.system = { role: 'system', content };
  run.prompt = buildPrompt(run.system, p.history);
}
