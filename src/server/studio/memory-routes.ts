import type { Context, Hono } from 'hono';
import type { z } from 'zod';

import { HttpError } from '../../http/http-error.js';
import { readBodyText } from '../../http/read-body.js';
import type { Memory, MemoryScope } from '../../types/storage/memories.js';
import type { Store } from '../../types/storage/store.js';
import { parseJsonBody, parseOr400 } from '../api/request-schemas.js';
import type { ServerEnv } from '../app/server-env.js';
import type { AgentAccess } from '../auth/agent-access.js';
import { principalUser } from '../auth/principal.js';
import { type ChatService, noStore } from '../chat/chat-service.js';
import { listMemoriesQuerySchema, type memorySchema, memoryScopeQuerySchema, updateMemorySchema } from './studio-schemas.js';

type MemoryView = z.output<typeof memorySchema>;

/** What the memory routes need. */
export interface MemoryRoutesOptions {
  chat: ChatService;
  access: AgentAccess;
  defaultAgent: () => string;
  maxBodyBytes: number;
}

function memoryView(m: Memory, scope: MemoryScope, score?: number): MemoryView {
  const view: MemoryView = {
    id: m.key,
    userId: scope.userId,
    agent: scope.agent,
    text: m.value,
    tags: m.tags,
    importance: m.importance,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
  if (m.category !== undefined) view.category = m.category;
  if (score !== undefined) view.score = score;
  return view;
}

/**
 * Registers the long-term memory routes (servers with a store): `GET /api/v1/memories?q=&userId=&agent=&limit=`,
 * `PUT /api/v1/memories/{id}` `{ text }` and `DELETE /api/v1/memories/{id}`. Memories belong to
 * one user of one agent (`agent`: default the default agent); `id` is a memory's key. With auth
 * on, a caller reaches only its own memories (the user it speaks for; `userId` is ignored);
 * without auth, those of `userId` (default `default`, as `corvid memories`).
 */
export function registerMemoryRoutes(app: Hono<ServerEnv>, options: MemoryRoutesOptions): void {
  const { chat, access } = options;
  const storeOf = async (): Promise<Store> => {
    const source = chat.store;
    if (!source) throw noStore('memories');
    return source();
  };
  const scopeOf = (c: Context<ServerEnv>, q: { userId?: string; agent?: string }): MemoryScope => {
    const principal = c.get('principal');
    const agent = q.agent ?? options.defaultAgent();
    // The agent must be one the caller may use (the same 404 as the agent routes).
    access.resolve(agent, principal);
    const user = principalUser(principal);
    if (user === undefined && access.authEnabled)
      throw new HttpError(401, 'unauthorized', 'Memories belong to users: send a credential to reach yours', {
        headers: { 'www-authenticate': 'Bearer' },
      });
    return { userId: user ?? q.userId ?? 'default', agent };
  };
  const key = (c: Context<ServerEnv>): string => {
    const k = c.req.param('id') ?? '';
    if (k === '' || k.length > 255) throw new HttpError(404, 'memory_not_found', `Unknown memory "${k.slice(0, 100)}"`);
    return k;
  };

  app.get('/api/v1/memories', async (c) => {
    const q = parseOr400(listMemoriesQuerySchema, c.req.query(), 'query');
    const scope = scopeOf(c, q);
    const store = await storeOf();
    const limit = q.limit ?? 100;
    if (q.q !== undefined) {
      const hits = await store.memories.search(scope, q.q, { limit });
      return c.json({ memories: hits.map((h) => memoryView(h.memory, scope, h.score)) });
    }
    return c.json({ memories: (await store.memories.list(scope, { limit })).map((m) => memoryView(m, scope)) });
  });

  app.put('/api/v1/memories/:id', async (c) => {
    const id = key(c);
    const text = await readBodyText(c, options.maxBodyBytes);
    const scope = scopeOf(c, parseOr400(memoryScopeQuerySchema, c.req.query(), 'query'));
    const body = parseOr400(updateMemorySchema, parseJsonBody(text), 'memory update');
    const store = await storeOf();
    const old = await store.memories.get(scope, id);
    if (old === undefined)
      throw new HttpError(404, 'memory_not_found', `Unknown memory "${id}" of user "${scope.userId}", agent "${scope.agent}"`);
    const saved = await store.memories.save(scope, {
      key: id,
      value: body.text,
      category: old.category,
      tags: old.tags,
      importance: old.importance,
    });
    return c.json(memoryView(saved, scope));
  });

  app.delete('/api/v1/memories/:id', async (c) => {
    const id = key(c);
    const scope = scopeOf(c, parseOr400(memoryScopeQuerySchema, c.req.query(), 'query'));
    const store = await storeOf();
    if (!(await store.memories.delete(scope, id)))
      throw new HttpError(404, 'memory_not_found', `Unknown memory "${id}" of user "${scope.userId}", agent "${scope.agent}"`);
    return c.body(null, 204);
  });
}
