import { CorvidError } from './corvid-error.js';

/** `miss`: a replayed call or tool has no recording; `invalid`: the cassette file cannot be read or written. */
export type CassetteErrorKind = 'miss' | 'invalid';

const CODES = { miss: 'cassette_miss', invalid: 'cassette_invalid' } as const;

/**
 * A cassette could not answer: in `replay` mode, a model call whose request was not recorded
 * (the message shows how it differs from the nearest recording) or a tool call without a recorded
 * result; or a cassette file that is damaged, of a newer format, or cannot be written. `path` is
 * the cassette file.
 */
export class CassetteError extends CorvidError {
  readonly kind: CassetteErrorKind;
  readonly path: string;

  constructor(message: string, options: { kind: CassetteErrorKind; path: string; cause?: unknown }) {
    super(message, { code: CODES[options.kind], cause: options.cause });
    this.name = 'CassetteError';
    this.kind = options.kind;
    this.path = options.path;
  }
}
