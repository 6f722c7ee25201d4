import { findAgent, type Runnable } from '../../core/runnable.js';

const cache = new WeakMap<Runnable, string>();

/** A label for the model of an agent (`provider:model`), for metrics and spans. */
export function modelLabel(agent: Runnable | undefined): string {
  if (!agent) return 'unknown';
  const hit = cache.get(agent);
  if (hit) return hit;
  const model = (agent as { options?: { model?: unknown } }).options?.model;
  let label = agent.kind === 'llm' ? 'default' : 'none';
  if (typeof model === 'string') label = model;
  else if (model && typeof model === 'object') {
    const m = model as { provider?: unknown; modelId?: unknown; model?: unknown };
    const id = typeof m.modelId === 'string' ? m.modelId : typeof m.model === 'string' ? m.model : undefined;
    if (id) label = typeof m.provider === 'string' ? `${m.provider.split('.')[0]}:${id}` : id;
  }
  cache.set(agent, label);
  return label;
}

/** Model labels of the agents reachable from `root`, by agent name. */
export function modelLabels(root: Runnable): (agent: string) => string {
  return (name) => modelLabel(findAgent(root, name));
}
