import type { GuardrailStage } from '../types/guardrail.js';
import { CorvidError } from './corvid-error.js';

const MARKER = Symbol.for('corvid.error.GuardrailError');

/**
 * A blocking guardrail tripped: the run stopped before the model saw the input (`stage: 'input'`),
 * before a tool ran (`tool_call`), or with an answer that failed its check (`output`). A `guardrail`
 * event with `passed: false` precedes it in the event stream.
 */
export class GuardrailError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `GuardrailError`, also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is GuardrailError {
    return GuardrailError.hasMarker(error, MARKER);
  }

  readonly stage: GuardrailStage;
  /** The guardrail's scorer name. */
  readonly guardrail: string;
  readonly score: number;
  readonly reason: string | undefined;
  readonly agent: string;
  /** Tool-call guardrails: the tool that was not run. */
  readonly toolName: string | undefined;

  constructor(options: {
    stage: GuardrailStage;
    guardrail: string;
    score: number;
    reason?: string;
    agent: string;
    toolName?: string;
    cause?: unknown;
  }) {
    const what =
      options.stage === 'input' ? 'the input' : options.stage === 'output' ? 'the answer' : `a call of tool "${options.toolName}"`;
    super(
      `Guardrail "${options.guardrail}" of agent "${options.agent}" stopped ${what} (score ${round(options.score)})${options.reason ? `: ${options.reason}` : ''}`,
      { code: 'guardrail_tripped', cause: options.cause },
    );
    this.name = 'GuardrailError';
    this.stage = options.stage;
    this.guardrail = options.guardrail;
    this.score = options.score;
    this.reason = options.reason;
    this.agent = options.agent;
    this.toolName = options.toolName;
  }
}

function round(n: number): string {
  return String(Math.round(n * 100) / 100);
}
