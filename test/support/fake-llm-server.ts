/**
 * A fake LLM server for tests: one node:http server on 127.0.0.1 that answers the real wire
 * formats of
 *   - OpenAI Chat Completions   POST  …/chat/completions        (JSON, or SSE `data: {chunk}` … `data: [DONE]`)
 *   - OpenAI Responses          POST  …/responses               (JSON, or typed SSE events `response.*`)
 *   - Anthropic Messages        POST  …/messages                (JSON, or SSE `message_start` … `message_stop`)
 *   - Google Gemini             POST  …/models/{model}:generateContent | :streamGenerateContent?alt=sse
 *   - Ollama                    GET   /api/tags                 (model list; does not consume the script)
 * The OpenAI-compatible and Ollama providers speak Chat Completions, so they share that endpoint.
 *
 * Replies come from a script: an array consumed in order across all endpoints, or a function of
 * the request. Every request is recorded (method, path, headers, parsed JSON body) so tests can
 * assert on exactly what the client sent.
 *
 * The shapes follow the providers' documented responses and the AI SDK provider packages' own
 * response schemas (node_modules/@ai-sdk/{openai,anthropic,google,openai-compatible}/dist).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One scripted model reply. */
export interface FakeReply {
  text?: string;
  /** Reasoning / thinking text (OpenAI Responses summary, Anthropic thinking, Gemini thought, `reasoning_content` on chat). */
  reasoning?: string;
  /** Anthropic thinking signature (default `sig_<n>`); OpenAI Responses `encrypted_content` (default none). */
  reasoningSignature?: string;
  /** Tool calls; `arguments` is an object, or a raw string (sent verbatim, e.g. malformed JSON). */
  toolCalls?: Array<{
    name: string;
    arguments: unknown;
    id?: string;
    /** Gemini thoughtSignature on the functionCall part. */ thoughtSignature?: string;
  }>;
  usage?: {
    input?: number;
    output?: number;
    /** cached input tokens */ cachedInput?: number;
    /** reasoning tokens (subset of output) */ reasoning?: number;
  };
  /** An HTTP error status: the reply is `errorBody` (default: the provider's error JSON) with `headers`. */
  status?: number;
  headers?: Record<string, string>;
  /** Error body for `status` replies: an object is sent as JSON, a string verbatim. */
  errorBody?: unknown;
  /** Message inside the default error body. */
  errorMessage?: string;
  /** Streaming: destroy the socket after this many SSE events. Non-streaming (or 0): destroy it without answering. */
  cutAfterChunks?: number;
  /** Streaming: answer 200 with the SSE headers, then destroy the socket before the first event. */
  cutAfterHeaders?: boolean;
  /** Streaming: stop sending after this many SSE events but keep the connection open (a stalled stream). */
  stallAfterChunks?: number;
  /** Streaming: after this many SSE events, send the provider's in-stream error event (with `errorMessage`) and end. */
  errorAfterChunks?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Streaming: wait this long between SSE events (a model generating slowly). */
  chunkDelayMs?: number;
  /** Streaming: before the first event whose data contains `contains`, wait for `until` (a model that pauses mid-answer until the test lets it go on). */
  holdBefore?: { contains: string; until: Promise<void> };
  /** Chat Completions: the field carrying reasoning (`reasoning_content` as DeepSeek/vLLM, `reasoning` as Ollama). Default `reasoning_content`. */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** Override the finish / stop reason on the wire (e.g. `length`, `max_tokens`, `MAX_TOKENS`). */
  finishReason?: string;
}

/** One request the server received. */
export interface RecordedRequest {
  method: string;
  /** Path including the query string, e.g. `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (or the raw text when it is not JSON; undefined when empty). */
  body: any;
  /** Which API the path belongs to. */
  api: FakeApi;
  /** Whether the client asked for a streamed answer. */
  stream: boolean;
  /** Streaming: SSE events written so far. */
  eventsSent?: number;
  /** Set when the client closed the connection before the answer was complete (an aborted request). */
  clientClosedAt?: number;
}

export type FakeApi = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini' | 'ollama-tags' | 'unknown';

export interface FakeLlmServer {
  /** e.g. `http://127.0.0.1:PORT` (no trailing slash). */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface FakeLlmServerOptions {
  /** Models listed by `GET /api/tags`. Default `['llama3.2:latest']`. */
  ollamaModels?: string[];
}

export type FakeScript = FakeReply[] | ((req: RecordedRequest, index: number) => FakeReply);

/** Starts the fake server on 127.0.0.1 with a free port. */
export async function startFakeLlmServer(script: FakeScript, options: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let index = 0;
  let seq = 0;
  const nextId = () => ++seq;

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `fake-llm-server crashed: ${(err as Error).message}` } }));
      } else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => (timers.delete(t), resolve()), ms);
      timers.add(t);
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let body: any;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const path = req.url ?? '/';
    const api = apiOf(req.method ?? 'GET', path);
    const stream = api === 'gemini' ? path.includes(':streamGenerateContent') : body?.stream === true;
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path, headers: { ...req.headers }, body, api, stream };
    requests.push(recorded);

    if (api === 'ollama-tags') {
      const models = (options.ollamaModels ?? ['llama3.2:latest']).map((name) => ({
        name,
        model: name,
        modified_at: '2025-01-01T00:00:00.000Z',
        size: 2019393189,
        digest: 'a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72',
        details: {
          parent_model: '',
          format: 'gguf',
          family: 'llama',
          families: ['llama'],
          parameter_size: '3.2B',
          quantization_level: 'Q4_K_M',
        },
      }));
      return sendJson(res, 200, { models });
    }
    if (api === 'unknown') {
      return sendJson(res, 404, {
        error: { message: `fake-llm-server: no route for ${req.method} ${path}`, type: 'invalid_request_error' },
      });
    }

    let reply: FakeReply;
    const i = index++;
    if (typeof script === 'function') reply = script(recorded, i);
    else if (i < script.length) reply = script[i];
    else {
      // A 400 (not retried) that names the problem, so a test with too short a script fails clearly.
      return sendJson(res, 400, errorBodyFor(api, 400, `fake-llm-server: script exhausted (request #${i + 1}: ${req.method} ${path})`));
    }

    if (reply.delayMs) await wait(reply.delayMs);

    if (reply.status !== undefined && reply.status >= 400) {
      const errorBody = reply.errorBody ?? errorBodyFor(api, reply.status, reply.errorMessage);
      const text = typeof errorBody === 'string' ? errorBody : JSON.stringify(errorBody);
      res.writeHead(reply.status, {
        'content-type': typeof errorBody === 'string' ? 'text/plain' : 'application/json',
        ...reply.headers,
      });
      res.end(text);
      return;
    }

    if (!stream || reply.cutAfterChunks === 0) {
      if (reply.cutAfterChunks !== undefined) {
        req.socket.destroy();
        return;
      }
      const model = modelOf(api, path, body);
      const payload =
        api === 'openai-chat'
          ? chatJson(reply, model, nextId)
          : api === 'openai-responses'
            ? responsesJson(reply, model, nextId)
            : api === 'anthropic'
              ? anthropicJson(reply, model, nextId)
              : geminiJson(reply, model, nextId);
      res.writeHead(200, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(payload));
      return;
    }

    const model = modelOf(api, path, body);
    const events: SseEvent[] =
      api === 'openai-chat'
        ? chatEvents(reply, model, nextId, body?.stream_options?.include_usage === true)
        : api === 'openai-responses'
          ? responsesEvents(reply, model, nextId)
          : api === 'anthropic'
            ? anthropicEvents(reply, model, nextId)
            : geminiEvents(reply, model, nextId);
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...reply.headers,
    });
    res.flushHeaders();
    if (reply.cutAfterHeaders) {
      await new Promise<void>((resolve) => res.write('', () => resolve()));
      res.socket?.destroy();
      return;
    }
    const eol = api === 'gemini' ? '\r\n' : '\n';
    let sent = 0;
    res.on('close', () => {
      if (!res.writableFinished) recorded.clientClosedAt = Date.now();
    });
    for (const e of events) {
      if (reply.chunkDelayMs && sent > 0) {
        await wait(reply.chunkDelayMs);
        if (recorded.clientClosedAt !== undefined) return;
      }
      const hold = reply.holdBefore;
      if (hold && (typeof e.data === 'string' ? e.data : JSON.stringify(e.data)).includes(hold.contains)) {
        await hold.until;
        if (recorded.clientClosedAt !== undefined) return;
      }
      if (reply.cutAfterChunks !== undefined && sent >= reply.cutAfterChunks) {
        // Let what was written reach the client, then break the connection mid-stream.
        await new Promise<void>((resolve) => res.write('', () => resolve()));
        res.socket?.destroy();
        return;
      }
      if (reply.stallAfterChunks !== undefined && sent >= reply.stallAfterChunks) return; // left open until close()
      if (reply.errorAfterChunks !== undefined && sent >= reply.errorAfterChunks) {
        const err = streamErrorEvent(api, reply.errorMessage ?? 'Overloaded', sent);
        res.end(`${err.event ? `event: ${err.event}${eol}` : ''}data: ${JSON.stringify(err.data)}${eol}${eol}`);
        return;
      }
      const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
      res.write(`${e.event ? `event: ${e.event}${eol}` : ''}data: ${data}${eol}${eol}`);
      recorded.eventsSent = ++sent;
    }
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

// ---------------------------------------------------------------------------------------------
// Routing and helpers

function apiOf(method: string, path: string): FakeApi {
  const p = path.split('?')[0];
  if (method === 'GET' && p.endsWith('/api/tags')) return 'ollama-tags';
  if (method !== 'POST') return 'unknown';
  if (p.endsWith('/chat/completions')) return 'openai-chat';
  if (p.endsWith('/responses')) return 'openai-responses';
  if (p.endsWith('/messages')) return 'anthropic';
  if (/\/models\/[^/]+:(stream)?[gG]enerateContent$/.test(p)) return 'gemini';
  return 'unknown';
}

function modelOf(api: FakeApi, path: string, body: any): string {
  if (api === 'gemini') return /\/models\/([^/:]+):/.exec(path)?.[1] ?? 'gemini';
  return typeof body?.model === 'string' ? body.model : 'fake-model';
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

interface SseEvent {
  event?: string;
  data: unknown;
}

function argsText(args: unknown): string {
  return typeof args === 'string' ? args : JSON.stringify(args ?? {});
}

/** Splits a string into up to `n` pieces (streams deliver text in several deltas). */
function pieces(s: string, n = 3): string[] {
  if (s.length === 0) return [];
  const size = Math.max(1, Math.ceil(s.length / n));
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

const STATUS_TEXT: Record<number, { openai: string; anthropic: string; google: string; message: string }> = {
  400: { openai: 'invalid_request_error', anthropic: 'invalid_request_error', google: 'INVALID_ARGUMENT', message: 'Invalid request.' },
  401: {
    openai: 'invalid_request_error',
    anthropic: 'authentication_error',
    google: 'UNAUTHENTICATED',
    message: 'Incorrect API key provided.',
  },
  403: { openai: 'invalid_request_error', anthropic: 'permission_error', google: 'PERMISSION_DENIED', message: 'Permission denied.' },
  404: { openai: 'invalid_request_error', anthropic: 'not_found_error', google: 'NOT_FOUND', message: 'The model does not exist.' },
  429: {
    openai: 'requests',
    anthropic: 'rate_limit_error',
    google: 'RESOURCE_EXHAUSTED',
    message: 'Rate limit reached. Please try again later.',
  },
  500: {
    openai: 'server_error',
    anthropic: 'api_error',
    google: 'INTERNAL',
    message: 'The server had an error while processing your request.',
  },
  503: { openai: 'server_error', anthropic: 'overloaded_error', google: 'UNAVAILABLE', message: 'The service is overloaded.' },
  529: { openai: 'server_error', anthropic: 'overloaded_error', google: 'UNAVAILABLE', message: 'Overloaded.' },
};

/** The provider's own error JSON shape for an HTTP status. */
export function errorBodyFor(api: FakeApi, status: number, message?: string): unknown {
  const t = STATUS_TEXT[status] ?? STATUS_TEXT[status >= 500 ? 500 : 400];
  const msg = message ?? t.message;
  switch (api) {
    case 'anthropic':
      // https://docs.anthropic.com/en/api/errors
      return { type: 'error', error: { type: t.anthropic, message: msg }, request_id: 'req_fake' };
    case 'gemini':
      // google.rpc.Status
      return { error: { code: status, message: msg, status: t.google } };
    default: {
      // OpenAI (and OpenAI-compatible servers such as Ollama and vLLM)
      const code = status === 401 ? 'invalid_api_key' : status === 429 ? 'rate_limit_exceeded' : null;
      return { error: { message: msg, type: t.openai, param: null, code } };
    }
  }
}

/** The error a provider sends inside an already started (HTTP 200) stream. */
function streamErrorEvent(api: FakeApi, message: string, sequence: number): SseEvent {
  switch (api) {
    case 'anthropic':
      return { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message } } };
    case 'openai-responses':
      return { event: 'error', data: { type: 'error', sequence_number: sequence, code: 'server_error', message, param: null } };
    case 'gemini':
      return { data: { error: { code: 503, message, status: 'UNAVAILABLE' } } };
    default:
      return { data: { error: { message, type: 'server_error', param: null, code: null } } };
  }
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

// ---------------------------------------------------------------------------------------------
// OpenAI Chat Completions (also Ollama and other OpenAI-compatible servers)

function chatUsage(r: FakeReply) {
  const input = r.usage?.input ?? 10;
  const output = r.usage?.output ?? 5;
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    prompt_tokens_details: { cached_tokens: r.usage?.cachedInput ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: r.usage?.reasoning ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function chatFinish(r: FakeReply): string {
  return r.finishReason ?? (r.toolCalls?.length ? 'tool_calls' : 'stop');
}

function chatJson(r: FakeReply, model: string, nextId: () => number) {
  const n = nextId();
  const message: Record<string, unknown> = { role: 'assistant', content: r.text ?? null, refusal: null, annotations: [] };
  if (r.reasoning) message[r.reasoningField ?? 'reasoning_content'] = r.reasoning;
  if (r.toolCalls?.length) {
    message.tool_calls = r.toolCalls.map((c, i) => ({
      id: c.id ?? `call_${n}_${i}`,
      type: 'function',
      function: { name: c.name, arguments: argsText(c.arguments) },
    }));
  }
  return {
    id: `chatcmpl-${n}`,
    object: 'chat.completion',
    created: nowSeconds(),
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: chatFinish(r) }],
    usage: chatUsage(r),
    service_tier: 'default',
    system_fingerprint: 'fp_fake',
  };
}

function chatEvents(r: FakeReply, model: string, nextId: () => number, includeUsage: boolean): SseEvent[] {
  const n = nextId();
  const base = {
    id: `chatcmpl-${n}`,
    object: 'chat.completion.chunk',
    created: nowSeconds(),
    model,
    service_tier: 'default',
    system_fingerprint: 'fp_fake',
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    data: { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(includeUsage ? { usage: null } : {}) },
  });
  const out: SseEvent[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const p of pieces(r.reasoning ?? '')) out.push(chunk({ [r.reasoningField ?? 'reasoning_content']: p }));
  for (const p of pieces(r.text ?? '')) out.push(chunk({ content: p }));
  (r.toolCalls ?? []).forEach((c, i) => {
    const id = c.id ?? `call_${n}_${i}`;
    out.push(chunk({ tool_calls: [{ index: i, id, type: 'function', function: { name: c.name, arguments: '' } }] }));
    for (const p of pieces(argsText(c.arguments), 4)) out.push(chunk({ tool_calls: [{ index: i, function: { arguments: p } }] }));
  });
  out.push(chunk({}, chatFinish(r)));
  if (includeUsage) out.push({ data: { ...base, choices: [], usage: chatUsage(r) } });
  out.push({ data: '[DONE]' });
  return out;
}

// ---------------------------------------------------------------------------------------------
// OpenAI Responses

function responsesUsage(r: FakeReply) {
  const input = r.usage?.input ?? 10;
  const output = r.usage?.output ?? 5;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: r.usage?.cachedInput ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: r.usage?.reasoning ?? 0 },
    total_tokens: input + output,
  };
}

interface ResponsesItems {
  reasoning?: { type: 'reasoning'; id: string; summary: Array<{ type: 'summary_text'; text: string }>; encrypted_content?: string };
  message?: {
    type: 'message';
    id: string;
    status: 'completed';
    role: 'assistant';
    content: Array<{ type: 'output_text'; text: string; annotations: []; logprobs: [] }>;
  };
  calls: Array<{ type: 'function_call'; id: string; call_id: string; name: string; arguments: string; status: 'completed' }>;
}

function responsesItems(r: FakeReply, n: number): ResponsesItems {
  const items: ResponsesItems = { calls: [] };
  if (r.reasoning !== undefined) {
    items.reasoning = { type: 'reasoning', id: `rs_${n}`, summary: r.reasoning ? [{ type: 'summary_text', text: r.reasoning }] : [] };
    if (r.reasoningSignature) items.reasoning.encrypted_content = r.reasoningSignature;
  }
  if (r.text) {
    items.message = {
      type: 'message',
      id: `msg_${n}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: r.text, annotations: [], logprobs: [] }],
    };
  }
  (r.toolCalls ?? []).forEach((c, i) =>
    items.calls.push({
      type: 'function_call',
      id: `fc_${n}_${i}`,
      call_id: c.id ?? `call_${n}_${i}`,
      name: c.name,
      arguments: argsText(c.arguments),
      status: 'completed',
    }),
  );
  return items;
}

function responseObject(r: FakeReply, model: string, n: number, status: 'in_progress' | 'completed', output: unknown[]) {
  const incomplete = r.finishReason && r.finishReason !== 'stop' ? { reason: r.finishReason } : null;
  return {
    id: `resp_${n}`,
    object: 'response',
    created_at: nowSeconds(),
    status: status === 'completed' && incomplete ? 'incomplete' : status,
    error: null,
    incomplete_details: status === 'completed' ? incomplete : null,
    instructions: null,
    max_output_tokens: null,
    model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    store: true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: status === 'completed' ? responsesUsage(r) : null,
    metadata: {},
  };
}

function responsesJson(r: FakeReply, model: string, nextId: () => number) {
  const n = nextId();
  const items = responsesItems(r, n);
  const output = [items.reasoning, items.message, ...items.calls].filter(Boolean);
  return responseObject(r, model, n, 'completed', output);
}

function responsesEvents(r: FakeReply, model: string, nextId: () => number): SseEvent[] {
  const n = nextId();
  const items = responsesItems(r, n);
  const out: SseEvent[] = [];
  let sequence = 0;
  const ev = (type: string, data: Record<string, unknown>) =>
    out.push({ event: type, data: { type, sequence_number: sequence++, ...data } });
  const done: unknown[] = [];
  let outputIndex = 0;
  ev('response.created', { response: responseObject(r, model, n, 'in_progress', []) });
  ev('response.in_progress', { response: responseObject(r, model, n, 'in_progress', []) });
  if (items.reasoning) {
    const item = items.reasoning;
    const oi = outputIndex++;
    ev('response.output_item.added', { output_index: oi, item: { ...item, summary: [] } });
    item.summary.forEach((s, si) => {
      ev('response.reasoning_summary_part.added', {
        item_id: item.id,
        output_index: oi,
        summary_index: si,
        part: { type: 'summary_text', text: '' },
      });
      for (const p of pieces(s.text))
        ev('response.reasoning_summary_text.delta', { item_id: item.id, output_index: oi, summary_index: si, delta: p });
      ev('response.reasoning_summary_text.done', { item_id: item.id, output_index: oi, summary_index: si, text: s.text });
      ev('response.reasoning_summary_part.done', { item_id: item.id, output_index: oi, summary_index: si, part: s });
    });
    ev('response.output_item.done', { output_index: oi, item });
    done.push(item);
  }
  if (items.message) {
    const item = items.message;
    const oi = outputIndex++;
    const text = item.content[0].text;
    ev('response.output_item.added', { output_index: oi, item: { ...item, status: 'in_progress', content: [] } });
    ev('response.content_part.added', {
      item_id: item.id,
      output_index: oi,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
    });
    for (const p of pieces(text))
      ev('response.output_text.delta', { item_id: item.id, output_index: oi, content_index: 0, delta: p, logprobs: [] });
    ev('response.output_text.done', { item_id: item.id, output_index: oi, content_index: 0, text, logprobs: [] });
    ev('response.content_part.done', { item_id: item.id, output_index: oi, content_index: 0, part: item.content[0] });
    ev('response.output_item.done', { output_index: oi, item });
    done.push(item);
  }
  for (const item of items.calls) {
    const oi = outputIndex++;
    ev('response.output_item.added', { output_index: oi, item: { ...item, arguments: '', status: 'in_progress' } });
    for (const p of pieces(item.arguments, 4))
      ev('response.function_call_arguments.delta', { item_id: item.id, output_index: oi, delta: p });
    ev('response.function_call_arguments.done', { item_id: item.id, output_index: oi, arguments: item.arguments });
    ev('response.output_item.done', { output_index: oi, item });
    done.push(item);
  }
  const final = responseObject(r, model, n, 'completed', done);
  ev(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Anthropic Messages

function anthropicStop(r: FakeReply): string {
  return r.finishReason ?? (r.toolCalls?.length ? 'tool_use' : 'end_turn');
}

function anthropicToolInput(args: unknown): unknown {
  // The real API always sends a parsed object; a raw string is passed through for malformed-input tests.
  if (typeof args !== 'string') return args ?? {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function anthropicJson(r: FakeReply, model: string, nextId: () => number) {
  const n = nextId();
  const content: unknown[] = [];
  if (r.reasoning !== undefined) content.push({ type: 'thinking', thinking: r.reasoning, signature: r.reasoningSignature ?? `sig_${n}` });
  if (r.text) content.push({ type: 'text', text: r.text });
  (r.toolCalls ?? []).forEach((c, i) =>
    content.push({ type: 'tool_use', id: c.id ?? `toolu_${n}_${i}`, name: c.name, input: anthropicToolInput(c.arguments) }),
  );
  return {
    id: `msg_${n}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: anthropicStop(r),
    stop_sequence: null,
    usage: {
      input_tokens: r.usage?.input ?? 10,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: r.usage?.cachedInput ?? 0,
      output_tokens: r.usage?.output ?? 5,
      ...anthropicThinkingTokens(r),
      service_tier: 'standard',
    },
  };
}

/** Thinking tokens (newer API versions report `output_tokens_details.thinking_tokens`); only sent when scripted. */
function anthropicThinkingTokens(r: FakeReply) {
  return r.usage?.reasoning !== undefined ? { output_tokens_details: { thinking_tokens: r.usage.reasoning } } : {};
}

function anthropicEvents(r: FakeReply, model: string, nextId: () => number): SseEvent[] {
  const n = nextId();
  const out: SseEvent[] = [];
  const ev = (type: string, data: Record<string, unknown>) => out.push({ event: type, data: { type, ...data } });
  ev('message_start', {
    message: {
      id: `msg_${n}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: r.usage?.input ?? 10,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: r.usage?.cachedInput ?? 0,
        output_tokens: 1,
        service_tier: 'standard',
      },
    },
  });
  ev('ping', {});
  let index = 0;
  if (r.reasoning !== undefined) {
    const i = index++;
    ev('content_block_start', { index: i, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const p of pieces(r.reasoning)) ev('content_block_delta', { index: i, delta: { type: 'thinking_delta', thinking: p } });
    ev('content_block_delta', { index: i, delta: { type: 'signature_delta', signature: r.reasoningSignature ?? `sig_${n}` } });
    ev('content_block_stop', { index: i });
  }
  if (r.text) {
    const i = index++;
    ev('content_block_start', { index: i, content_block: { type: 'text', text: '' } });
    for (const p of pieces(r.text)) ev('content_block_delta', { index: i, delta: { type: 'text_delta', text: p } });
    ev('content_block_stop', { index: i });
  }
  (r.toolCalls ?? []).forEach((c, k) => {
    const i = index++;
    ev('content_block_start', { index: i, content_block: { type: 'tool_use', id: c.id ?? `toolu_${n}_${k}`, name: c.name, input: {} } });
    ev('content_block_delta', { index: i, delta: { type: 'input_json_delta', partial_json: '' } });
    for (const p of pieces(argsText(c.arguments), 4))
      ev('content_block_delta', { index: i, delta: { type: 'input_json_delta', partial_json: p } });
    ev('content_block_stop', { index: i });
  });
  ev('message_delta', {
    delta: { stop_reason: anthropicStop(r), stop_sequence: null },
    usage: { output_tokens: r.usage?.output ?? 5, ...anthropicThinkingTokens(r) },
  });
  ev('message_stop', {});
  return out;
}

// ---------------------------------------------------------------------------------------------
// Google Gemini (generativelanguage.googleapis.com/v1beta)

function geminiUsage(r: FakeReply) {
  const input = r.usage?.input ?? 10;
  const output = r.usage?.output ?? 5;
  const thoughts = r.usage?.reasoning ?? 0;
  // Gemini reports thoughts separately from candidates; totalTokenCount includes both.
  const usage: Record<string, unknown> = {
    promptTokenCount: input,
    candidatesTokenCount: output - thoughts,
    totalTokenCount: input + output,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: input }],
  };
  if (thoughts) usage.thoughtsTokenCount = thoughts;
  if (r.usage?.cachedInput) usage.cachedContentTokenCount = r.usage.cachedInput;
  return usage;
}

function geminiArgs(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function geminiParts(r: FakeReply): unknown[] {
  const parts: unknown[] = [];
  if (r.reasoning) parts.push({ text: r.reasoning, thought: true });
  if (r.text) parts.push({ text: r.text });
  for (const c of r.toolCalls ?? []) {
    const part: Record<string, unknown> = { functionCall: { name: c.name, args: geminiArgs(c.arguments), ...(c.id ? { id: c.id } : {}) } };
    if (c.thoughtSignature) part.thoughtSignature = c.thoughtSignature;
    parts.push(part);
  }
  return parts;
}

function geminiJson(r: FakeReply, model: string, nextId: () => number) {
  const n = nextId();
  return {
    candidates: [{ content: { parts: geminiParts(r), role: 'model' }, finishReason: r.finishReason ?? 'STOP', index: 0 }],
    usageMetadata: geminiUsage(r),
    modelVersion: model,
    responseId: `resp_${n}`,
  };
}

function geminiEvents(r: FakeReply, model: string, nextId: () => number): SseEvent[] {
  const n = nextId();
  const out: SseEvent[] = [];
  const chunk = (parts: unknown[], last: boolean) =>
    out.push({
      data: {
        candidates: [{ content: { parts, role: 'model' }, ...(last ? { finishReason: r.finishReason ?? 'STOP' } : {}), index: 0 }],
        usageMetadata: last ? geminiUsage(r) : { promptTokenCount: r.usage?.input ?? 10, totalTokenCount: r.usage?.input ?? 10 },
        modelVersion: model,
        responseId: `resp_${n}`,
      },
    });
  const all: unknown[][] = [];
  for (const p of pieces(r.reasoning ?? '')) all.push([{ text: p, thought: true }]);
  for (const p of pieces(r.text ?? '')) all.push([{ text: p }]);
  // Gemini sends each function call whole, in one chunk.
  const calls = geminiParts({ toolCalls: r.toolCalls });
  if (calls.length) all.push(calls);
  if (all.length === 0) all.push([{ text: '' }]);
  all.forEach((parts, i) => chunk(parts, i === all.length - 1));
  return out;
}
