import type { Message } from './message.js';

/**
 * A small key-value map (JSON-friendly values) for one scope of state. In memory for now; a
 * session store can load it before a run and save it after.
 */
export class KeyValueState {
  private map: Map<string, unknown> | undefined;

  constructor(initial?: Record<string, unknown>) {
    if (initial) for (const [k, v] of Object.entries(initial)) this.set(k, v);
  }

  get(key: string): unknown {
    return this.map?.get(key);
  }

  /** Sets a value; `undefined` deletes the key. */
  set(key: string, value: unknown): this {
    if (value === undefined) this.map?.delete(key);
    else (this.map ??= new Map()).set(key, value);
    return this;
  }

  has(key: string): boolean {
    return this.map?.has(key) ?? false;
  }

  delete(key: string): boolean {
    return this.map?.delete(key) ?? false;
  }

  clear(): void {
    this.map?.clear();
  }

  get size(): number {
    return this.map?.size ?? 0;
  }

  keys(): string[] {
    return this.map ? [...this.map.keys()] : [];
  }

  /** A plain-object copy (for printing, persisting or assertions). */
  toJSON(): Record<string, unknown> {
    return this.map ? Object.fromEntries(this.map) : {};
  }
}

/** Initial values for `RunState`: plain objects or existing scopes (to share user / app state). */
export interface RunStateInit {
  session?: Record<string, unknown> | KeyValueState;
  user?: Record<string, unknown> | KeyValueState;
  app?: Record<string, unknown> | KeyValueState;
}

/** A persistent sub-conversation of an agent tool. */
interface SubConversation {
  messages: Message[];
  /** Calls to the same sub-conversation run one after another. */
  tail: Promise<unknown>;
}

const scope = (v: Record<string, unknown> | KeyValueState | undefined): KeyValueState =>
  v instanceof KeyValueState ? v : new KeyValueState(v);

/**
 * The state a run tree shares: `session` (this conversation), `user` and `app` key-value scopes,
 * and `outputs` — the final text of every agent (by name), orchestrator task (by id) and pipeline
 * stage (by name) that has finished. A `Conversation` keeps one across turns; templated
 * instructions read it (`{state.topic}`, `{user.name}`, `{app.version}`, `{output.researcher}`),
 * tools read and write it through `context.state`.
 */
export class RunState {
  private s: KeyValueState | undefined;
  private u: KeyValueState | undefined;
  private a: KeyValueState | undefined;
  private o: KeyValueState | undefined;
  private subs: Map<string, SubConversation> | undefined;

  constructor(init?: RunStateInit) {
    if (init?.session) this.s = scope(init.session);
    if (init?.user) this.u = scope(init.user);
    if (init?.app) this.a = scope(init.app);
  }

  /** This conversation's values. */
  get session(): KeyValueState {
    return (this.s ??= new KeyValueState());
  }

  /** The user's values (share one `KeyValueState` between a user's conversations). */
  get user(): KeyValueState {
    return (this.u ??= new KeyValueState());
  }

  /** Values of the whole application. */
  get app(): KeyValueState {
    return (this.a ??= new KeyValueState());
  }

  /** Final texts of finished agents, tasks and stages, by name. */
  get outputs(): KeyValueState {
    return (this.o ??= new KeyValueState());
  }

  /** Clears the session scope, the outputs and persistent sub-conversations (user and app state stay). */
  resetSession(): void {
    this.s?.clear();
    this.o?.clear();
    this.subs = undefined;
  }

  /** The messages of persistent sub-conversations (agent tools with `persistent: true`), by key. */
  subConversations(): ReadonlyMap<string, readonly Message[]> {
    return new Map([...(this.subs ?? [])].map(([k, v]) => [k, v.messages]));
  }

  /** @internal Runs `fn` on the persistent sub-conversation `key`, one call at a time. */
  withSubConversation<T>(key: string, fn: (messages: Message[]) => Promise<T>): Promise<T> {
    const subs = (this.subs ??= new Map());
    let sub = subs.get(key);
    if (!sub) {
      sub = { messages: [], tail: Promise.resolve() };
      subs.set(key, sub);
    }
    const s = sub;
    const run = s.tail.then(() => fn(s.messages));
    s.tail = run.catch(() => undefined);
    return run;
  }
}

/** `RunOptions.state` as a `RunState`: an instance is used as is, a plain object seeds the session scope. */
export function toRunState(state: RunState | Record<string, unknown> | undefined): RunState | undefined {
  if (state === undefined) return undefined;
  return state instanceof RunState ? state : new RunState({ session: state });
}
