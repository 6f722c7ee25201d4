import { type DestinationStream, type Logger, pino } from 'pino';

import { redactUrls } from '../../core/redact-urls.js';

/** Header and field paths never written to logs. */
export const REDACTED_PATHS = ['authorization', 'headers.authorization', 'headers["x-api-key"]', 'headers.cookie', 'apiKey', 'token'];

/** Options of `createServerLogger`. */
export interface ServerLoggerOptions {
  level?: string;
  /** Where JSON lines go. Default stdout. */
  destination?: DestinationStream;
}

/**
 * The server's pino logger: JSON lines, secrets redacted — the fields of `REDACTED_PATHS`, and in
 * every line (message, `err` with its stack and causes, any field) the credentials, query string
 * and fragment of each URL (`redactUrls`).
 */
export function createServerLogger(options: ServerLoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { name: 'corvid' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      hooks: { streamWrite: redactUrls },
    },
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
