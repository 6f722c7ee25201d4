import type { BackgroundRun, BackgroundRunStatus } from '../../types/storage/background-runs.js';
import { decodeOptional } from './json-codec.js';

/** A `corvid_background_runs` row (numbers may come back as strings from Postgres BIGINTs). */
export interface BackgroundRunRow {
  run_id: string;
  agent: string;
  input: string;
  session_id: string | null;
  owner: string | null;
  webhook: string | null;
  status: string;
  result: string | null;
  error: string | null;
  cancel_requested: number | string;
  attempts: number | string;
  worker: string | null;
  run_at: number | string;
  created_at: number | string;
  updated_at: number | string;
  finished_at: number | string | null;
}

/** The row as a `BackgroundRun`. */
export function toBackgroundRun(r: BackgroundRunRow): BackgroundRun {
  const run: BackgroundRun = {
    runId: r.run_id,
    agent: r.agent,
    input: r.input,
    status: r.status as BackgroundRunStatus,
    cancelRequested: Number(r.cancel_requested) === 1,
    attempts: Number(r.attempts),
    runAt: new Date(Number(r.run_at)),
    createdAt: new Date(Number(r.created_at)),
    updatedAt: new Date(Number(r.updated_at)),
  };
  if (r.session_id !== null) run.sessionId = r.session_id;
  if (r.owner !== null) run.owner = r.owner;
  if (r.webhook !== null) run.webhook = r.webhook;
  if (r.result !== null) run.result = decodeOptional(r.result);
  if (r.error !== null) run.error = decodeOptional(r.error) as BackgroundRun['error'];
  if (r.worker !== null) run.worker = r.worker;
  if (r.finished_at !== null) run.finishedAt = new Date(Number(r.finished_at));
  return run;
}
