import type { Hono } from 'hono';

import { HttpError } from '../../http/http-error.js';
import { readBodyText } from '../../http/read-body.js';
import { parseJsonBody, parseOr400, SESSION_ID } from '../api/request-schemas.js';
import type { ServerEnv } from '../app/server-env.js';
import type { ChatService } from '../chat/chat-service.js';
import { exportSessionQuerySchema, renameSessionSchema } from '../studio/studio-schemas.js';
import type { SessionDirectory } from './chat-sessions.js';
import { summarize } from './chat-sessions.js';
import { exportSession } from './session-export.js';

/** What the session routes need. */
export interface SessionRoutesOptions {
  chat: ChatService;
  sessions: SessionDirectory;
  maxBodyBytes: number;
}

function sessionIdParam(id: string): string {
  if (!SESSION_ID.test(id)) throw new HttpError(404, 'session_not_found', `Unknown session "${id.slice(0, 128)}"`);
  return id;
}

/**
 * Registers `PATCH /api/v1/sessions/{id}` `{ title }` (rename; `''` removes the title) and
 * `GET /api/v1/sessions/{id}/export?format=json|markdown` (a download). A caller reaches the
 * sessions it may see, as on the other session routes.
 */
export function registerSessionRoutes(app: Hono<ServerEnv>, options: SessionRoutesOptions): void {
  const { chat, sessions } = options;
  const visible = async (id: string, principal: Parameters<ChatService['session']>[1]) => {
    const s = await chat.session(id, principal);
    if (!s) throw new HttpError(404, 'session_not_found', `Unknown session "${id}"`);
    return s;
  };

  app.patch('/api/v1/sessions/:id', async (c) => {
    const id = sessionIdParam(c.req.param('id'));
    const text = await readBodyText(c, options.maxBodyBytes);
    await visible(id, c.get('principal'));
    const body = parseOr400(renameSessionSchema, parseJsonBody(text), 'session update');
    if (!(await sessions.rename(id, body.title.trim()))) throw new HttpError(404, 'session_not_found', `Unknown session "${id}"`);
    return c.json(summarize(await visible(id, c.get('principal'))));
  });

  app.get('/api/v1/sessions/:id/export', async (c) => {
    const id = sessionIdParam(c.req.param('id'));
    const q = parseOr400(exportSessionQuerySchema, c.req.query(), 'query');
    const out = exportSession(await visible(id, c.get('principal')), q.format ?? 'json');
    return c.body(out.body, 200, {
      'content-type': out.contentType,
      'content-disposition': `attachment; filename="${out.filename}"`,
    });
  });
}
