import { CorvidError } from './corvid-error.js';

const MARKER = Symbol.for('corvid.error.RoutingError');

/** A router found no route for a request and has no default route. */
export class RoutingError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `RoutingError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is RoutingError {
    return RoutingError.hasMarker(error, MARKER);
  }

  /** The router's name. */
  readonly agent: string;
  /** The route names it had. */
  readonly routes: readonly string[];

  constructor(options: { agent: string; input: string; routes: readonly string[]; classifier: boolean }) {
    const text = options.input.length > 80 ? `${options.input.slice(0, 77)}...` : options.input;
    super(
      `Router "${options.agent}" found no route for ${JSON.stringify(text)}${options.classifier ? ' (the classifier chose none)' : ''} and has no default route; routes: ${options.routes.join(', ') || '(none)'}. Add a default route (defaultRoute / default_route)${options.classifier ? '' : ' or a classifier'}.`,
      { code: 'no_route' },
    );
    this.name = 'RoutingError';
    this.agent = options.agent;
    this.routes = options.routes;
  }
}
