import { ConfigError } from './config-error.js';

const MARKER = Symbol.for('corvid.error.MissingPeerError');

/**
 * A feature needs an optional package that is not installed (`npm install corvid` leaves the
 * heavy ones out). The message names the feature and the command that installs what it needs.
 * A `ConfigError` (the setup, not the input, is wrong), with its own code `peer_missing`.
 * @example
 * try { await runtime.runs.work(); } catch (err) {
 *   if (MissingPeerError.isInstance(err)) console.error(`install ${err.packages.join(' ')}`);
 * }
 */
export class MissingPeerError extends ConfigError {
  private readonly [MARKER] = true;

  /** True for a `MissingPeerError`, also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is MissingPeerError {
    return MissingPeerError.hasMarker(error, MARKER);
  }

  /** The packages to install. */
  readonly packages: string[];
  /** What needed them ("The Postgres storage driver", "corvid serve", …). */
  readonly feature: string;

  /** `missing`: the one of `packages` found missing, when known (named in the message). */
  constructor(options: { feature: string; packages: string[]; missing?: string; install?: string; cause?: unknown }) {
    const list = options.packages.join(' ');
    const what =
      options.packages.length === 1
        ? `the optional package ${list}, which is not installed`
        : `the optional packages ${list}${options.missing ? ` (${options.missing} is missing)` : ''}`;
    super(`${options.feature} needs ${what}: run "npm install ${options.install ?? list}"`, { cause: options.cause, code: 'peer_missing' });
    this.name = 'MissingPeerError';
    this.packages = options.packages;
    this.feature = options.feature;
  }
}
