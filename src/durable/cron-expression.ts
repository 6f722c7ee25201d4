import { Cron } from 'croner';

import { ConfigError } from '../errors/config-error.js';

/** The part of croner's `Cron` a schedule uses. */
export interface CronTimes {
  /** The first tick after `after` (default now); null when there is none. */
  nextRun(after?: Date): Date | null;
  /** The `n` latest ticks before `before` (default now), latest first. */
  previousRuns(n: number, before?: Date): Date[];
}

/**
 * The ticks of cron expression `expression` read in `timezone` (IANA; default UTC): 5 fields
 * (minute hour day month weekday), 6 (seconds first), or a nickname such as `@daily`.
 * @throws ConfigError naming what is wrong with the expression or the time zone
 */
export function cronTimes(expression: string, timezone?: string): CronTimes {
  const problem = cronProblem(expression, timezone);
  if (problem !== undefined) throw new ConfigError(`schedule ${problem.field}: ${problem.message}`);
  return new Cron(expression, { timezone: timezone ?? 'UTC', paused: true });
}

/** What is wrong with a cron expression or its time zone; undefined when both are fine. */
export function cronProblem(expression: string, timezone?: string): { field: 'cron' | 'timezone'; message: string } | undefined {
  if (timezone !== undefined && !validTimeZone(timezone))
    return { field: 'timezone', message: `unknown time zone "${timezone}": use an IANA name such as Europe/Paris or UTC` };
  const fields = expression.trim().split(/\s+/);
  if (!expression.trim().startsWith('@') && (fields.length < 5 || fields.length > 6))
    return {
      field: 'cron',
      message: `invalid cron expression "${expression}": it has ${fields.length} field(s); write 5 (minute hour day month weekday) or 6 (seconds first), e.g. "*/5 * * * *"`,
    };
  try {
    const c = new Cron(expression, { timezone: timezone ?? 'UTC', paused: true });
    if (c.nextRun() === null) return { field: 'cron', message: `cron expression "${expression}" never fires again` };
  } catch (err) {
    return { field: 'cron', message: `invalid cron expression "${expression}": ${(err as Error).message.replace(/^CronPattern: /, '')}` };
  }
  return undefined;
}

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
