import type { AgentEvent } from '../../types/events.js';

/** What `logRunWarning` needs of a logger (pino's `warn`). */
export interface WarnLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** Logs a run's `warning` event (a provider ignored or changed part of a request) at warn level. */
export function logRunWarning(logger: WarnLogger | undefined, e: AgentEvent): void {
  if (logger === undefined || e.type !== 'warning') return;
  logger.warn(
    { runId: e.runId, agent: e.agent, model: e.model, warning: e.kind, ...(e.feature ? { feature: e.feature } : {}) },
    `model warning: ${e.model} (agent ${e.agent}): ${e.message}`,
  );
}
