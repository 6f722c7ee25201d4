import { z } from 'zod';

import { cronProblem } from '../durable/cron-expression.js';
import type { ScheduleConfig } from './corvid-config.js';

/** Schedule names: they go into run ids (`run_sch_<name>_<epoch seconds>`). */
export const SCHEDULE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,59}$/;

/** One `schedules:` entry. */
export const scheduleSchema = z
  .strictObject({
    agent: z.string({ error: 'agent is the name of the agent to run' }).min(1).describe('The agent each tick runs.'),
    input: z
      .string({ error: 'input is the message each run starts with' })
      .min(1, { error: 'input is empty' })
      .max(1_000_000)
      .describe('The message each run starts with.'),
    cron: z
      .string({ error: 'cron is a cron expression, e.g. "*/5 * * * *"' })
      .describe(
        'When: a cron expression of 5 fields (minute hour day month weekday) or 6 (seconds first), e.g. "*/5 * * * *", or a nickname (@hourly, @daily, @weekly, @monthly, @yearly).',
      ),
    timezone: z.string().optional().describe('The IANA time zone the expression is read in, e.g. Europe/Paris. Default UTC.'),
    session: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,191}$/, { error: 'session ids use 1-191 letters, digits, ".", "_", ":" or "-"' })
      .optional()
      .describe('Run every tick in this stored session (a conversation that goes on); default: a new session per run.'),
    missed: z
      .enum(['skip', 'run_once'], { error: 'missed is skip or run_once' })
      .optional()
      .describe(
        'A tick that passed while no worker was running: `skip` it (default), or `run_once`: the latest missed tick runs when a worker starts.',
      ),
  })
  .superRefine((s, ctx) => {
    const problem = cronProblem(s.cron, s.timezone);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });

/** `schedules:` — runs submitted to the queue on a cron schedule, by every worker process (one run per tick). */
export const schedulesSchema = z
  .record(
    z.string().regex(SCHEDULE_NAME, { error: 'schedule names start with a letter and use letters, digits, "_" and "-" (at most 60)' }),
    scheduleSchema,
  )
  .describe('Runs started on a cron schedule (by `corvid worker` and `corvid serve`; one run per tick across all of them).');

/** Converts a schema-valid `schedules:` section into the normalised form. */
export function normalizeSchedules(file: z.output<typeof schedulesSchema>): Record<string, ScheduleConfig> {
  return Object.fromEntries(
    Object.entries(file).map(([name, s]) => {
      const out: ScheduleConfig = { agent: s.agent, input: s.input, cron: s.cron, missed: s.missed ?? 'skip' };
      if (s.timezone !== undefined) out.timezone = s.timezone;
      if (s.session !== undefined) out.session = s.session;
      return [name, out];
    }),
  );
}

/** A normalised `schedules:` in file form. */
export function schedulesToFile(schedules: Record<string, ScheduleConfig>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schedules).map(([name, s]) => [name, { ...s }]));
}
