import { MaxStepsExceededError } from '../errors/max-steps-exceeded-error.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import type { Message } from '../types/message.js';
import { setModelCallInfo } from '../types/model-call-info.js';
import type { StepResult } from '../types/result.js';
import { addUsage } from '../types/usage.js';
import { compactContext } from './context-budget.js';
import { buildPrompt, type LoopRun } from './loop-run.js';
import { generateStep, type ModelStepOutput } from './model-step.js';
import { emitWarnings } from './provider-warnings.js';
import { streamStep } from './stream-step.js';

/** A model step's response: the output, its record in the result, and the assistant message it adds. */
export interface ModelTurn {
  out: ModelStepOutput;
  record: StepResult;
  assistant: Message;
}

/**
 * The first half of a step: checks the run may take another step, emits `step_start`, calls the
 * model (or takes a resumed run's recorded response), accounts its usage and records the step.
 */
export async function takeModelTurn(run: LoopRun): Promise<ModelTurn> {
  const { p, sink } = run;
  if (p.signal?.aborted) throw new RunAbortedError();
  if (run.step >= run.maxSteps) throw new MaxStepsExceededError({ agent: run.agentName, maxSteps: run.maxSteps, steps: run.steps });
  const step = ++run.step;
  if (p.tree !== undefined) p.tree.step(run.agentName, run.path);
  if (sink) sink({ runId: run.runId, agent: run.agentName, path: run.path, type: 'step_start', step, maxSteps: run.maxSteps });
  let out: ModelStepOutput;
  if (run.inFlight !== undefined) {
    // Resumed in the middle of a step: the model's response is the recorded one.
    out = run.inFlight;
    run.inFlight = undefined;
  } else out = await callModel(run, step);
  addUsage(run.usage, out.usage);
  if (p.tree !== undefined) p.tree.addTokens(out.usage, run.agentName, run.path);
  if (out.warnings !== undefined && sink) {
    const model = `${p.model.provider}:${p.model.modelId}`;
    run.warned = emitWarnings(out.warnings, run.warned, (w) =>
      sink({ runId: run.runId, agent: run.agentName, path: run.path, type: 'warning', step, model, ...w }),
    );
  }
  const record: StepResult = {
    step,
    text: out.text,
    reasoning: out.reasoning,
    toolCalls: out.calls,
    toolResults: [],
    finishReason: out.finishReason,
    usage: out.usage,
  };
  run.steps.push(record);
  return { out, record, assistant: { role: 'assistant', content: out.content } };
}

/** Prepares the prompt (journal, context budget, tool choice) and calls the model, streaming or not. */
async function callModel(run: LoopRun, step: number): Promise<ModelStepOutput> {
  const { p, sink, call } = run;
  if (p.journal !== undefined) await p.journal.beforeModelCall(step);
  if (p.agent.context) {
    const compacted = await compactContext({
      history: p.history,
      system: run.system,
      budget: p.agent.context,
      signal: p.signal,
      keepFrom: run.historyLength,
    });
    if (compacted) {
      run.prompt = buildPrompt(run.system, p.history);
      if (sink) sink({ runId: run.runId, agent: run.agentName, path: run.path, type: 'context_compacted', ...compacted });
    }
  }
  call.prompt = run.prompt;
  setModelCallInfo(call, { agent: run.agentName, path: run.path, runId: run.runId, step });
  // A forced tool choice (`required`, `{ tool }`) applies to the run's first step: later steps
  // may answer (forced every time, the model could never stop calling tools).
  if (step > 1 && call.toolChoice !== undefined && call.toolChoice.type !== 'auto' && call.toolChoice.type !== 'none')
    delete call.toolChoice;
  const onRetry = sink
    ? (r: { attempt: number; delayMs: number; error: { name: string; code: string; message: string } }) =>
        sink({ runId: run.runId, agent: run.agentName, path: run.path, type: 'retry', step, ...r })
    : undefined;
  if (!p.stream) return generateStep(p.model, call, { signal: p.signal, onRetry });
  return streamStep(p.model, call, {
    signal: p.signal,
    emitter: sink ? { sink, runId: run.runId, agent: run.agentName, path: run.path, step } : undefined,
    onRetry,
  });
}
