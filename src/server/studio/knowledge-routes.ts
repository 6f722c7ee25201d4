import { existsSync } from 'node:fs';

import type { Hono } from 'hono';
import type { z } from 'zod';

import { HttpError } from '../../http/http-error.js';
import { readBodyText } from '../../http/read-body.js';
import type { KnowledgeIndexInfo } from '../../types/knowledge.js';
import { parseJsonBody, parseOr400 } from '../api/request-schemas.js';
import type { ServedRuntime } from '../app/served-runtime.js';
import type { ServerEnv } from '../app/server-env.js';
import { type knowledgeListSchema, knowledgeSearchSchema } from './studio-schemas.js';

type BaseView = z.output<typeof knowledgeListSchema>['bases'][number];

/** What the knowledge routes need. */
export interface KnowledgeRoutesOptions {
  runtime: () => ServedRuntime;
  maxBodyBytes: number;
}

function noKnowledge(): HttpError {
  return new HttpError(404, 'no_knowledge', 'This server has no knowledge bases: add a knowledge: section to the config');
}

/**
 * Registers `GET /api/v1/knowledge` (the config's knowledge bases: sources, embedder, index
 * stats) and `POST /api/v1/knowledge/{name}/search` `{ query, mode?, topK? }` (hits with their
 * scores, sources, locations and citations). A server whose config has no `knowledge:` answers
 * 404 `no_knowledge`. Knowledge bases are the server's, like its agents: any caller that may
 * reach the API may search them.
 */
export function registerKnowledgeRoutes(app: Hono<ServerEnv>, options: KnowledgeRoutesOptions): void {
  app.get('/api/v1/knowledge', async (c) => {
    const runtime = options.runtime();
    const knowledge = runtime.knowledge;
    const configured = runtime.config.knowledge;
    if (!knowledge || !configured) throw noKnowledge();
    const indexes = new Map<string, KnowledgeIndexInfo>();
    // Nothing to read (and no database file to create) before the first ingest; `location.exists` is as at start-up.
    const { path } = knowledge.location;
    if (path === 'memory' || existsSync(path)) for (const i of await (await knowledge.store()).listIndexes()) indexes.set(i.name, i);
    const bases = Object.entries(configured).map(([name, base]): BaseView => {
      const info = indexes.get(name);
      const view: BaseView = {
        name,
        sources: base.sources.map((s) => ({ ...s })),
        stats: { documents: info?.documents ?? 0, chunks: info?.chunks ?? 0 },
        indexed: info !== undefined,
      };
      if (base.embedder !== undefined) view.embedder = base.embedder;
      if (info?.embedder) {
        view.stats.dimensions = info.embedder.dimensions;
        view.stats.model = info.embedder.model;
      }
      if (info?.updatedAt) view.stats.updatedAt = info.updatedAt;
      return view;
    });
    return c.json({ bases });
  });

  app.post('/api/v1/knowledge/:name/search', async (c) => {
    const name = c.req.param('name');
    const text = await readBodyText(c, options.maxBodyBytes);
    const knowledge = options.runtime().knowledge;
    if (!knowledge) throw noKnowledge();
    const base = knowledge.get(name);
    if (!base) throw new HttpError(404, 'knowledge_not_found', `Unknown knowledge base "${name.slice(0, 100)}"`);
    const body = parseOr400(knowledgeSearchSchema, parseJsonBody(text), 'search request');
    const started = performance.now();
    const hits = await base.search(body.query, { mode: body.mode, topK: body.topK, signal: c.req.raw.signal });
    return c.json({
      hits: hits.map((h) => ({
        score: h.score,
        source: h.chunk.documentUri,
        location: { ...h.chunk.location },
        text: h.chunk.text,
        citation: h.citation,
      })),
      timings: { totalMs: Math.round((performance.now() - started) * 10) / 10 },
    });
  });
}
