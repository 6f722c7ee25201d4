import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';

import type { EventSink } from '../types/events.js';
import { type Message, type RunInput, userMessage } from '../types/message.js';
import { toProviderToolChoice } from '../types/model.js';
import type { ResolvedModel } from '../types/resolved-model.js';
import type { StepResult } from '../types/result.js';
import type { RunState } from '../types/run-state.js';
import { addUsage, emptyUsage, type Usage } from '../types/usage.js';
import { clientToolSpecs } from './client-tools.js';
import type { ModelStepOutput } from './model-step.js';
import { newRunId } from './new-run-id.js';
import type { PreparedAgent } from './prepared-agent.js';
import type { RunJournal } from './run-journal.js';
import type { ParentLink, RunOptions } from './run-options.js';
import type { RunTree } from './run-tree.js';
import type { ToolRunScope } from './tool-executor.js';
import { mergeUsage } from './usage-by-agent.js';

/** One run's inputs. `history` is the conversation; it is changed only when the run succeeds. */
export interface RunParams {
  agent: PreparedAgent;
  model: ResolvedModel;
  system: string | undefined;
  history: Message[];
  input: RunInput;
  options: RunOptions | undefined;
  /** The run's cancellation (the caller's signal, combined with the run tree's when there is one). */
  signal: AbortSignal | undefined;
  stream: boolean;
  parent?: ParentLink;
  /** Shared state, when the run has one (conversation, `options.state`, templates, nesting). */
  state?: RunState;
  /** The budget tracker, when the run tree has limits. */
  tree?: RunTree;
  /** Session / durable runs: checkpoints, session appends, approvals. */
  journal?: RunJournal;
}

/** What the steps of one loop share: its identity, where events go, and what it has done so far. */
export interface LoopRun {
  readonly p: RunParams;
  readonly runId: string;
  readonly agentName: string;
  readonly path: readonly string[];
  readonly sink: EventSink | undefined;
  readonly started: number;
  readonly maxSteps: number;
  /** The run's journal, when this loop owns it (the top-level loop of a durable run; a handoff target continues its parent's). */
  readonly owned: RunJournal | undefined;
  /** The history's length before the run (restored on failure). */
  readonly historyLength: number;
  readonly usage: Usage;
  readonly steps: StepResult[];
  /** System prompt + history, as sent to the model (kept in step with the history). */
  prompt: Message[];
  /** The system prompt (instructions, plus what context providers added for this turn). */
  system: Message | undefined;
  /** The turn's user text (the `run_start` input). */
  readonly input: string;
  readonly call: LanguageModelV3CallOptions;
  /** Model steps taken (the current one included). */
  step: number;
  /** A resumed run's step whose tools were running: its recorded response replaces the first model call. */
  inFlight: ModelStepOutput | undefined;
  state: RunState | undefined;
  /** Built at the first tool step and reused: only the step number changes. */
  toolScope: ToolRunScope | undefined;
  /** Per-agent usage reported by nested runs (agent tools, handoff targets). */
  nestedUsage: Record<string, Usage> | undefined;
  /** Provider warnings reported so far (each distinct one once per run). */
  warned: Set<string> | undefined;
  readonly reportUsage: (u: Usage, byAgent?: Record<string, Usage>) => void;
  /** `check`-mode guardrails still running (awaited before the run ends). */
  checks?: Promise<void>[];
}

/** Sets up a loop: its ids and event sink, the input added to the history, `run_start` emitted. */
export function openLoopRun(p: RunParams): LoopRun {
  const { agent, options, parent } = p;
  const started = performance.now();
  const owned = p.journal !== undefined && parent?.journal === undefined ? p.journal : undefined;
  const resume = owned?.takeResumePoint();
  const userSink = options?.onEvent;
  const parentSink = parent?.sink;
  const sink: EventSink | undefined = userSink && parentSink ? (e) => (parentSink(e), userSink(e)) : (userSink ?? parentSink);
  // Built before anything changes: settings the provider mapping rejects fail the run with the history untouched.
  const call = buildCallOptions(p);
  const inputMessages = typeof p.input === 'string' ? [userMessage(p.input)] : p.input;
  const historyLength = p.history.length;
  for (const m of inputMessages) p.history.push(m);
  const system: Message | undefined = p.system ? { role: 'system', content: p.system } : undefined;
  const input = resume !== undefined ? owned!.input : inputMessages.length > 0 ? describeInput(p.input) : lastUserText(p.history);
  const run: LoopRun = {
    p,
    runId: owned !== undefined ? owned.runId : newRunId(),
    agentName: agent.name,
    path: parent ? parent.path : [agent.name],
    sink,
    started,
    maxSteps: options?.maxSteps ?? agent.maxSteps,
    owned,
    historyLength,
    usage: owned !== undefined ? owned.usage : emptyUsage(),
    steps: [],
    prompt: buildPrompt(system, p.history),
    system,
    input,
    call,
    step: resume !== undefined ? resume.step : 0,
    inFlight: resume?.inFlight,
    state: p.state,
    toolScope: undefined,
    nestedUsage: undefined,
    warned: undefined,
    reportUsage: (u, byAgent) => {
      addUsage(run.usage, u);
      if (byAgent) run.nestedUsage = mergeUsage(run.nestedUsage ?? {}, byAgent);
    },
  };
  if (sink) {
    // Events are built with explicit fields: an object spread per event costs ~2 µs on Node 20.
    if (resume !== undefined) sink({ runId: run.runId, agent: run.agentName, path: run.path, type: 'run_start', input, resumed: true });
    else sink({ runId: run.runId, agent: run.agentName, path: run.path, type: 'run_start', input });
  }
  return run;
}

/** The system prompt followed by the history. */
export function buildPrompt(system: Message | undefined, history: Message[]): Message[] {
  if (!system) return history.slice();
  const prompt = new Array<Message>(history.length + 1);
  prompt[0] = system;
  for (let i = 0; i < history.length; i++) prompt[i + 1] = history[i];
  return prompt;
}

/** The call options every model call of the run shares: tools and the model settings (run → agent → model). */
function buildCallOptions(p: RunParams): LanguageModelV3CallOptions {
  const { agent, model, options } = p;
  const call: LanguageModelV3CallOptions = { prompt: [] };
  const client =
    p.parent === undefined && options?.clientTools?.length ? clientToolSpecs(agent.name, agent.tools, options.clientTools) : [];
  const specs = client.length > 0 ? [...agent.toolSpecs, ...client] : agent.toolSpecs;
  if (specs.length > 0) call.tools = specs;
  const choice = options?.toolChoice ?? agent.toolChoice;
  if (choice && specs.length > 0) call.toolChoice = toProviderToolChoice(choice);
  const temperature = options?.temperature ?? agent.temperature ?? model.temperature;
  if (temperature !== undefined) call.temperature = temperature;
  const maxTokens = options?.maxTokens ?? agent.maxTokens ?? model.maxTokens;
  if (maxTokens !== undefined) call.maxOutputTokens = maxTokens;
  const topP = options?.topP ?? agent.topP ?? model.topP;
  if (topP !== undefined) call.topP = topP;
  const providerOptions = model.callProviderOptions(options?.reasoning ?? agent.reasoning ?? model.reasoning);
  if (providerOptions) call.providerOptions = providerOptions as LanguageModelV3CallOptions['providerOptions'];
  return call;
}

/** The text of the last user message (the `run_start` input of a handoff target). */
function lastUserText(history: Message[]): string {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m.role === 'user') return describeInput([m]);
  }
  return '';
}

function describeInput(input: RunInput): string {
  if (typeof input === 'string') return input;
  const last = input[input.length - 1];
  if (!last) return '';
  if (last.role === 'system') return last.content;
  return last.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}
