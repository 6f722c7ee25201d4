/**
 * A local stand-in for OpenAI's `POST /v1/embeddings` on 127.0.0.1: deterministic hashed
 * bag-of-words vectors (texts sharing words get close vectors), every request recorded, and
 * optional scripted failures (status codes answered before the real answers).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_DIMENSIONS = 64;

/**
 * The vector the fake server gives a text: word counts hashed into 64 buckets, unit length.
 * `synonyms` maps a word to the one it is counted as (so a paraphrase lands near the original).
 */
export function bagOfWordsVector(text: string, dimensions = FAKE_DIMENSIONS, synonyms: Record<string, string> = {}): number[] {
  const v = new Array<number>(dimensions).fill(0);
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const word = synonyms[raw] ?? raw;
    let h = 2166136261;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
    v[(h >>> 0) % dimensions] += 1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

export interface FakeEmbeddingsServer {
  baseURL: string;
  /** Bodies of the requests answered with embeddings, in order. */
  requests: Array<{ model: string; input: string[] }>;
  /** Statuses to answer with, one per coming request, before answering normally. */
  failNext: number[];
  /** Every request received, failed ones included. */
  received: number;
  /** Most requests in progress at once. */
  maxInFlight: number;
  /** Time each answer takes, in ms (to observe concurrency). */
  latencyMs: number;
  close(): Promise<void>;
}

export async function startFakeEmbeddingsServer(options: { synonyms?: Record<string, string> } = {}): Promise<FakeEmbeddingsServer> {
  const state = {
    requests: [] as FakeEmbeddingsServer['requests'],
    failNext: [] as number[],
    received: 0,
    inFlight: 0,
    maxInFlight: 0,
    latencyMs: 0,
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    res.on('finish', () => state.inFlight--);
    req.on('end', () => setTimeout(() => answer(), state.latencyMs));
    const answer = (): void => {
      state.received++;
      const fail = state.failNext.shift();
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      if (fail) {
        res
          .writeHead(fail, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `scripted ${fail}`, type: 'server_error' } }));
        return;
      }
      const parsed = JSON.parse(body) as { model: string; input: string | string[] };
      const input = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
      state.requests.push({ model: parsed.model, input });
      const data = input.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: bagOfWordsVector(text, FAKE_DIMENSIONS, options.synonyms),
      }));
      const tokens = input.reduce((n, t) => n + t.split(/\s+/).length, 0);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data, model: parsed.model, usage: { prompt_tokens: tokens, total_tokens: tokens } }));
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests: state.requests,
    get failNext() {
      return state.failNext;
    },
    set failNext(v: number[]) {
      state.failNext = v;
    },
    get received() {
      return state.received;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    set maxInFlight(v: number) {
      state.maxInFlight = v;
    },
    get latencyMs() {
      return state.latencyMs;
    },
    set latencyMs(v: number) {
      state.latencyMs = v;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
