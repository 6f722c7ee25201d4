/**
 * A `.catch` handler for a promise that runs on without anyone awaiting it (`void work().catch(reportRejection('…'))`):
 * its failure is reported — to `warn` when given (a logger, an option's callback), else as a process warning
 * (`CorvidWarning`, printed on stderr) — instead of being dropped, or of ending the process as an unhandled rejection.
 * @param what what failed, in words, e.g. `'live scoring'`
 */
export function reportRejection(what: string, warn?: (message: string) => void): (err: unknown) => void {
  return (err) => {
    const message = `${what} failed: ${err instanceof Error ? err.message : String(err)}`;
    if (warn !== undefined) warn(message);
    else process.emitWarning(message, 'CorvidWarning');
  };
}
