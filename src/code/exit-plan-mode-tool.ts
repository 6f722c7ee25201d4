import { z } from 'zod';

import { tool } from '../core/tool.js';
import type { Tool } from '../types/tool.js';
import type { CodeMode } from './code-session-types.js';

/** The name of the tool that offers a plan to the user. */
export const EXIT_PLAN_MODE = 'exit_plan_mode';

/**
 * `exit_plan_mode`: in plan mode, the model offers its plan. The call waits for the user's approval (the approval
 * gate shows the plan and switches the mode when it is approved); when it runs, the plan was approved and the
 * result tells the model to carry it out. A denial (the user wants changes) reaches the model as the reason.
 */
export function exitPlanModeTool(mode: () => CodeMode): Tool {
  return tool({
    name: EXIT_PLAN_MODE,
    description:
      'Plan mode only: present your plan to the user for approval once you have read enough to plan the change. ' +
      'The plan is Markdown: the files to change and what to change in each, in order, and how you will verify it. ' +
      'If the user approves, you leave plan mode and carry out the plan; if not, you get their feedback: revise the plan and offer it again.',
    input: z.object({ plan: z.string().min(1).describe('The plan, in Markdown.') }),
    execute: () => {
      const now = mode();
      if (now === 'plan' || now === 'ask') return `The session is in ${now} mode: keep to reading.`;
      return `The plan is approved. The session is now in ${now} mode: carry out the plan step by step (keep the todo list with todo_write), then verify it.`;
    },
  });
}
