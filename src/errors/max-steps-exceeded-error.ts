import type { StepResult } from '../types/result.js';
import { CorvidError } from './corvid-error.js';

/** The agent used all of its `maxSteps` without producing an answer. Carries the steps so far. */
export class MaxStepsExceededError extends CorvidError {
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
