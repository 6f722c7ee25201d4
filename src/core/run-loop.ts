import type { RunSignal } from './cancel-source.js';
import type { LanguageModelV3CallOptions, LanguageModelV3FunctionTool } from '@ai-sdk/provider';
import { CorvidError } from '../errors/corvid-error.js';
import { MaxStepsExceededError } from '../errors/max-steps-exceeded-error.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import type { ResolvedModel } from '../models/resolved-model.js';
import { mergeProviderOptions, reasoningProviderOptions } from '../models/reasoning-options.js';
import type { AgentEvent, EventSink } from '../types/events.js';
import { type Message, type RunInput, userMessage } from '../types/message.js';
import { toProviderToolChoice, type ReasoningSettings, type ToolChoice } from '../types/model.js';
import type { FinishReason, InputRequest, PendingApproval, RunResult, StepResult, ToolResultRecord } from '../types/result.js';
import type { Tool } from '../types/tool.js';
import { addUsage, emptyUsage, type Usage } from '../types/usage.js';
import { compactContext, type ContextBudget } from './context-budget.js';
import { generateStep, type ModelStepOutput } from './model-step.js';
import { streamStep } from './stream-step.js';
import type { ParentLink, RunOptions } from './run-options.js';
import type { Runnable } from './runnable.js';
import { RunState } from './run-state.js';
import { abortedError, type RunTree } from './run-tree.js';
import { executeToolCalls, type PreparedCall, type ToolRunScope } from './tool-executor.js';
import { toToolResultOutput } from './tool-output.js';
import type { DurableRun } from '../durable/durable-run.js';
import type { InFlightStep } from '../durable/run-state-v1.js';
import { stepFromInFlight } from '../durable/step-from-in-flight.js';
import { pausedResult } from './paused-result.js';
import { emitWarnings } from './provider-warnings.js';
import { askedQuestion } from './asks-user.js';

/** The agent-level settings a run needs (prepared once per agent, reused by every run). */
export interface PreparedAgent {
  name: string;
  tools: ReadonlyMap<string, Tool>;
  toolSpecs: LanguageModelV3FunctionTool[];
  maxSteps: number;
  toolConcurrency: number;
  toolErrors: 'return' | 'throw';
  toolTimeoutMs?: number;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  reasoning?: ReasoningSettings;
  toolChoice?: ToolChoice;
  context?: ContextBudget;
  /** `transfer_to_<name>` tool name → the agent it hands over to. */
  handoffs?: ReadonlyMap<string, Runnable>;
  /** Session-state key the final answer is also saved under. */
  outputKey?: string;
}

/** One run's inputs. `history` is the conversation; it is changed only when the run succeeds. */
export interface RunParams {
  agent: PreparedAgent;
  model: ResolvedModel;
  system: string | undefined;
  history: Message[];
  input: RunInput;
  options: RunOptions | undefined;
  /** The run's cancellation (the caller's signal, combined with the run tree's when there is one). */
  signal: RunSignal | undefined;
  stream: boolean;
  parent?: ParentLink;
  /** Shared state, when the run has one (conversation, `options.state`, templates, nesting). */
  state?: RunState;
  /** The budget tracker, when the run tree has limits. */
  tree?: RunTree;
  /** Session / durable runs: checkpoints, session appends, approvals. */
  durable?: DurableRun;
}

let runCounter = 0;
const runPrefix = Math.random().toString(36).slice(2, 8);

/** A short unique run id. */
export function newRunId(): string {
  return `run_${runPrefix}${(++runCounter).toString(36)}`;
}

/**
 * The agent loop: call the model, run the tools it asked for, feed the results back, until the
 * model answers without tool calls, a tool call asks the user a question (`ask_user`: the turn
 * ends after that step, the question as its answer), or `maxSteps` is reached. Emits the event sequence documented
 * on `AgentEvent`. On failure or cancellation the conversation is left as it was.
 */
export async function runLoop(p: RunParams): Promise<RunResult> {
  const { agent, model, options, parent, tree } = p;
  const started = performance.now();
  const d = p.durable;
  // The top-level loop of a durable run owns its checkpoints' lifecycle; a handoff target continues it.
  const owner = d !== undefined && parent?.durable === undefined;
  const resume = owner ? d.resumeFrom : undefined;
  if (resume !== undefined) d!.resumeFrom = undefined;
  const runId = owner ? d.runId : newRunId();
  const path = parent ? parent.path : [agent.name];
  const userSink = options?.onEvent;
  const parentSink = parent?.sink;
  const sink: EventSink | undefined =
    userSink && parentSink ? (e) => (parentSink(e), userSink(e)) : (userSink ?? parentSink);
  const nested = parent !== undefined;
  const signal = p.signal;
  const maxSteps = options?.maxSteps ?? agent.maxSteps;
  const usage = owner ? d.usage : emptyUsage();
  const steps: StepResult[] = [];
  // Events are built with explicit fields: an object spread per event costs ~2 µs on Node 20.
  const agentName = agent.name;
  let state = p.state;
  /** Per-agent usage reported by nested runs (agent tools, handoff targets). */
  let nestedUsage: Record<string, Usage> | undefined;
  /** Provider warnings reported so far (each distinct one once per run). */
  let warned: Set<string> | undefined;
  const modelName = `${model.provider}:${model.modelId}`;

  const inputMessages = typeof p.input === 'string' ? [userMessage(p.input)] : p.input;
  const historyLength = p.history.length;
  for (const m of inputMessages) p.history.push(m);

  if (sink) {
    if (resume !== undefined) sink({ runId, agent: agentName, path, type: 'run_start', input: d!.input, resumed: true });
    else sink({ runId, agent: agentName, path, type: 'run_start', input: inputMessages.length > 0 ? describeInput(p.input) : lastUserText(p.history) });
  }
  const reportUsage = (u: Usage, byAgent?: Record<string, Usage>) => {
    addUsage(usage, u);
    if (byAgent) nestedUsage = mergeUsage(nestedUsage ?? {}, byAgent);
  };

  let text: string;
  let finishReason: FinishReason;
  let activeAgent: string | undefined;
  let toolScope: ToolRunScope | undefined;
  let paused: PendingApproval[] | undefined;
  let needsInput: InputRequest | undefined;
  try {
    const call = buildCallOptions(p);
    const system: Message | undefined = p.system ? { role: 'system', content: p.system } : undefined;
    let prompt = buildPrompt(system, p.history);
    let step = resume !== undefined ? resume.step : 0;
    let inFlight: InFlightStep | undefined = resume?.inFlight;
    for (;;) {
      if (signal?.aborted) throw new RunAbortedError();
      if (step >= maxSteps) throw new MaxStepsExceededError({ agent: agent.name, maxSteps, steps });
      step++;
      if (tree !== undefined) tree.step(agent.name, path);
      if (sink) sink({ runId, agent: agentName, path, type: 'step_start', step, maxSteps });
      let out: ModelStepOutput;
      if (inFlight !== undefined) {
        // Resumed in the middle of a step: the model's response is the recorded one.
        out = stepFromInFlight(inFlight);
        inFlight = undefined;
      } else {
      if (d !== undefined) await d.beforeModelCall(step);
      if (agent.context) {
        const compacted = await compactContext({ history: p.history, system, budget: agent.context, signal, keepFrom: historyLength });
        if (compacted) {
          prompt = buildPrompt(system, p.history);
          if (sink) sink({ runId, agent: agentName, path, type: 'context_compacted', ...compacted });
        }
      }
      call.prompt = prompt;
      // A forced tool choice (`required`, `{ tool }`) applies to the run's first step: later steps
      // may answer (forced every time, the model could never stop calling tools).
      if (step > 1 && call.toolChoice !== undefined && call.toolChoice.type !== 'auto' && call.toolChoice.type !== 'none') delete call.toolChoice;
      const onRetry = sink
        ? (r: { attempt: number; delayMs: number; error: { name: string; code: string; message: string } }) =>
            sink({ runId, agent: agentName, path, type: 'retry', step, ...r })
        : undefined;
      out = p.stream
        ? await streamStep(model, call, signal, sink ? { sink, runId, agent: agent.name, path, step } : undefined, onRetry)
        : await generateStep(model, call, signal, onRetry);
      }
      addUsage(usage, out.usage);
      if (tree !== undefined) tree.addTokens(out.usage, agent.name, path);
      if (out.warnings !== undefined && sink) warned = emitWarnings(out.warnings, warned, (w) => sink({ runId, agent: agentName, path, type: 'warning', step, model: modelName, ...w }));
      const record: StepResult = {
        step,
        text: out.text,
        reasoning: out.reasoning,
        toolCalls: out.calls,
        toolResults: [],
        finishReason: out.finishReason,
        usage: out.usage,
      };
      steps.push(record);
      const assistant: Message = { role: 'assistant', content: out.content };
      if (d !== undefined) d.noteUsage(assistant, out.usage);
      if (sink) {
        for (const c of out.calls) {
          sink({ runId, agent: agentName, path, type: 'tool_call', step, toolCallId: c.toolCallId, toolName: c.toolName, input: c.input });
        }
      }
      if (out.calls.length === 0) {
        if (out.content.length > 0) {
          p.history.push(assistant);
          prompt.push(assistant);
        }
        if (sink) sink({ runId, agent: agentName, path, type: 'step_end', step, text: out.text, reasoning: out.reasoning, finishReason: out.finishReason, usage: out.usage });
        text = out.text;
        finishReason = out.finishReason;
        break;
      }
      if (d !== undefined && d.inFlight === undefined) await d.afterModelResponse(step, assistant, out.calls);
      // Built at the first tool step and reused: only the step number changes.
      if (toolScope === undefined) {
        toolScope = {
          tools: agent.tools,
          agent: agent.name,
          path,
          runId,
          step,
          messages: p.history,
          signal,
          concurrency: agent.toolConcurrency,
          defaultTimeoutMs: agent.toolTimeoutMs,
          errorMode: agent.toolErrors,
          sink,
          reportUsage,
          state: (state ??= new RunState()),
          tree,
          loop: parent?.loop,
        };
        if (d !== undefined) {
          toolScope.durable = d;
          toolScope.store = d.store;
        } else if (options?.store !== undefined && typeof options.store !== 'function') toolScope.store = options.store;
        const onApproval = options?.onApproval ?? parent?.onApproval;
        if (onApproval !== undefined) toolScope.onApproval = onApproval;
      } else toolScope.step = step;
      const results = await executeToolCalls(out.calls, toolScope);
      if (toolScope.paused !== undefined) {
        // Some calls wait for a human: the step stays in flight (finished calls are recorded).
        paused = toolScope.paused;
        toolScope.paused = undefined;
        steps.pop();
        if (d !== undefined) await d.pause(paused);
        if (sink) {
          for (const a of paused) {
            sink({ runId, agent: agentName, path, type: 'approval_required', approvalId: a.approvalId, toolCallId: a.toolCallId, toolName: a.toolName, input: a.input, prompt: a.prompt });
          }
        }
        text = '';
        finishReason = out.finishReason;
        break;
      }
      if (d !== undefined) d.stepDone();
      record.toolResults = results;
      // A question for the user ends the turn after this step (a handoff in the same step does not happen).
      needsInput = askedQuestion(agent.tools, out.calls, results);
      const target = agent.handoffs !== undefined && needsInput === undefined ? pickHandoff(agent.handoffs, out.calls, results) : undefined;
      const toolMessage: Message = { role: 'tool', content: new Array(results.length) };
      for (let i = 0; i < results.length; i++) {
        const r = results[i];
        toolMessage.content[i] = {
          type: 'tool-result',
          toolCallId: r.toolCallId,
          toolName: r.toolName,
          output: toToolResultOutput(r.output, r.isError),
        };
      }
      p.history.push(assistant, toolMessage);
      prompt.push(assistant, toolMessage);
      if (sink) sink({ runId, agent: agentName, path, type: 'step_end', step, text: out.text, reasoning: out.reasoning, finishReason: out.finishReason, usage: out.usage });
      if (needsInput !== undefined) {
        text = needsInput.question;
        finishReason = out.finishReason;
        break;
      }
      if (target !== undefined) {
        // Handoff: the target carries on with the same conversation; its answer is this run's answer.
        if (sink) sink({ runId, agent: agentName, path, type: 'handoff', from: agent.name, to: target.agent.name, toolCallId: target.toolCallId });
        if (d !== undefined) await d.handoff(agent.name, target.agent.name, target.toolCallId);
        const link: ParentLink = {
          path: [...path, target.agent.name],
          sink,
          reportUsage,
          state,
          tree,
          loop: parent?.loop,
        };
        if (d !== undefined) link.durable = d;
        const handler = options?.onApproval ?? parent?.onApproval;
        if (handler !== undefined) link.onApproval = handler;
        const r = await target.agent.execute(p.history, [], { signal }, p.stream, link);
        text = r.text;
        finishReason = r.finishReason;
        activeAgent = r.activeAgent ?? target.agent.name;
        if (r.status === 'paused') paused = r.pendingApprovals ?? [];
        if (r.needsInput !== undefined) needsInput = r.needsInput;
        break;
      }
    }
    if (owner && paused === undefined) await d.complete();
  } catch (err) {
    if (owner) await d.fail();
    p.history.length = historyLength;
    const error = signal?.aborted ? abortedError(signal, err) : err;
    if (sink) {
      const e = CorvidError.isInstance(error)
        ? { name: error.name, code: error.code, message: error.message }
        : { name: (error as Error)?.name ?? 'Error', code: 'internal', message: (error as Error)?.message ?? String(error) };
      sink({ runId, agent: agentName, path, type: 'error', error: e });
      sink({
        runId,
        agent: agentName,
        path,
        type: 'run_end',
        status: error instanceof RunAbortedError ? 'aborted' : 'failed',
        steps: steps.length,
        usage,
        durationMs: performance.now() - started,
      });
    }
    if (parent?.reportUsage) parent.reportUsage(usage, usageByAgent(agent.name, usage, steps, nestedUsage));
    throw error;
  }
  if (paused !== undefined) {
    const byAgent = usageByAgent(agent.name, usage, steps, nestedUsage);
    return pausedResult({ name: agent.name, history: p.history, parent, runId, sink, path, started, steps, usage, byAgent, historyLength, paused, activeAgent });
  }
  // Outputs matter to agents that run later in the same tree, which gave this run its state.
  if (p.state !== undefined) {
    p.state.outputs.set(agent.name, text);
    if (agent.outputKey !== undefined) p.state.session.set(agent.outputKey, text);
  }
  const byAgent = usageByAgent(agent.name, usage, steps, nestedUsage);
  if (sink) {
    if (!nested) sink({ runId, agent: agentName, path, type: 'answer', text });
    if (needsInput === undefined) sink({ runId, agent: agentName, path, type: 'run_end', status: 'completed', steps: steps.length, usage, durationMs: performance.now() - started });
    else sink({ runId, agent: agentName, path, type: 'run_end', status: 'completed', steps: steps.length, usage, durationMs: performance.now() - started, needsInput });
  }
  if (parent?.reportUsage) parent.reportUsage(usage, byAgent);
  const result: RunResult = {
    runId,
    agent: agent.name,
    text,
    steps,
    usage,
    usageByAgent: byAgent,
    messages: p.history.slice(historyLength),
    finishReason,
    durationMs: performance.now() - started,
    status: 'completed',
  };
  if (activeAgent !== undefined) result.activeAgent = activeAgent;
  if (needsInput !== undefined) result.needsInput = needsInput;
  return result;
}

/** The first successful `transfer_to_*` call of a step (later ones are ignored). */
function pickHandoff(
  handoffs: ReadonlyMap<string, Runnable>,
  calls: PreparedCall[],
  results: ToolResultRecord[],
): { agent: Runnable; toolCallId: string } | undefined {
  let found: { agent: Runnable; toolCallId: string } | undefined;
  for (let i = 0; i < calls.length; i++) {
    const target = handoffs.get(calls[i].toolName);
    if (target === undefined || results[i].isError) continue;
    if (found === undefined) found = { agent: target, toolCallId: calls[i].toolCallId };
    else results[i].output = `Not transferred: control already passed to ${found.agent.name} in this step.`;
  }
  return found;
}

/** Adds every entry of `from` into `into` (copying records it does not have yet). */
export function mergeUsage(into: Record<string, Usage>, from: Record<string, Usage>): Record<string, Usage> {
  for (const name in from) {
    const mine = into[name];
    if (mine) addUsage(mine, from[name]);
    else into[name] = addUsage(emptyUsage(), from[name]);
  }
  return into;
}

/** This run's usage per agent: its own model calls under its name, plus what nested runs reported. */
function usageByAgent(name: string, usage: Usage, steps: StepResult[], nested: Record<string, Usage> | undefined): Record<string, Usage> {
  if (nested === undefined) return { [name]: usage };
  const own = emptyUsage();
  for (const s of steps) addUsage(own, s.usage);
  return mergeUsage({ [name]: own }, nested);
}

/** The text of the last user message (the `run_start` input of a handoff target). */
function lastUserText(history: Message[]): string {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m.role === 'user') return describeInput([m]);
  }
  return '';
}

function buildPrompt(system: Message | undefined, history: Message[]): Message[] {
  if (!system) return history.slice();
  const prompt = new Array<Message>(history.length + 1);
  prompt[0] = system;
  for (let i = 0; i < history.length; i++) prompt[i + 1] = history[i];
  return prompt;
}

function buildCallOptions(p: RunParams): LanguageModelV3CallOptions {
  const { agent, model, options } = p;
  const call: LanguageModelV3CallOptions = { prompt: [] };
  if (agent.toolSpecs.length > 0) call.tools = agent.toolSpecs;
  const choice = options?.toolChoice ?? agent.toolChoice;
  if (choice && agent.toolSpecs.length > 0) call.toolChoice = toProviderToolChoice(choice);
  const temperature = options?.temperature ?? agent.temperature ?? model.temperature;
  if (temperature !== undefined) call.temperature = temperature;
  const maxTokens = options?.maxTokens ?? agent.maxTokens ?? model.maxTokens;
  if (maxTokens !== undefined) call.maxOutputTokens = maxTokens;
  const topP = options?.topP ?? agent.topP ?? model.topP;
  if (topP !== undefined) call.topP = topP;
  const reasoning = options?.reasoning ?? agent.reasoning ?? model.reasoning;
  const providerOptions = mergeProviderOptions(
    reasoning ? reasoningProviderOptions(model.provider, reasoning) : undefined,
    model.providerOptions,
  );
  if (providerOptions) call.providerOptions = providerOptions as LanguageModelV3CallOptions['providerOptions'];
  return call;
}

function describeInput(input: RunInput): string {
  if (typeof input === 'string') return input;
  const last = input[input.length - 1];
  if (!last) return '';
  if (last.role === 'system') return last.content;
  return last.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

export type { AgentEvent };
