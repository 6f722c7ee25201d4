/** Machine-readable error codes used across Corvid. */
export type CorvidErrorCode =
  | 'config_invalid'
  | 'peer_missing'
  | 'validation_failed'
  | 'authentication_failed'
  | 'provider_error'
  | 'provider_rate_limited'
  | 'provider_timeout'
  | 'provider_unavailable'
  | 'tool_execution_failed'
  | 'path_refused'
  | 'command_refused'
  | 'max_steps_exceeded'
  | 'run_aborted'
  | 'not_found'
  | 'limit_exceeded'
  | 'no_route'
  | 'template_key_missing'
  | 'workflow_failed'
  | 'knowledge_error'
  | 'knowledge_embedder_mismatch'
  | 'storage_error'
  | 'storage_schema_too_new'
  | 'storage_corrupt'
  | 'storage_locked'
  | 'storage_unavailable'
  | 'storage_auth_failed'
  | 'storage_driver_missing'
  | 'storage_conflict'
  | 'secret_key_missing'
  | 'secret_key_invalid'
  | 'secret_decrypt_failed'
  | 'secret_store_error'
  | 'mcp_connection_failed'
  | 'mcp_call_failed'
  | 'mcp_auth_failed'
  | 'cassette_miss'
  | 'cassette_invalid'
  | 'guardrail_tripped'
  | 'internal';

const MARKER = Symbol.for('corvid.error');

/**
 * Root of every error Corvid throws. Each carries a stable `code`, a message written for
 * people, and the underlying `cause` when there is one.
 */
export class CorvidError extends Error {
  readonly [MARKER] = true;
  readonly code: CorvidErrorCode;

  constructor(message: string, options: { code?: CorvidErrorCode; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CorvidError';
    this.code = options.code ?? 'internal';
  }

  /** True for any Corvid error, also across duplicated copies of the package. */
  static isInstance(error: unknown): error is CorvidError {
    return CorvidError.hasMarker(error, MARKER);
  }

  /**
   * Whether `error` carries `marker` set to `true`. Each class of the hierarchy sets its own marker
   * (`Symbol.for('corvid.error.<ClassName>')`) on its instances, so `X.isInstance` recognises X and
   * its subclasses only, also across duplicated copies of the package (where `instanceof` fails).
   */
  protected static hasMarker(error: unknown, marker: symbol): boolean {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }

  /** A plain, serialisable view (used in events, NDJSON and HTTP answers). */
  toJSON(): { name: string; code: CorvidErrorCode; message: string } {
    return { name: this.name, code: this.code, message: this.message };
  }
}
