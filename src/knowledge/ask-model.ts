import { Agent } from '../core/agent.js';
import type { ModelInput } from '../types/model.js';

/** Asks a chat model once (no tools) and returns its answer; the same retries and errors as an agent's model calls. */
export async function askModel(options: {
  model: ModelInput | undefined;
  /** Names the call in errors and traces, e.g. `knowledge-rerank`. */
  name: string;
  instructions: string;
  prompt: string;
  signal?: AbortSignal;
}): Promise<string> {
  const agent = new Agent({ name: options.name, model: options.model, instructions: options.instructions, maxSteps: 1, temperature: 0 });
  const result = await agent.run(options.prompt, { signal: options.signal });
  return result.text;
}
