import type { AgentVisibility } from '../config/corvid-config.js';
import type { Runnable } from '../core/runnable.js';
import type { Authenticator } from './authenticator.js';
import { HttpError } from './http-error.js';
import type { Principal } from './principal.js';
import type { ServedRuntime } from './served-runtime.js';

/** Applies agent `visibility` to HTTP requests. */
export class AgentAccess {
  constructor(
    private readonly runtime: () => ServedRuntime,
    private readonly auth: Authenticator,
  ) {}

  /** Whether the server authenticates callers (`server.auth`): then what callers create is theirs alone. */
  get authEnabled(): boolean {
    return this.auth.enabled;
  }

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
   * The agent `name` if this principal may use it: 404 for unknown and private agents (the same
   * answer, so private agents cannot be discovered), 401 for internal ones without a valid token.
   */
  resolve(name: string, principal: Principal): Runnable {
    const agent = this.runtime().agents.get(name);
    const v = agent ? this.visibility(name) : 'private';
    if (!agent || v === 'private') {
      const names = this.listed(principal).map((a) => a.name);
      throw new HttpError(404, 'agent_not_found', `Unknown agent "${name.slice(0, 100)}".${names.length ? ` Available agents: ${names.join(', ')}` : ''}`);
    }
    if (v === 'internal') this.auth.require(principal, `the internal agent "${name}"`);
    return agent;
  }
}
