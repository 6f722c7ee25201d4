import { CorvidError } from '../errors/corvid-error.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import type { AgentEvent } from '../types/events.js';
import type { Message } from '../types/message.js';
import type { FinishReason, InputRequest, PendingApproval, RunResult, ToolCallRecord, ToolResultRecord } from '../types/result.js';
import { RunState } from '../types/run-state.js';
import { toolCallReplayOf } from '../types/tool-call-replay.js';
import { askedQuestion } from './asks-user.js';
import { splitClientCalls } from './client-tools.js';
import { scoreLive } from './live-scoring.js';
import { type LoopRun, openLoopRun, type RunParams } from './loop-run.js';
import type { ModelStepOutput } from './model-step.js';
import { type ModelTurn, takeModelTurn } from './model-turn.js';
import { pausedResult } from './paused-result.js';
import { addProvidedContext } from './provided-context.js';
import { reportRejection } from './report-rejection.js';
import { checkInput, checkOutput, checkToolCalls, settleChecks } from './run-guardrails.js';
import type { ParentLink } from './run-options.js';
import { abortedError } from './run-tree.js';
import type { Runnable } from './runnable.js';
import { executeToolCalls, type PreparedCall, type ToolRunScope } from './tool-executor.js';
import { toToolResultOutput } from './tool-output.js';
import { usageByAgent } from './usage-by-agent.js';

export type { RunParams } from './loop-run.js';
export { newRunId } from './new-run-id.js';
export type { PreparedAgent } from './prepared-agent.js';
export { mergeUsage } from './usage-by-agent.js';

/** What a step decided, once the model answered and its tool calls ran. */
type Decision =
  /** No tool calls: the model's text is the answer. */
  | { kind: 'answer'; out: ModelStepOutput; assistant: Message }
  /** Tool results go back to the model: another step. */
  | { kind: 'continue'; out: ModelStepOutput; assistant: Message; results: ToolResultRecord[] }
  /** An `ask_user` call: the turn ends after this step, the question as its answer. */
  | { kind: 'ask_user'; out: ModelStepOutput; assistant: Message; results: ToolResultRecord[]; request: InputRequest }
  /** A `transfer_to_*` call: the target agent carries on with the conversation. */
  | { kind: 'handoff'; out: ModelStepOutput; assistant: Message; results: ToolResultRecord[]; target: Runnable; toolCallId: string }
  /** Calls of client tools (`RunOptions.clientTools`): the turn ends after this step, the caller runs them. */
  | { kind: 'client_tools'; out: ModelStepOutput; assistant: Message; results: ToolResultRecord[]; calls: ToolCallRecord[] }
  /** Calls wait for a human's approval: the run pauses with the step in flight. */
  | { kind: 'pause'; out: ModelStepOutput; approvals: PendingApproval[] };

/** How a run ends (apart from failing, which throws). */
type Outcome =
  | {
      status: 'completed';
      text: string;
      finishReason: FinishReason;
      activeAgent?: string;
      needsInput?: InputRequest;
      clientToolCalls?: ToolCallRecord[];
    }
  | { status: 'paused'; approvals: PendingApproval[]; activeAgent?: string };

/**
 * The agent loop, a step machine: each step calls the model (`takeModelTurn`), runs the tools it
 * asked for and decides what comes next (`decide`: a `Decision`), which `apply` carries out — another
 * step, or the run's `Outcome`; `finish` then ends the run (`fail` when anything threw). Emits the
 * event sequence documented on `AgentEvent`. On failure or cancellation the conversation is left as it was.
 */
export async function runLoop(p: RunParams): Promise<RunResult> {
  const run = openLoopRun(p);
  let outcome: Outcome | undefined;
  try {
    const guardrails = p.agent.guardrails;
    // Blocking input guardrails run before anything reaches the model.
    if (guardrails?.input !== undefined && run.inFlight === undefined) await checkInput(run, guardrails.input);
    if (p.agent.contextProviders !== undefined) await addProvidedContext(run, p.agent.contextProviders);
    while (outcome === undefined) {
      outcome = await apply(run, await decide(run, await takeModelTurn(run)));
    }
    if (run.checks !== undefined) await settleChecks(run);
    if (run.owned !== undefined && outcome.status === 'completed') await run.owned.complete();
  } catch (err) {
    if (run.checks !== undefined) await settleChecks(run).catch(() => undefined);
    return fail(run, err);
  }
  const result = finish(run, outcome);
  const scoring = p.agent.scoring;
  if (scoring !== undefined && p.parent === undefined && result.status !== 'paused' && result.needsInput === undefined)
    void (scoreLive(scoring, run.input, result) ?? Promise.resolve()).catch(
      reportRejection(`live scoring (onScores) of run ${result.runId}`),
    );
  return result;
}

/** Runs the step's tool calls (if any) and decides what the run does next. */
async function decide(run: LoopRun, turn: ModelTurn): Promise<Decision> {
  const { p, sink } = run;
  const { out, record, assistant } = turn;
  if (sink) {
    for (const c of out.calls) {
      sink({
        runId: run.runId,
        agent: run.agentName,
        path: run.path,
        type: 'tool_call',
        step: record.step,
        toolCallId: c.toolCallId,
        toolName: c.toolName,
        input: c.input,
      });
    }
  }
  if (p.journal !== undefined) await p.journal.afterModelResponse(record.step, assistant, out.calls, out.usage);
  const guardrails = p.agent.guardrails;
  if (out.calls.length === 0) {
    if (guardrails?.output !== undefined) await checkOutput(run, guardrails.output, out.text);
    return { kind: 'answer', out, assistant };
  }
  const split = splitClientCalls(out.calls, p.parent === undefined ? p.options?.clientTools : undefined);
  // Blocking tool-call guardrails run before any call of the step does.
  if (guardrails?.toolCalls !== undefined && split.own.length > 0) await checkToolCalls(run, guardrails.toolCalls, split.own, out.text);
  const scope = toolScopeOf(run);
  const results = split.own.length > 0 ? await executeToolCalls(split.own, scope) : [];
  if (scope.paused !== undefined) {
    const approvals = scope.paused;
    scope.paused = undefined;
    return { kind: 'pause', out, approvals };
  }
  if (p.journal !== undefined) p.journal.toolsDone();
  record.toolResults = results;
  if (split.client.length > 0) {
    const calls = split.client.map((c) => ({ toolCallId: c.toolCallId, toolName: c.toolName, input: c.input }));
    return { kind: 'client_tools', out, assistant, results, calls };
  }
  // A question for the user ends the turn after this step (a handoff in the same step does not happen).
  const request = askedQuestion(p.agent.tools, out.calls, results);
  if (request !== undefined) return { kind: 'ask_user', out, assistant, results, request };
  const target = p.agent.handoffs !== undefined ? pickHandoff(p.agent.handoffs, out.calls, results) : undefined;
  if (target !== undefined) return { kind: 'handoff', out, assistant, results, target: target.agent, toolCallId: target.toolCallId };
  return { kind: 'continue', out, assistant, results };
}

/** Carries out a decision: the run's outcome when it ends, `undefined` for another step. */
async function apply(run: LoopRun, d: Decision): Promise<Outcome | undefined> {
  switch (d.kind) {
    case 'answer':
      if (d.out.content.length > 0) addMessages(run, d.assistant);
      stepEnd(run, d.out);
      return { status: 'completed', text: d.out.text, finishReason: d.out.finishReason };
    case 'continue':
      addToolStep(run, d);
      return undefined;
    case 'ask_user':
      addToolStep(run, d);
      return { status: 'completed', text: d.request.question, finishReason: d.out.finishReason, needsInput: d.request };
    case 'handoff':
      addToolStep(run, d);
      return handOff(run, d.target, d.toolCallId);
    case 'client_tools':
      // The step's own results (if any) join the history now; the client's follow as the next input.
      if (d.results.length > 0) addMessages(run, d.assistant, toolMessageOf(d.results));
      else addMessages(run, d.assistant);
      stepEnd(run, d.out);
      return { status: 'completed', text: d.out.text, finishReason: 'tool-calls', clientToolCalls: d.calls };
    case 'pause':
      return pause(run, d.approvals);
    default: {
      const never: never = d;
      return never;
    }
  }
}

/** Appends messages to the conversation and to the prompt the next step sends. */
function addMessages(run: LoopRun, ...messages: Message[]): void {
  for (const m of messages) {
    run.p.history.push(m);
    run.prompt.push(m);
  }
}

/** A step whose tools ran: the model's message and the tool results join the conversation. */
function addToolStep(
  run: LoopRun,
  { out, assistant, results }: { out: ModelStepOutput; assistant: Message; results: ToolResultRecord[] },
): void {
  addMessages(run, assistant, toolMessageOf(results));
  stepEnd(run, out);
}

/** The `tool` message carrying a step's results. */
function toolMessageOf(results: ToolResultRecord[]): Message {
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
  return toolMessage;
}

function stepEnd(run: LoopRun, out: ModelStepOutput): void {
  if (run.sink)
    run.sink({
      runId: run.runId,
      agent: run.agentName,
      path: run.path,
      type: 'step_end',
      step: run.step,
      text: out.text,
      reasoning: out.reasoning,
      finishReason: out.finishReason,
      usage: out.usage,
    });
}

/** Some calls wait for a human: the step stays in flight (finished calls are recorded), the run pauses. */
async function pause(run: LoopRun, approvals: PendingApproval[]): Promise<Outcome> {
  run.steps.pop();
  if (run.p.journal !== undefined) await run.p.journal.pause(approvals);
  if (run.sink) {
    for (const a of approvals) {
      run.sink({
        runId: run.runId,
        agent: run.agentName,
        path: run.path,
        type: 'approval_required',
        approvalId: a.approvalId,
        toolCallId: a.toolCallId,
        toolName: a.toolName,
        input: a.input,
        prompt: a.prompt,
      });
    }
  }
  return { status: 'paused', approvals };
}

/** Handoff: the target carries on with the same conversation; its answer is this run's answer. */
async function handOff(run: LoopRun, target: Runnable, toolCallId: string): Promise<Outcome> {
  const { p, sink } = run;
  if (sink)
    sink({ runId: run.runId, agent: run.agentName, path: run.path, type: 'handoff', from: run.agentName, to: target.name, toolCallId });
  if (p.journal !== undefined) await p.journal.handoff(run.agentName, target.name, toolCallId);
  const link: ParentLink = {
    path: [...run.path, target.name],
    sink,
    reportUsage: run.reportUsage,
    state: run.state,
    tree: p.tree,
    loop: p.parent?.loop,
  };
  if (p.journal !== undefined) link.journal = p.journal;
  const handler = p.options?.onApproval ?? p.parent?.onApproval;
  if (handler !== undefined) link.onApproval = handler;
  const r = await target.execute({ history: p.history, input: [], options: { signal: p.signal }, stream: p.stream, parent: link });
  const activeAgent = r.activeAgent ?? target.name;
  if (r.status === 'paused') return { status: 'paused', approvals: r.pendingApprovals ?? [], activeAgent };
  const outcome: Outcome = { status: 'completed', text: r.text, finishReason: r.finishReason, activeAgent };
  if (r.needsInput !== undefined) outcome.needsInput = r.needsInput;
  return outcome;
}

/** The tool scope of the run, built at its first tool step (only the step number changes after). */
function toolScopeOf(run: LoopRun): ToolRunScope {
  const { p } = run;
  if (run.toolScope !== undefined) {
    run.toolScope.step = run.step;
    return run.toolScope;
  }
  const scope: ToolRunScope = {
    tools: p.agent.tools,
    agent: run.agentName,
    path: run.path,
    runId: run.runId,
    step: run.step,
    messages: p.history,
    signal: p.signal,
    concurrency: p.agent.toolConcurrency,
    defaultTimeoutMs: p.agent.toolTimeoutMs,
    errorMode: p.agent.toolErrors,
    sink: run.sink,
    reportUsage: run.reportUsage,
    state: (run.state ??= new RunState()),
    tree: p.tree,
    loop: p.parent?.loop,
  };
  if (p.journal !== undefined) {
    scope.journal = p.journal;
    scope.store = p.journal.store;
  } else if (p.options?.store !== undefined && typeof p.options.store !== 'function') scope.store = p.options.store;
  const onApproval = p.options?.onApproval ?? p.parent?.onApproval;
  if (onApproval !== undefined) scope.onApproval = onApproval;
  const replay = toolCallReplayOf(p.model.model);
  if (replay !== undefined) scope.replay = replay;
  run.toolScope = scope;
  return scope;
}

/** The one place a run ends well: outputs saved, closing events, usage reported, the result built. */
function finish(run: LoopRun, outcome: Outcome): RunResult {
  const { p, sink } = run;
  const name = run.agentName;
  const byAgent = usageByAgent(name, run.usage, run.steps, run.nestedUsage);
  if (outcome.status === 'paused') {
    const { history, parent } = p;
    const { runId, path, started, steps, usage, historyLength } = run;
    return pausedResult({
      name,
      history,
      parent,
      runId,
      sink,
      path,
      started,
      steps,
      usage,
      byAgent,
      historyLength,
      paused: outcome.approvals,
      activeAgent: outcome.activeAgent,
    });
  }
  const { text, needsInput } = outcome;
  // Outputs matter to agents that run later in the same tree, which gave this run its state.
  if (p.state !== undefined) {
    p.state.outputs.set(name, text);
    if (p.agent.outputKey !== undefined) p.state.session.set(p.agent.outputKey, text);
  }
  if (sink) {
    const { runId, path } = run;
    if (p.parent === undefined) sink({ runId, agent: name, path, type: 'answer', text });
    const durationMs = performance.now() - run.started;
    if (needsInput === undefined)
      sink({ runId, agent: name, path, type: 'run_end', status: 'completed', steps: run.steps.length, usage: run.usage, durationMs });
    else
      sink({
        runId,
        agent: name,
        path,
        type: 'run_end',
        status: 'completed',
        steps: run.steps.length,
        usage: run.usage,
        durationMs,
        needsInput,
      });
  }
  if (p.parent?.reportUsage) p.parent.reportUsage(run.usage, byAgent);
  const result: RunResult = {
    runId: run.runId,
    agent: name,
    text,
    steps: run.steps,
    usage: run.usage,
    usageByAgent: byAgent,
    messages: p.history.slice(run.historyLength),
    finishReason: outcome.finishReason,
    durationMs: performance.now() - run.started,
    status: 'completed',
  };
  if (outcome.activeAgent !== undefined) result.activeAgent = outcome.activeAgent;
  if (needsInput !== undefined) result.needsInput = needsInput;
  if (outcome.clientToolCalls !== undefined) result.clientToolCalls = outcome.clientToolCalls;
  return result;
}

/** The one place a run fails: journal told, history restored, `error` + `run_end` emitted, usage reported; rethrows. */
async function fail(run: LoopRun, err: unknown): Promise<never> {
  const { p, sink } = run;
  const error = p.signal?.aborted ? abortedError(p.signal, err) : err;
  if (run.owned !== undefined)
    await run.owned.fail(error instanceof RunAbortedError ? { cancelled: true, partialText: error.partialText } : {});
  p.history.length = run.historyLength;
  if (sink) {
    const e = CorvidError.isInstance(error)
      ? { name: error.name, code: error.code, message: error.message }
      : { name: (error as Error)?.name ?? 'Error', code: 'internal', message: (error as Error)?.message ?? String(error) };
    sink({ runId: run.runId, agent: run.agentName, path: run.path, type: 'error', error: e });
    const status = error instanceof RunAbortedError ? 'aborted' : 'failed';
    sink({
      runId: run.runId,
      agent: run.agentName,
      path: run.path,
      type: 'run_end',
      status,
      steps: run.steps.length,
      usage: run.usage,
      durationMs: performance.now() - run.started,
    });
  }
  if (p.parent?.reportUsage) p.parent.reportUsage(run.usage, usageByAgent(run.agentName, run.usage, run.steps, run.nestedUsage));
  throw error;
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

export type { AgentEvent };
