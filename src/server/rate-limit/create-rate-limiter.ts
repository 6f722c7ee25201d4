import type { Logger } from 'pino';

import type { ServerConfig } from '../../config/corvid-config.js';
import type { Store } from '../../types/storage/store.js';
import { type RateCounter, RateLimiter } from './rate-limiter.js';

/**
 * The server's rate limiter, if `server.rate_limit` sets a limit: counting in the store (shared
 * by every server on the same database) when there is one, unless `shared: false`.
 */
export function createRateLimiter(
  config: ServerConfig['rateLimit'],
  store: (() => Promise<Store>) | undefined,
  logger: Logger,
): RateLimiter | undefined {
  if (!config || !(config.requestsPerMinute || config.tokensPerHour)) return undefined;
  const counter: RateCounter | undefined =
    store && config.shared !== false
      ? { add: async (key, amount, windowMs) => (await store()).counters.add(key, amount, windowMs) }
      : undefined;
  let warned = 0;
  return new RateLimiter({
    ...config,
    counter,
    onError: (err) => {
      // Fail open: a storage outage should not turn into refused requests. Said once a minute.
      if (Date.now() - warned < 60_000) return;
      warned = Date.now();
      logger.warn(
        { error: (err as Error).message },
        `rate limits not counted (the storage failed), requests let through: ${(err as Error).message}`,
      );
    },
  });
}
