/**
 * Helpers for provider tests: model configs pointed at a fake LLM server, the `add` tool and a
 * driver that runs an agent streaming or not and collects its events.
 */
import { z } from 'zod';

import { Agent, type AgentEvent, type AgentOptions, type RunOptions, type RunResult, tool } from '../../src/index.js';
import type { ModelConfig } from '../../src/types/model.js';
import type { RecordedRequest } from './fake-llm-server.js';

/** Every provider path Corvid has, by the API it speaks. */
export type ProviderPath = 'openai-responses' | 'openai-chat' | 'anthropic' | 'google' | 'openai-compatible' | 'ollama';

export const ALL_PATHS: ProviderPath[] = ['openai-responses', 'openai-chat', 'anthropic', 'google', 'openai-compatible', 'ollama'];

/** Default model id per path. */
export const MODEL_IDS: Record<ProviderPath, string> = {
  'openai-responses': 'gpt-4.1-mini',
  'openai-chat': 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-4-5',
  google: 'gemini-2.5-flash',
  'openai-compatible': 'qwen3-8b',
  ollama: 'llama3.2',
};

/** Corvid's provider name for a path (what errors and `ResolvedModel.provider` say). */
export const PROVIDER_NAMES: Record<ProviderPath, string> = {
  'openai-responses': 'openai',
  'openai-chat': 'openai',
  anthropic: 'anthropic',
  google: 'google',
  'openai-compatible': 'openai-compatible',
  ollama: 'ollama',
};

/** A model config for `path` whose base URL is the fake server. */
export function modelConfig(path: ProviderPath, url: string, extra: Partial<ModelConfig> = {}): ModelConfig {
  const base: Record<ProviderPath, ModelConfig> = {
    'openai-responses': { provider: 'openai', model: MODEL_IDS[path], apiKey: 'test', baseURL: `${url}/v1` },
    'openai-chat': { provider: 'openai', api: 'chat', model: MODEL_IDS[path], apiKey: 'test', baseURL: `${url}/v1` },
    anthropic: { provider: 'anthropic', model: MODEL_IDS[path], apiKey: 'test', baseURL: `${url}/v1` },
    google: { provider: 'google', model: MODEL_IDS[path], apiKey: 'test', baseURL: `${url}/v1beta` },
    'openai-compatible': { provider: 'openai-compatible', model: MODEL_IDS[path], apiKey: 'test', baseURL: `${url}/v1` },
    ollama: { provider: 'ollama', model: MODEL_IDS[path], baseURL: `${url}/v1` },
  };
  return { ...base[path], ...extra };
}

export const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** The JSON Schema Corvid derives for `add`. */
export const ADD_SCHEMA = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
};

export function calcAgent(model: ModelConfig, extra: Partial<AgentOptions> = {}): Agent {
  return new Agent({ name: 'calc', instructions: 'You add numbers.', model, tools: [add], ...extra });
}

export interface Outcome {
  result?: RunResult;
  error?: unknown;
  events: AgentEvent[];
}

/** Runs `agent` with `run()` or `stream()`, collecting events; never throws (the error is returned). */
export async function drive(agent: Agent, input: string, stream: boolean, options: RunOptions = {}): Promise<Outcome> {
  const events: AgentEvent[] = [];
  if (!stream) {
    try {
      const result = await agent.run(input, { ...options, onEvent: (e) => events.push(e) });
      return { result, events };
    } catch (error) {
      return { error, events };
    }
  }
  const s = agent.stream(input, options);
  for await (const e of s) events.push(e);
  try {
    return { result: await s.result, events };
  } catch (error) {
    return { error, events };
  }
}

/** Like `drive`, but fails the test with the run's error. */
export async function mustDrive(
  agent: Agent,
  input: string,
  stream: boolean,
  options: RunOptions = {},
): Promise<Required<Omit<Outcome, 'error'>>> {
  const o = await drive(agent, input, stream, options);
  if (o.error) throw o.error;
  return { result: o.result!, events: o.events };
}

export function ofType<T extends AgentEvent['type']>(events: AgentEvent[], type: T): Extract<AgentEvent, { type: T }>[] {
  return events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
}

/** Concatenated deltas of one kind. */
export function deltas(events: AgentEvent[], type: 'text_delta' | 'reasoning_delta'): string {
  return ofType(events, type)
    .map((e) => e.delta)
    .join('');
}

/** A header as a single string. */
export function header(req: RecordedRequest, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}
