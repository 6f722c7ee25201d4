import { randomUUID } from 'node:crypto';

import type { Hono } from 'hono';
import type { UpgradeWebSocket, WSContext } from 'hono/ws';
import type { Logger } from 'pino';

import { reportRejection } from '../../core/report-rejection.js';
import type { RunStream } from '../../core/run-stream.js';
import { HttpError } from '../../http/http-error.js';
import type { ApprovalDecision } from '../../types/durable-options.js';
import { invalid, RECORD_ID, type WsClientMessage, wsClientMessageSchema } from '../api/request-schemas.js';
import type { ServerAppParts } from '../app/create-server-app.js';
import { errorResponse } from '../app/error-response.js';
import type { ServerEnv } from '../app/server-env.js';
import { answerApproval } from '../approvals/approval-routes.js';
import type { Principal } from '../auth/principal.js';
import type { ChatTurn } from './chat-turn.js';
import { doneEvent, failedEvent } from './turn-response.js';

/**
 * `GET /api/v1/agents/{name}/ws`: an interactive session. The client sends
 * `{type:'message', message, sessionId?}`, `{type:'approval', approvalId, approved, reason?}` or
 * `{type:'cancel'}`; the server answers `{type:'session', sessionId}`, then each run event as
 * JSON, then `{type:'done', …}`. Tools that need approval send
 * `{type:'approval_required', approvalId, toolName, input, prompt}` and wait for the answer
 * (inline: the run does not pause). With a store, an `approval` message naming a stored approval
 * (of a run paused over HTTP) answers it and streams the resumed run on this socket.
 * Problems are `{type:'error', error:{code, message}}`; the socket stays open. The upgrade
 * request goes through the server's middleware first: authentication, and the `Origin` check of
 * `RequestGuards` (a foreign origin gets 403 before the socket opens). A message over the body
 * limit (`ServerAppParts.maxBodyBytes`) closes the socket with 1009 under `serve()`.
 */
export function registerWebSocketRoute(app: Hono<ServerEnv>, parts: ServerAppParts, upgradeWebSocket: UpgradeWebSocket<unknown>): void {
  app.get(
    '/api/v1/agents/:name/ws',
    async (c, next) => {
      parts.access.resolve(c.req.param('name'), c.get('principal'));
      if (c.req.header('upgrade')?.toLowerCase() !== 'websocket')
        throw new HttpError(400, 'upgrade_required', 'This endpoint speaks WebSocket: send "Upgrade: websocket"');
      await next();
    },
    upgradeWebSocket((c) => {
      const session = new WsChatSession(parts, {
        agent: c.req.param('name')!,
        principal: c.get('principal'),
        client: c.get('client'),
        log: c.get('log'),
      });
      return {
        onOpen: () => session.opened(),
        onMessage: (event, ws) =>
          void session.receive(ws, event.data).catch(reportRejection('a websocket message', (m) => c.get('log').error(m))),
        onClose: () => session.closed(),
        onError: () => session.failed(),
      };
    }),
  );
}

type WsClientMessageOf<T extends WsClientMessage['type']> = Extract<WsClientMessage, { type: T }>;

/** One socket's session: the turn running on it, the approvals it was asked, and whether it is open. */
class WsChatSession {
  private run: RunStream | undefined;
  private open = true;
  private closeStream: (() => void) | undefined;
  private readonly pending = new Map<string, (d: ApprovalDecision) => void>();

  constructor(
    private readonly parts: ServerAppParts,
    private readonly caller: { agent: string; principal: Principal; client: string; log: Logger },
  ) {}

  opened(): void {
    this.closeStream = this.parts.metrics.streamOpened();
  }

  /** Handles a client message; problems are answered as `{type:'error'}` and the socket stays open. */
  async receive(ws: WSContext<unknown>, data: unknown): Promise<void> {
    try {
      const m = this.parse(data);
      switch (m.type) {
        case 'message':
          return await this.message(ws, m);
        case 'approval':
          return await this.approval(ws, m);
        case 'cancel':
          if (!this.run) throw new HttpError(409, 'no_turn', 'No turn is running');
          this.run.abort('cancelled by the client');
          return;
        default: {
          const never: never = m;
          return never;
        }
      }
    } catch (err) {
      this.fail(ws, err);
    }
  }

  closed(): void {
    this.open = false;
    this.closeStream?.();
    for (const resolve of this.pending.values()) resolve({ approved: false, reason: 'the client disconnected' });
    this.pending.clear();
    const { server, chat } = this.parts;
    if (this.run && (server.streams?.onDisconnect ?? (chat.store ? 'continue' : 'stop')) === 'stop')
      this.run.abort('the client disconnected');
  }

  failed(): void {
    this.open = false;
  }

  private parse(data: unknown): WsClientMessage {
    const maxBodyBytes = this.parts.maxBodyBytes;
    const raw = typeof data === 'string' ? data : undefined;
    if (raw === undefined) throw new HttpError(400, 'invalid_message', 'Send JSON text messages');
    // serve() has ws refuse larger frames before buffering them; this holds with any other server.
    if (raw.length > maxBodyBytes)
      throw new HttpError(413, 'payload_too_large', `Messages are limited to ${maxBodyBytes} bytes (server.max_body_bytes)`);
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new HttpError(400, 'invalid_json', 'The message is not valid JSON');
    }
    const parsed = wsClientMessageSchema.safeParse(json);
    if (!parsed.success) throw invalid(parsed.error, 'message');
    return parsed.data;
  }

  private async message(ws: WSContext<unknown>, m: WsClientMessageOf<'message'>): Promise<void> {
    if (this.run) throw new HttpError(409, 'turn_running', 'A turn is running; wait for "done" or send {"type":"cancel"}');
    const { agent, principal, client } = this.caller;
    await this.parts.limiter?.hit(client);
    await this.turn(
      ws,
      await this.parts.chat.begin({ agent, message: m.message, sessionId: m.sessionId, userId: m.userId, principal, client }),
    );
  }

  private async approval(ws: WSContext<unknown>, m: WsClientMessageOf<'approval'>): Promise<void> {
    const answer = m.reason === undefined ? { approved: m.approved } : { approved: m.approved, reason: m.reason };
    const resolve = this.pending.get(m.approvalId);
    if (resolve) {
      this.pending.delete(m.approvalId);
      resolve(answer);
      return;
    }
    // Not asked on this socket: a stored approval (of a paused run), answered by id.
    const { chat, limiter } = this.parts;
    if (!chat.store || !RECORD_ID.test(m.approvalId))
      throw new HttpError(404, 'approval_not_found', `No pending approval "${m.approvalId.slice(0, 128)}"`);
    if (this.run) throw new HttpError(409, 'turn_running', 'A turn is running; answer stored approvals once it is done');
    const { principal, client } = this.caller;
    await limiter?.hit(client);
    const outcome = await answerApproval(chat, { approvalId: m.approvalId, principal, client, answer, runs: this.parts.runtime().runs });
    if (outcome.kind === 'waiting' || outcome.kind === 'queued') this.send(ws, { type: 'done', ...outcome.body });
    // An in-process handler would take precedence over the stored answer: the resumed run asks through the store.
    else await this.turn(ws, outcome.turn, false);
  }

  private send(ws: WSContext<unknown>, value: unknown): void {
    if (this.open) ws.send(JSON.stringify(value));
  }

  private fail(ws: WSContext<unknown>, err: unknown): void {
    const r = errorResponse(err);
    if (r.serverFault) this.caller.log.error({ err }, 'websocket turn failed');
    this.send(ws, { type: 'error', error: r.body.error });
  }

  /** Asks the client to approve a tool call (inline approvals); a closed socket denies. */
  private ask(
    ws: WSContext<unknown>,
    req: { toolCallId: string; toolName: string; input: unknown; prompt: string },
  ): Promise<ApprovalDecision> {
    return new Promise<ApprovalDecision>((resolve) => {
      if (!this.open) return resolve({ approved: false, reason: 'the client disconnected' });
      const approvalId = randomUUID();
      this.pending.set(approvalId, resolve);
      this.send(ws, {
        type: 'approval_required',
        approvalId,
        toolCallId: req.toolCallId,
        toolName: req.toolName,
        input: req.input,
        prompt: req.prompt,
      });
    });
  }

  /** Streams turn `t`; `inline`: approvals are asked on this socket (else a stored run pauses for them). */
  private async turn(ws: WSContext<unknown>, t: ChatTurn, inline = true): Promise<void> {
    this.send(ws, { type: 'session', sessionId: t.sessionId, agent: t.agent.name });
    const s = t.stream(undefined, inline ? { onApproval: (req) => this.ask(ws, req) } : undefined);
    this.run = s;
    try {
      for await (const e of s) this.send(ws, e);
      const end = await s.result.then(
        (r) => ({ type: 'done', ...doneEvent(r, t.sessionId) }),
        (err: { code?: string; message?: string }) => ({ type: 'done', ...failedEvent(err, t.sessionId) }),
      );
      this.send(ws, end);
    } finally {
      this.run = undefined;
    }
  }
}
