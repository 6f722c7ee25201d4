/**
 * Helpers for the server tests: real servers on 127.0.0.1 (port 0), a log sink that keeps
 * pino's JSON lines, SSE parsing, and a gate to hold a scripted model mid-run.
 */
import { Writable } from 'node:stream';

import type { Runnable } from '../../src/core/runnable.js';
import { Agent } from '../../src/index.js';
import { type RunningServer, serve, type ServeOptions } from '../../src/server/app/serve.js';
import { ScriptedModel, type ScriptedTurn } from '../../src/testing/index.js';

/** Collects JSON log lines and lets tests await one. */
export class LogSink extends Writable {
  readonly lines: Array<Record<string, unknown>> = [];
  raw = '';
  private waiters = new Set<() => void>();

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void): void {
    const text = chunk.toString('utf8');
    this.raw += text;
    for (const line of text.split('\n')) if (line.trim()) this.lines.push(JSON.parse(line) as Record<string, unknown>);
    for (const w of [...this.waiters]) w();
    cb();
  }

  /** Resolves with the first line matching `pred` (already written or coming). */
  waitFor(pred: (l: Record<string, unknown>) => boolean, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = this.lines.find(pred);
        if (!hit) return false;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(hit);
        return true;
      };
      const timer = setTimeout(
        () => (this.waiters.delete(check), reject(new Error(`log line not seen; got:\n${this.raw.slice(-3000)}`))),
        timeoutMs,
      );
      if (!check()) this.waiters.add(check);
    });
  }
}

/** An agent answering `text` (or per-call turns) with a scripted model. */
export function scriptedAgent(
  name: string,
  turn: ScriptedTurn | ((input: string, i: number) => ScriptedTurn | Promise<ScriptedTurn>) = {
    text: 'hello',
    usage: { inputTokens: 3, outputTokens: 2 },
  },
  extra: Partial<ConstructorParameters<typeof Agent>[0]> = {},
): Agent {
  const model = new ScriptedModel(
    async (call, i) => {
      if (typeof turn !== 'function') return turn;
      const last = [...call.prompt].reverse().find((m) => m.role === 'user');
      const text = last && Array.isArray(last.content) ? last.content.map((p) => ('text' in p ? p.text : '')).join('') : '';
      return turn(text, i);
    },
    { record: false, modelId: 'scripted-1' },
  );
  return new Agent({ name, model, ...extra });
}

/** A promise with its resolve function exposed. */
export function gate<T = void>(): { promise: Promise<T>; open(value: T): void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((r) => (open = r));
  return { promise, open };
}

/** Starts a server on 127.0.0.1:0 with logs captured. */
export async function startServer(
  agents: Runnable[],
  options: Omit<ServeOptions, 'agents'> = {},
): Promise<{ server: RunningServer; logs: LogSink; url: string }> {
  const logs = new LogSink();
  const server = await serve({ agents, port: 0, logDestination: logs, ...options });
  return { server, logs, url: server.url };
}

/** One server-sent event. */
export interface SseEvent {
  event: string;
  data: any;
}

/** Parses a whole SSE body. */
export function parseSse(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  for (const block of text.split(/\n\n/)) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length) out.push({ event, data: JSON.parse(data.join('\n')) });
  }
  return out;
}

/** Reads SSE events from a fetch response one at a time. */
export async function* sseEvents(res: Response): AsyncGenerator<SseEvent> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += decoder.decode(value, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const [e] = parseSse(`${block}\n\n`);
        if (e) yield e;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** POSTs JSON to a chat endpoint. */
export function chat(url: string, agent: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/api/v1/agents/${agent}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The value of one sample in Prometheus text (sum over label sets matching `labels`). */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}
