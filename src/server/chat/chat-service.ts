import type { Agent } from '../../core/agent.js';
import { Conversation } from '../../core/conversation.js';
import type { RunOptions } from '../../core/run-options.js';
import type { Runnable } from '../../core/runnable.js';
import { startRun, startRunStream } from '../../core/start-run.js';
import { usesUserScopedTools } from '../../core/user-scoped.js';
import { HttpError } from '../../http/http-error.js';
import { newId } from '../../http/new-id.js';
import type { EventSink } from '../../types/events.js';
import type { Message, RunInput } from '../../types/message.js';
import type { RunResult } from '../../types/result.js';
import type { RunRecord } from '../../types/storage/runs.js';
import type { Store } from '../../types/storage/store.js';
import { addUsage } from '../../types/usage.js';
import type { AgentAccess } from '../auth/agent-access.js';
import { canSeeOwner, type Principal, principalUser } from '../auth/principal.js';
import { logRunWarning, type WarnLogger } from '../observability/log-run-warning.js';
import type { ServerMetrics } from '../observability/server-metrics.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import type { ChatSession, ChatSessions, SessionDirectory } from '../sessions/chat-sessions.js';
import { ChatTurn, type TurnExecutor } from './chat-turn.js';
import { modelLabels } from './model-label.js';

export { ChatTurn, type TurnOptions } from './chat-turn.js';

/** What starts a chat turn. */
export interface TurnRequest {
  agent: string;
  /** The user's text, or messages to append (the OpenAI-compatible API: new user and tool messages). */
  message: RunInput;
  sessionId?: string;
  /** Create session `sessionId` (owned by the caller) when it does not exist, instead of answering 404. */
  createSession?: boolean;
  userId?: string;
  principal: Principal;
  /** The rate-limit key of the client. */
  client: string;
  /** Makes the agent of this turn from the resolved one (per-request model, settings or instructions: `turnOverrides`). */
  override?: (agent: Runnable) => Runnable;
}

/** What resumes a stored run as a turn of its session. */
export interface ResumeRequest {
  runId: string;
  principal: Principal;
  client: string;
  /** The server's own resume (`storage.resume: auto`): no visibility checks. */
  trusted?: boolean;
}

/** Makes the span recorder of one turn (see `RunTracer`). */
export type RunTracing = (model: (agent: string) => string, attributes: Record<string, string>) => { event: EventSink; endAll(): void };

/**
 * Where turns run: `memory` keeps conversations in `ChatSessions` (no store); `store` runs each
 * turn as a session run in the runtime's store (history, state, checkpoints, approvals).
 */
export type ChatBackend =
  { kind: 'memory'; sessions: ChatSessions } | { kind: 'store'; sessions: SessionDirectory; store: () => Promise<Store> };

/** Options of `ChatService`. */
export interface ChatServiceOptions {
  access: AgentAccess;
  backend: ChatBackend;
  metrics: ServerMetrics;
  /** Set when tracing is configured: a span recorder for one turn. */
  tracing?: RunTracing;
  limiter?: RateLimiter;
  /** Where provider warnings of turns are logged (at warn level). */
  logger?: WarnLogger;
}

/**
 * Chat turns over HTTP and WebSocket: agent access, sessions, a lock per session, metrics,
 * traces, token limits. With a store, turns are session runs and stored runs can be resumed.
 */
export class ChatService {
  private readonly busy = new Set<string>();
  /** Top-level runs of turns running in this process, by run id: what cancels each. */
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly options: ChatServiceOptions) {}

  /** The store, when turns run as session runs. */
  get store(): (() => Promise<Store>) | undefined {
    return this.options.backend.kind === 'store' ? this.options.backend.store : undefined;
  }

  /** Whether run `runId` is running in this process. */
  isRunning(runId: string): boolean {
    return this.running.has(runId);
  }

  /** Cancels run `runId` if a turn of this process runs it; false otherwise. */
  cancelRun(runId: string): boolean {
    const controller = this.running.get(runId);
    if (controller === undefined) return false;
    controller.abort(new Error('cancelled'));
    return true;
  }

  /** Whether a turn of session `id` is running. */
  isBusy(id: string): boolean {
    return this.busy.has(id);
  }

  /** The session `id` if this principal may see it, else `undefined`. */
  async session(id: string, principal: Principal): Promise<ChatSession | undefined> {
    const s = await this.options.backend.sessions.get(id);
    return s && canSeeOwner(s.userId, principal, this.options.access.authEnabled) ? s : undefined;
  }

  /**
   * Who a turn runs as: the user the credential speaks for. Without auth, the request's `userId`
   * labels the session. With auth on, an anonymous caller (on a path made public) speaks for nobody:
   * its `userId` is ignored, and an agent whose tools work on the caller's own data (memories, past
   * conversations) is refused, as the tool gateway refuses those tools.
   */
  private userOf(req: TurnRequest, agent: Runnable): string | undefined {
    const user = principalUser(req.principal);
    if (user !== undefined || !this.options.access.authEnabled) return user ?? req.userId;
    if (usesUserScopedTools(agent))
      throw new HttpError(
        401,
        'unauthorized',
        `Agent "${agent.name}" uses tools that work on the caller's own data (memories, past conversations): chatting with it needs a credential`,
        { headers: { 'www-authenticate': 'Bearer' } },
      );
    return undefined;
  }

  /** Resolves the agent and session and locks the session for one turn. */
  async begin(req: TurnRequest): Promise<ChatTurn> {
    const { access, backend, limiter } = this.options;
    const resolved = access.resolve(req.agent, req.principal);
    const agent = req.override ? req.override(resolved) : resolved;
    await limiter?.checkTokens(req.client);
    const userId = this.userOf(req, agent);
    if (backend.kind === 'store') return this.beginStored(agent, req, userId, backend.store);
    let session: ChatSession;
    const existing = req.sessionId !== undefined ? await backend.sessions.get(req.sessionId) : undefined;
    if (req.sessionId !== undefined && (existing !== undefined || !req.createSession)) {
      const found = existing && canSeeOwner(existing.userId, req.principal, this.options.access.authEnabled) ? existing : undefined;
      if (!found) throw unknownSession(req.sessionId);
      checkAgent(found.id, found.agent, agent.name);
      session = found;
    } else {
      session = await backend.sessions.create({ agent: agent.name, userId, id: req.sessionId });
    }
    this.lock(session.id);
    const conversation = new Conversation(agent, session.messages, { state: session.state, activeAgent: session.activeAgent });
    const executor: TurnExecutor = {
      run: (o) => conversation.run(req.message, o),
      stream: (o) => conversation.stream(req.message, o),
    };
    return this.turn(agent, session.id, req.client, executor, async (result) => {
      session.messages = conversation.messages;
      session.activeAgent = conversation.activeAgent === agent.name ? undefined : conversation.activeAgent;
      addUsage(session.usage, result.usage);
      await backend.sessions.save(session);
    });
  }

  private async beginStored(
    agent: Runnable,
    req: TurnRequest,
    userId: string | undefined,
    source: () => Promise<Store>,
  ): Promise<ChatTurn> {
    const store = await source();
    let id: string;
    let owner: string | undefined;
    const existing = req.sessionId !== undefined ? await store.sessions.get(req.sessionId) : undefined;
    if (req.sessionId !== undefined && (existing !== undefined || !req.createSession)) {
      const found = existing;
      if (!found || !canSeeOwner(found.userId, req.principal, this.options.access.authEnabled)) throw unknownSession(req.sessionId);
      checkAgent(found.id, found.agent, agent.name);
      id = found.id;
      owner = found.userId;
    } else {
      const init = userId === undefined ? { agent: agent.name } : { agent: agent.name, userId };
      const created =
        req.sessionId !== undefined ? await store.sessions.getOrCreate({ ...init, id: req.sessionId }) : await store.sessions.create(init);
      if (!canSeeOwner(created.userId, req.principal, this.options.access.authEnabled) || created.agent !== agent.name)
        throw unknownSession(req.sessionId!);
      id = created.id;
      owner = created.userId;
    }
    this.lock(id);
    const session = owner === undefined ? { id } : { id, userId: owner };
    const options = (o: RunOptions): RunOptions => ({ ...o, session, store: source });
    const executor: TurnExecutor =
      agent.kind === 'remote'
        ? {
            // Remote agents have no session support of their own: run them through the durable machinery.
            run: (o) => startRun(agent, req.message, { options: options(o) }),
            stream: (o) => startRunStream(agent, req.message, { options: options(o) }),
          }
        : { run: (o) => agent.run(req.message, options(o)), stream: (o) => agent.stream(req.message, options(o)) };
    return this.turn(agent, id, req.client, executor);
  }

  /**
   * A turn outside any session: `messages` are the whole conversation (the OpenAI-compatible API
   * without a named session). Nothing is kept after it; metrics, traces and token limits apply.
   */
  async beginStateless(
    req: Omit<TurnRequest, 'message' | 'sessionId' | 'createSession' | 'userId'> & { messages: Message[] },
  ): Promise<ChatTurn> {
    const agent = this.options.access.resolve(req.agent, req.principal);
    await this.options.limiter?.checkTokens(req.client);
    const key = `stateless:${newId()}`;
    this.lock(key);
    const executor: TurnExecutor = { run: (o) => agent.run(req.messages, o), stream: (o) => agent.stream(req.messages, o) };
    return this.turn(agent, key, req.client, executor);
  }

  /**
   * Locks the session of stored run `req.runId` and returns a turn that resumes it (after its
   * approvals were answered, or after an interruption).
   * @throws HttpError 404 for an unknown run or one of a session this principal may not see,
   * 409 for a completed run or a busy session.
   */
  async beginResume(req: ResumeRequest): Promise<{ turn: ChatTurn; run: RunRecord }> {
    const run = req.trusted
      ? await (await this.storeOrThrow()).checkpoints.getRun(req.runId)
      : await this.visibleRun(req.runId, req.principal);
    if (!run) throw new HttpError(404, 'run_not_found', `Unknown run "${req.runId.slice(0, 128)}"`);
    if (run.status === 'completed')
      throw new HttpError(409, 'run_completed', `Run "${run.runId}" has already completed; there is nothing to resume`);
    const { access } = this.options;
    const agent = req.trusted ? access.find(run.agent) : access.resolve(run.agent, req.principal);
    if (!agent)
      throw new HttpError(404, 'agent_not_found', `Run "${run.runId}" belongs to agent "${run.agent}", which this server no longer has`);
    if (agent.kind !== 'llm' || typeof (agent as Agent).resume !== 'function') {
      throw new HttpError(
        409,
        'run_not_resumable',
        `Run "${run.runId}" of ${agent.kind} agent "${agent.name}" cannot be resumed; send the message again`,
      );
    }
    await this.options.limiter?.checkTokens(req.client);
    const key = run.sessionId ?? run.runId;
    this.lock(key);
    const store = this.store!;
    const llm = agent as Agent;
    const executor: TurnExecutor = {
      run: (o) => llm.resume(run.runId, { ...o, store }),
      stream: (o) => llm.resumeStream(run.runId, { ...o, store }),
    };
    return { turn: this.turn(agent, key, req.client, executor), run };
  }

  /** The stored run if this principal may see it (through its session), else `undefined`. */
  async visibleRun(runId: string, principal: Principal): Promise<RunRecord | undefined> {
    const store = await this.storeOrThrow();
    const run = await store.checkpoints.getRun(runId);
    if (!run || !(await this.canSeeSessionOf(store, run.sessionId, principal))) return undefined;
    return run;
  }

  /**
   * Whether `principal` may see what belongs to session `sessionId` (runs, approvals): the rule
   * of the sessions endpoints. Runs outside a session are only visible without an identified user.
   */
  async canSeeSessionOf(store: Store, sessionId: string | undefined, principal: Principal, cache?: Map<string, boolean>): Promise<boolean> {
    const authEnabled = this.options.access.authEnabled;
    if (sessionId === undefined) return canSeeOwner(undefined, principal, authEnabled);
    const known = cache?.get(sessionId);
    if (known !== undefined) return known;
    const s = await store.sessions.get(sessionId);
    const ok = s !== undefined && canSeeOwner(s.userId, principal, authEnabled);
    cache?.set(sessionId, ok);
    return ok;
  }

  private storeOrThrow(): Promise<Store> {
    const source = this.store;
    if (!source) throw noStore();
    return source();
  }

  private lock(id: string): void {
    if (this.busy.has(id)) throw new HttpError(409, 'session_busy', `Session "${id}" is already running a turn; wait for it to finish`);
    this.busy.add(id);
  }

  /** A turn with metrics, tracing and token accounting; releases the lock when it ends. */
  private turn(
    agent: Runnable,
    sessionId: string,
    client: string,
    executor: TurnExecutor,
    save?: (result: RunResult) => Promise<void>,
  ): ChatTurn {
    const { metrics, tracing, limiter } = this.options;
    const labels = modelLabels(agent);
    const runTracer = tracing?.(labels, { 'corvid.session_id': sessionId });
    const { logger } = this.options;
    const cancel = new AbortController();
    const runIds: string[] = [];
    const onEvent: EventSink = (e) => {
      if (e.type === 'run_start' && e.path.length <= 1 && !this.running.has(e.runId)) {
        this.running.set(e.runId, cancel);
        runIds.push(e.runId);
      }
      metrics.event(e, labels);
      runTracer?.event(e);
      if (e.type === 'warning') logRunWarning(logger, e);
    };
    const settle = async (result: RunResult | undefined): Promise<void> => {
      runTracer?.endAll();
      try {
        if (result) {
          await limiter?.addTokens(client, result.usage.inputTokens + result.usage.outputTokens);
          await save?.(result);
        }
      } finally {
        this.busy.delete(sessionId);
        for (const id of runIds) this.running.delete(id);
      }
    };
    return new ChatTurn({ sessionId, agent, executor, onEvent, settle, cancel: cancel.signal });
  }
}

function unknownSession(id: string): HttpError {
  return new HttpError(404, 'session_not_found', `Unknown session "${id}" (omit sessionId to start a new one)`);
}

function checkAgent(id: string, owner: string, agent: string): void {
  if (owner !== agent) throw new HttpError(409, 'session_agent_mismatch', `Session "${id}" belongs to agent "${owner}", not "${agent}"`);
}

/** 404 for the endpoints of stored data (runs and approvals, memories) on a server without a store. */
export function noStore(what: 'runs' | 'memories' = 'runs'): HttpError {
  const [kept, purpose] = what === 'memories' ? ['memories', 'to keep them'] : ['runs or approvals', 'for durable runs'];
  return new HttpError(
    404,
    'no_store',
    `This server keeps no ${kept}: configure a storage: section (or pass a store to serve()) ${purpose}`,
  );
}
