import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import type { UpgradeWebSocket, WSContext } from 'hono/ws';
import type { RunStream } from '../core/run-stream.js';
import type { ApprovalDecision } from '../durable/durable-types.js';
import { errorResponse } from './error-response.js';
import { HttpError } from '../http/http-error.js';
import { answerApproval } from './approval-routes.js';
import type { ChatTurn } from './chat-turn.js';
import { invalid, RECORD_ID, wsClientMessageSchema } from './request-schemas.js';
import { doneEvent, failedEvent } from './turn-response.js';
import type { ServerAppParts } from './create-server-app.js';
import type { ServerEnv } from './server-env.js';

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
  const { chat, access, metrics, limiter, server, maxBodyBytes } = parts;
  app.get(
    '/api/v1/agents/:name/ws',
    async (c, next) => {
      access.resolve(c.req.param('name'), c.get('principal'));
      if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') throw new HttpError(400, 'upgrade_required', 'This endpoint speaks WebSocket: send "Upgrade: websocket"');
      await next();
    },
    upgradeWebSocket((c) => {
      const agent = c.req.param('name')!;
      const principal = c.get('principal');
      const client = c.get('client');
      const log = c.get('log');
      let run: RunStream | undefined;
      let open = true;
      let closeStream: (() => void) | undefined;
      const pending = new Map<string, (d: ApprovalDecision) => void>();

      const send = (ws: WSContext<unknown>, value: unknown): void => {
        if (open) ws.send(JSON.stringify(value));
      };
      const fail = (ws: WSContext<unknown>, err: unknown): void => {
        const r = errorResponse(err);
        if (r.serverFault) log.error({ err }, 'websocket turn failed');
        send(ws, { type: 'error', error: r.body.error });
      };

      /** Streams turn `t`; `inline`: approvals are asked on this socket (else a stored run pauses for them). */
      const turn = async (ws: WSContext<unknown>, t: ChatTurn, inline = true): Promise<void> => {
        send(ws, { type: 'session', sessionId: t.sessionId, agent: t.agent.name });
        const onApproval = (req: { toolCallId: string; toolName: string; input: unknown; prompt: string }) =>
          new Promise<ApprovalDecision>((resolve) => {
            if (!open) return resolve({ approved: false, reason: 'the client disconnected' });
            const approvalId = randomUUID();
            pending.set(approvalId, resolve);
            send(ws, { type: 'approval_required', approvalId, toolCallId: req.toolCallId, toolName: req.toolName, input: req.input, prompt: req.prompt });
          });
        const s = t.stream(undefined, inline ? { onApproval } : undefined);
        run = s;
        try {
          for await (const e of s) send(ws, e);
          const end = await s.result.then(
            (r) => ({ type: 'done', ...doneEvent(r, t.sessionId) }),
            (err: { code?: string; message?: string }) => ({ type: 'done', ...failedEvent(err, t.sessionId) }),
          );
          send(ws, end);
        } finally {
          run = undefined;
        }
      };

      return {
        onOpen() {
          closeStream = metrics.streamOpened();
        },
        onMessage(event, ws) {
          void (async () => {
            try {
              const raw = typeof event.data === 'string' ? event.data : undefined;
              if (raw === undefined) throw new HttpError(400, 'invalid_message', 'Send JSON text messages');
              // serve() has ws refuse larger frames before buffering them; this holds with any other server.
              if (raw.length > maxBodyBytes) throw new HttpError(413, 'payload_too_large', `Messages are limited to ${maxBodyBytes} bytes (server.max_body_bytes)`);
              let data: unknown;
              try {
                data = JSON.parse(raw);
              } catch {
                throw new HttpError(400, 'invalid_json', 'The message is not valid JSON');
              }
              const parsed = wsClientMessageSchema.safeParse(data);
              if (!parsed.success) throw invalid(parsed.error, 'message');
              const m = parsed.data;
              switch (m.type) {
                case 'message':
                  if (run) throw new HttpError(409, 'turn_running', 'A turn is running; wait for "done" or send {"type":"cancel"}');
                  await limiter?.hit(client);
                  await turn(ws, await chat.begin({ agent, message: m.message, sessionId: m.sessionId, userId: m.userId, principal, client }));
                  return;
                case 'approval': {
                  const answer = m.reason === undefined ? { approved: m.approved } : { approved: m.approved, reason: m.reason };
                  const resolve = pending.get(m.approvalId);
                  if (resolve) {
                    pending.delete(m.approvalId);
                    resolve(answer);
                    return;
                  }
                  // Not asked on this socket: a stored approval (of a paused run), answered by id.
                  if (!chat.store || !RECORD_ID.test(m.approvalId)) throw new HttpError(404, 'approval_not_found', `No pending approval "${m.approvalId.slice(0, 128)}"`);
                  if (run) throw new HttpError(409, 'turn_running', 'A turn is running; answer stored approvals once it is done');
                  await limiter?.hit(client);
                  const outcome = await answerApproval(chat, { approvalId: m.approvalId, principal, client, answer });
                  if (outcome.kind === 'waiting') send(ws, { type: 'done', ...outcome.body });
                  // An in-process handler would take precedence over the stored answer: the resumed run asks through the store.
                  else await turn(ws, outcome.turn, false);
                  return;
                }
                case 'cancel':
                  if (!run) throw new HttpError(409, 'no_turn', 'No turn is running');
                  run.abort('cancelled by the client');
                  return;
                default: {
                  const never: never = m;
                  return never;
                }
              }
            } catch (err) {
              fail(ws, err);
            }
          })();
        },
        onClose() {
          open = false;
          closeStream?.();
          for (const resolve of pending.values()) resolve({ approved: false, reason: 'the client disconnected' });
          pending.clear();
          if (run && (server.streams?.onDisconnect ?? (parts.chat.store ? 'continue' : 'stop')) === 'stop') run.abort('the client disconnected');
        },
        onError() {
          open = false;
        },
      };
    }),
  );
}
