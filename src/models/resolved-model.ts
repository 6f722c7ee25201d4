import type { RetrySettings } from '../types/model.js';

export type { ClassifiedError, FailedCallInfo, ResolvedModel } from '../types/resolved-model.js';

/** Default retry policy. */
export const DEFAULT_RETRY: Required<RetrySettings> = { maxRetries: 3, initialDelayMs: 500, maxDelayMs: 30_000 };
