import { CorvidError } from './corvid-error.js';

const MARKER = Symbol.for('corvid.error.TemplateError');

/** Templated instructions (or a task / stage input) refer to a state key or output that is not there. */
export class TemplateError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `TemplateError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is TemplateError {
    return TemplateError.hasMarker(error, MARKER);
  }

  /** The agent whose template it is. */
  readonly agent: string;
  /** The placeholder as written, e.g. `state.topic`. */
  readonly key: string;

  constructor(options: { agent: string; key: string; where?: string }) {
    super(
      `Agent "${options.agent}": ${options.where ?? 'its instructions'} use {${options.key}}, but ${describeMissing(options.key)}. Set it before the run, or write {${options.key}?} to make it optional.`,
      { code: 'template_key_missing' },
    );
    this.name = 'TemplateError';
    this.agent = options.agent;
    this.key = options.key;
  }
}

function describeMissing(key: string): string {
  const dot = key.indexOf('.');
  const scope = key.slice(0, dot);
  const name = key.slice(dot + 1);
  switch (scope) {
    case 'state':
      return `session state has no "${name}"`;
    case 'user':
      return `user state has no "${name}"`;
    case 'app':
      return `app state has no "${name}"`;
    case 'output':
      return `no agent or task named "${name}" has produced an output yet`;
    default:
      return `"${key}" has no value`;
  }
}
