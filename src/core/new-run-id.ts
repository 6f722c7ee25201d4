let runCounter = 0;
const runPrefix = Math.random().toString(36).slice(2, 8);

/** A short run id unique within the process (`run_` + a random prefix + a counter); durable runs use `durableRunId()` instead. */
export function newRunId(): string {
  return `run_${runPrefix}${(++runCounter).toString(36)}`;
}
