import type { StepResult } from '../types/result.js';
import { CorvidError } from './corvid-error.js';

const MARKER = Symbol.for('corvid.error.MaxStepsExceededError');

/** The agent used all of its `maxSteps` without producing an answer. Carries the steps so far. */
export class MaxStepsExceededError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `MaxStepsExceededError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is MaxStepsExceededError {
    return MaxStepsExceededError.hasMarker(error, MARKER);
  }

  readonly maxSteps: number;
  readonly steps: StepResult[];
  readonly agent: string;

  constructor(options: { agent: string; maxSteps: number; steps: StepResult[] }) {
    super(
      `Agent "${options.agent}" reached its limit of ${options.maxSteps} steps without a final answer (raise maxSteps / max_steps to allow more)`,
      {
        code: 'max_steps_exceeded',
      },
    );
    this.name = 'MaxStepsExceededError';
    this.agent = options.agent;
    this.maxSteps = options.maxSteps;
    this.steps = options.steps;
  }
}
