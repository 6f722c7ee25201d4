import { GuardrailError } from '../errors/guardrail-error.js';
import type { Guardrail, GuardrailOptions, GuardrailStage } from '../types/guardrail.js';
import type { ScoreInput, Scorer, ScoreResult, ScoreToolCall } from '../types/scorer.js';
import type { LoopRun } from './loop-run.js';
import type { PreparedCall } from './tool-executor.js';

/** An agent's guardrails, normalised (each list non-empty when present). */
export interface PreparedGuardrails {
  input?: Guardrail[];
  output?: Guardrail[];
  toolCalls?: Guardrail[];
}

/** Normalises `AgentOptions.guardrails`: bare scorers become `block` guardrails; empty lists are dropped. */
export function prepareGuardrails(options: GuardrailOptions | undefined): PreparedGuardrails | undefined {
  if (options === undefined) return undefined;
  const list = (l: ReadonlyArray<Guardrail | Scorer> | undefined): Guardrail[] | undefined =>
    l && l.length > 0 ? l.map((g) => ('scorer' in g ? g : { scorer: g })) : undefined;
  const out: PreparedGuardrails = {};
  const input = list(options.input);
  const output = list(options.output);
  const toolCalls = list(options.toolCalls);
  if (input) out.input = input;
  if (output) out.output = output;
  if (toolCalls) out.toolCalls = toolCalls;
  return input || output || toolCalls ? out : undefined;
}

/** The input guardrails, before the turn's first model call. */
export function checkInput(run: LoopRun, guardrails: Guardrail[]): Promise<void> {
  return checkAll(run, 'input', guardrails, scoreInputOf(run, 'input', ''));
}

/** The output guardrails, on the final answer (before it is added to the conversation). */
export function checkOutput(run: LoopRun, guardrails: Guardrail[], text: string): Promise<void> {
  return checkAll(run, 'output', guardrails, scoreInputOf(run, 'output', text));
}

/** The tool-call guardrails, on each call of a step before any of them runs. */
export async function checkToolCalls(run: LoopRun, guardrails: Guardrail[], calls: readonly PreparedCall[], text: string): Promise<void> {
  const blocking: Promise<void>[] = [];
  for (const call of calls) {
    const applicable = guardrails.filter((g) => g.tools === undefined || g.tools.includes(call.toolName));
    if (applicable.length === 0) continue;
    const input = scoreInputOf(run, 'tool_call', text);
    input.toolCalls = [{ toolName: call.toolName, input: call.input, toolCallId: call.toolCallId }];
    blocking.push(checkAll(run, 'tool_call', applicable, input, call));
  }
  await Promise.all(blocking);
}

/** Waits for the `check`-mode guardrails still running, so their events come before `run_end`. */
export async function settleChecks(run: LoopRun): Promise<void> {
  while (run.checks !== undefined && run.checks.length > 0) {
    const pending = run.checks;
    run.checks = undefined;
    await Promise.all(pending);
  }
}

/** Runs a stage's guardrails: `block` ones are awaited (the first failure throws), `check` ones run on. */
async function checkAll(
  run: LoopRun,
  stage: GuardrailStage,
  guardrails: Guardrail[],
  input: ScoreInput,
  call?: PreparedCall,
): Promise<void> {
  const blocking: Promise<void>[] = [];
  for (const g of guardrails) {
    const done = evaluate(g, input).then((v) => {
      report(run, stage, g, v, call);
      if (!v.passed && (g.mode ?? 'block') === 'block') {
        throw new GuardrailError({
          stage,
          guardrail: g.scorer.name,
          score: v.score,
          reason: v.reason,
          agent: run.agentName,
          toolName: call?.toolName,
          cause: v.error,
        });
      }
    });
    if ((g.mode ?? 'block') === 'block') blocking.push(done);
    else (run.checks ??= []).push(done.catch(() => undefined));
  }
  await Promise.all(blocking);
}

interface Verdict {
  passed: boolean;
  score: number;
  reason?: string;
  error?: unknown;
}

/** One guardrail's verdict; a scorer that throws fails (closed), with the error as the reason. */
async function evaluate(g: Guardrail, input: ScoreInput): Promise<Verdict> {
  let r: ScoreResult;
  try {
    r = await g.scorer.score(input);
  } catch (err) {
    return { passed: false, score: 0, reason: `the scorer failed: ${(err as Error)?.message ?? String(err)}`, error: err };
  }
  const score = Number.isFinite(r.score) ? r.score : 0;
  const passed = g.threshold !== undefined ? score >= g.threshold : r.pass;
  return r.reason !== undefined ? { passed, score, reason: r.reason } : { passed, score };
}

function report(run: LoopRun, stage: GuardrailStage, g: Guardrail, v: Verdict, call: PreparedCall | undefined): void {
  if (!run.sink) return;
  const event = {
    runId: run.runId,
    agent: run.agentName,
    path: run.path,
    type: 'guardrail' as const,
    stage,
    guardrail: g.scorer.name,
    mode: g.mode ?? 'block',
    passed: v.passed,
    score: v.score,
    ...(v.reason !== undefined ? { reason: v.reason } : {}),
    ...(call !== undefined ? { toolCallId: call.toolCallId, toolName: call.toolName } : {}),
  };
  run.sink(event);
}

/** What a guardrail's scorer sees at a stage: the run so far. */
function scoreInputOf(run: LoopRun, stage: ScoreInput['stage'], output: string): ScoreInput {
  const toolCalls: ScoreToolCall[] = [];
  for (const s of run.steps) {
    s.toolCalls.forEach((c, i) => {
      const r = s.toolResults[i];
      toolCalls.push(r ? { ...c, output: r.output, isError: r.isError } : { ...c });
    });
  }
  const input: ScoreInput = {
    stage,
    agent: run.agentName,
    input: run.input,
    output,
    toolCalls,
    usage: { ...run.usage },
    latencyMs: performance.now() - run.started,
    steps: run.steps.length,
  };
  if (run.p.signal !== undefined) input.signal = run.p.signal;
  return input;
}
