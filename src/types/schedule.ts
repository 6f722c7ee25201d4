/** A cron schedule of runs (`schedules:` in corvid.yaml, `runtime.runs.schedules.set`): a run of `agent` on `input` at every tick of `cron`. */
export interface ScheduleConfig {
  agent: string;
  input: string;
  /** 5 fields (minute hour day month weekday), 6 (seconds first) or a nickname (`@daily`). */
  cron: string;
  /** IANA time zone the expression is read in. Default UTC. */
  timezone?: string;
  /** The stored session every tick's run goes to; default a new one per run. */
  session?: string;
  /** A tick that passed while no worker ran: skipped, or the latest one run when a worker starts. */
  missed: 'skip' | 'run_once';
}
