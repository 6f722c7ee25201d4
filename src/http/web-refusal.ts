import { CorvidError } from '../errors/corvid-error.js';

const MARKER = Symbol.for('corvid.error.WebRefusal');

/**
 * A web request the tools would not make or finish: a blocked address (SSRF guard), a host not
 * in `allowHosts`, too many redirects, a body over the size cap, a timeout. The message is
 * written for the model; the tool call ends with it as an error result.
 */
export class WebRefusal extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `WebRefusal` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is WebRefusal {
    return WebRefusal.hasMarker(error, MARKER);
  }

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'tool_execution_failed', cause: options.cause });
    this.name = 'WebRefusal';
  }
}
