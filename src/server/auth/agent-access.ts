import type { AgentVisibility } from '../../config/corvid-config.js';
import type { Runnable } from '../../core/runnable.js';
import { HttpError } from '../../http/http-error.js';
import type { ServedRuntime } from '../app/served-runtime.js';
import type { Principal } from './principal.js';

/** Applies agent `visibility` to HTTP requests. */
export class AgentAccess {
  constructor(
    private readonly runtime: () => ServedRuntime,
    /** Whether the server authenticates callers (`server.auth`): then what callers create is theirs alone. */
    readonly authEnabled = false,
  ) {}

  /** The visibility of an agent (`public` unless its config says otherwise). */
  visibility(name: string): AgentVisibility {
    return this.runtime().config.agents[name]?.visibility ?? 'public';
  }

  /** Agents listed to this principal: public ones, and internal ones once authenticated. */
  listed(principal: Principal): Runnable[] {
    const out: Runnable[] = [];
    for (const [name, agent] of this.runtime().agents) {
      const v = this.visibility(name);
      if (v === 'public' || (v === 'internal' && principal.kind !== 'anonymous')) out.push(agent);
    }
    return out;
  }

  /** The agent `name` whatever its visibility (for the server's own work, e.g. resuming runs at start-up). */
  find(name: string): Runnable | undefined {
    return this.runtime().agents.get(name);
  }

  /**
   * Whether this principal may use the agent `name` (it exists, is not private, and is public or
   * internal with an authenticated caller).
   */
  reachable(name: string, principal: Principal): boolean {
    if (!this.runtime().agents.has(name)) return false;
    const v = this.visibility(name);
    return v === 'public' || (v === 'internal' && principal.kind !== 'anonymous');
  }

  /**
   * The agent `name` if this principal may use it, else 404 — the same answer for unknown and
   * private agents, and for internal ones to anonymous callers, so none can be discovered.
   */
  resolve(name: string, principal: Principal): Runnable {
    const agent = this.runtime().agents.get(name);
    if (!agent || !this.reachable(name, principal)) {
      const names = this.listed(principal).map((a) => a.name);
      throw new HttpError(
        404,
        'agent_not_found',
        `Unknown agent "${name.slice(0, 100)}".${names.length ? ` Available agents: ${names.join(', ')}` : ''}`,
      );
    }
    return agent;
  }
}
