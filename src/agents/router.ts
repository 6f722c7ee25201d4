import { Agent } from '../core/agent.js';
import type { Runnable } from '../core/runnable.js';
import { RoutingError } from '../errors/routing-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { ModelInput } from '../types/model.js';
import type { SubRunOutcome } from '../types/result.js';
import type { RunState } from '../types/run-state.js';
import { WorkflowAgent, type WorkflowAgentOptions, type WorkflowOutput, type WorkflowRun } from './workflow-agent.js';

/** What a route's `when` predicate receives. */
export interface RouteContext {
  /** The request as text. */
  input: string;
  state: RunState;
}

/** One route of a router. */
export interface Route {
  /** Route name (in events, results and classifier prompts); default the agent's name. */
  name?: string;
  agent: Runnable;
  /** What requests belong here; shown to the classifier. Default the agent's description. */
  description?: string;
  /** Matches when the request contains one of these words (whole words, any case). */
  keywords?: string[];
  /** Matches when one of these regular expressions matches (strings are compiled case-insensitive). */
  patterns?: Array<RegExp | string>;
  /** Matches when this returns true. */
  when?: (context: RouteContext) => boolean | Promise<boolean>;
  /** Higher priorities are tried first; equal ones in the order given. Default 0. */
  priority?: number;
}

/** The model-based classifier of a router. */
export interface RouterClassifier {
  model?: ModelInput;
  /** Extra instructions for the classifier (the route list is added). */
  instructions?: string;
}

/** Options for `new Router()`. */
export interface RouterOptions extends WorkflowAgentOptions {
  routes: Array<Route | Runnable>;
  /** Where requests no route matches go: a route name or an agent. Without one, no match is a `RoutingError`. */
  defaultRoute?: string | Runnable;
  /**
   * A model that picks the route when no keyword, pattern or predicate matches (with only
   * classifier routes, it decides every request). It answers with a route name, or "none".
   */
  classifier?: RouterClassifier | Agent;
}

interface PreparedRoute {
  name: string;
  agent: Runnable;
  description: string | undefined;
  keywords?: RegExp;
  patterns: RegExp[];
  when?: Route['when'];
  priority: number;
  order: number;
}

/**
 * Sends each request to one agent: by keywords, regular expressions or predicates (highest
 * priority first), then by a model-based classifier when one is configured, else to the default
 * route. No match and no default is a `RoutingError`. A `route` event says which route was taken
 * and why; `result.workflow.route` holds it.
 */
export class Router extends WorkflowAgent {
  readonly kind = 'router' as const;
  private readonly routes: PreparedRoute[];
  private readonly fallback: PreparedRoute | undefined;
  private readonly classifier: Agent | undefined;

  constructor(options: RouterOptions) {
    super(options);
    if (!Array.isArray(options.routes) || options.routes.length === 0)
      throw new ValidationError(`Router "${this.name}" needs routes: at least one`);
    const names = new Set<string>();
    this.routes = options.routes.map((r, order) => {
      const route: Route = isRunnable(r) ? { agent: r } : r;
      if (!route || !isRunnable(route.agent)) throw new ValidationError(`Router "${this.name}": routes[${order}] needs an agent`);
      const name = route.name ?? route.agent.name;
      if (names.has(name)) throw new ValidationError(`Router "${this.name}": two routes are named "${name}"`);
      names.add(name);
      const patterns = (route.patterns ?? []).map((p) => {
        if (p instanceof RegExp) return p;
        try {
          return new RegExp(p, 'i');
        } catch (err) {
          throw new ValidationError(
            `Router "${this.name}", route "${name}": invalid pattern ${JSON.stringify(p)}: ${(err as Error).message}`,
          );
        }
      });
      return {
        name,
        agent: route.agent,
        description: route.description ?? route.agent.description,
        keywords: route.keywords?.length ? keywordPattern(route.keywords) : undefined,
        patterns,
        when: route.when,
        priority: route.priority ?? 0,
        order,
      };
    });
    this.routes.sort((a, b) => b.priority - a.priority || a.order - b.order);
    const d = options.defaultRoute;
    if (d !== undefined) {
      const found = typeof d === 'string' ? this.routes.find((r) => r.name === d) : this.routes.find((r) => r.agent === d);
      if (found) this.fallback = found;
      else if (typeof d === 'string')
        throw new ValidationError(`Router "${this.name}": defaultRoute "${d}" is not one of its routes (${[...names].join(', ')})`);
      else this.fallback = { name: d.name, agent: d, description: d.description, patterns: [], priority: 0, order: -1 };
    }
    const c = options.classifier;
    if (c instanceof Agent) this.classifier = c;
    else if (c) {
      this.classifier = new Agent({
        name: `${this.name}:classifier`,
        model: c.model,
        instructions: classifierInstructions(this.routes, c.instructions),
        temperature: 0,
        maxSteps: 1,
      });
    }
  }

  get subAgents(): readonly Runnable[] {
    const agents = this.routes.map((r) => r.agent);
    if (this.fallback) agents.push(this.fallback.agent);
    return [...new Set(agents)];
  }

  /** The route names, highest priority first. */
  get routeNames(): string[] {
    return this.routes.map((r) => r.name);
  }

  protected async runWorkflow(run: WorkflowRun): Promise<WorkflowOutput> {
    const text = run.inputText;
    let chosen: PreparedRoute | undefined;
    let matchedBy: 'keyword' | 'pattern' | 'predicate' | 'classifier' | 'default' = 'default';
    for (const r of this.routes) {
      if (r.keywords?.test(text)) matchedBy = 'keyword';
      else if (r.patterns.some((p) => matches(p, text))) matchedBy = 'pattern';
      else if (r.when && (await r.when({ input: text, state: run.state }))) matchedBy = 'predicate';
      else continue;
      chosen = r;
      break;
    }
    const subRuns: SubRunOutcome[] = [];
    if (!chosen && this.classifier) {
      const result = await this.classifier.execute({
        history: run.history.slice(),
        input: text,
        options: { signal: run.signal },
        stream: run.stream,
        parent: {
          path: [...run.path, this.classifier.name],
          sink: run.sink,
          reportUsage: run.reportUsage,
          state: run.state,
          tree: run.tree,
        },
      });
      chosen = this.pick(result.text);
      if (chosen) matchedBy = 'classifier';
    }
    if (!chosen) {
      chosen = this.fallback;
      matchedBy = 'default';
    }
    if (!chosen)
      throw new RoutingError({
        agent: this.name,
        input: text,
        routes: this.routes.map((r) => r.name),
        classifier: this.classifier !== undefined,
      });
    run.emit({ type: 'route', route: chosen.name, target: chosen.agent.name, matchedBy });
    const o = await run.runPart(chosen.agent, run.input, { task: chosen.name });
    subRuns.push(o);
    if (o.status !== 'completed') throw o.error;
    return { text: o.text!, subRuns, finishReason: o.result!.finishReason, info: { route: chosen.name } };
  }

  /** The route a classifier answer names: the exact name, else the first route name in it. */
  private pick(answer: string): PreparedRoute | undefined {
    const clean = answer
      .trim()
      .replace(/^["'`*\s]+|["'`*.\s]+$/g, '')
      .toLowerCase();
    if (clean === '' || clean === 'none') return undefined;
    const exact = this.routes.find((r) => r.name.toLowerCase() === clean);
    if (exact) return exact;
    let best: { route: PreparedRoute; at: number } | undefined;
    for (const r of this.routes) {
      const m = keywordPattern([r.name]).exec(answer);
      if (m && (!best || m.index < best.at)) best = { route: r, at: m.index };
    }
    return best?.route;
  }
}

function matches(re: RegExp, text: string): boolean {
  re.lastIndex = 0;
  return re.test(text);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whole-word, case-insensitive match of any of the words (Unicode letters and digits count as word characters). */
function keywordPattern(words: string[]): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${words.map((w) => escape(w.trim())).join('|')})(?![\\p{L}\\p{N}_])`, 'iu');
}

function classifierInstructions(routes: PreparedRoute[], extra: string | undefined): string {
  const list = routes.map((r) => `- ${r.name}${r.description ? `: ${r.description}` : ''}`).join('\n');
  return [
    'You route requests to the right handler. Read the request and answer with the name of the one route that fits it best, exactly as written below, and nothing else. If no route fits, answer "none".',
    extra,
    `Routes:\n${list}`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

function isRunnable(v: unknown): v is Runnable {
  return typeof v === 'object' && v !== null && typeof (v as Runnable).execute === 'function' && typeof (v as Runnable).name === 'string';
}
