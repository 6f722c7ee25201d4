/**
 * A fake Slack Web API on 127.0.0.1: `POST /api/<method>` with a form or JSON body, the token in
 * the Authorization header (or the body), answers `{ ok: true, … }` or `{ ok: false, error }`
 * as Slack does. Knows chat.postMessage, conversations.history and conversations.list.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A call the fake received. */
export interface SlackCall {
  method: string;
  contentType: string;
  authorization?: string;
  params: Record<string, string>;
}

export interface FakeSlack {
  /** Base URL to give as `slackApiUrl` (ends in `/api/`). */
  apiUrl: string;
  calls: SlackCall[];
  posted: Array<{ channel: string; text: string; thread_ts?: string; ts: string }>;
  /** The next call answers HTTP 429 with this Retry-After. */
  rateLimitNext(seconds: number): void;
  close(): Promise<void>;
}

const CHANNELS = [
  {
    id: 'C01GENERAL',
    name: 'general',
    is_private: false,
    is_member: true,
    topic: { value: 'Company news' },
    purpose: { value: '' },
    num_members: 42,
  },
  {
    id: 'C02RANDOM',
    name: 'random',
    is_private: false,
    is_member: false,
    topic: { value: '' },
    purpose: { value: 'Off topic' },
    num_members: 40,
  },
  {
    id: 'G03OPS',
    name: 'ops-alerts',
    is_private: true,
    is_member: true,
    topic: { value: 'Pager' },
    purpose: { value: '' },
    num_members: 5,
  },
];

export async function startFakeSlack(token: string): Promise<FakeSlack> {
  const calls: SlackCall[] = [];
  const posted: FakeSlack['posted'] = [];
  let rateLimit: number | undefined;
  let seq = 100;
  const history: Record<string, unknown[]> = {
    C01GENERAL: [
      { type: 'message', ts: '1700000002.000200', user: 'U2', text: 'Deploy done', thread_ts: '1700000002.000200', reply_count: 2 },
      { type: 'message', ts: '1700000001.000100', user: 'U1', text: 'Deploying now' },
      { type: 'message', ts: '1700000000.000050', bot_id: 'B9', subtype: 'bot_message', text: 'CI green' },
    ],
    G03OPS: [{ type: 'message', ts: '1700000005.000500', user: 'U3', text: 'Disk 91% on db-1' }],
  };

  const answer = (res: ServerResponse, body: Record<string, unknown>) =>
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));

  const handle = (method: string, params: Record<string, string>, res: ServerResponse) => {
    switch (method) {
      case 'conversations.list': {
        // Two pages: the first two channels, then the rest.
        const start = params.cursor === 'page2' ? 2 : 0;
        const page = CHANNELS.slice(start, start === 0 ? 2 : undefined);
        return answer(res, { ok: true, channels: page, response_metadata: { next_cursor: start === 0 ? 'page2' : '' } });
      }
      case 'conversations.history': {
        const messages = history[params.channel];
        if (!messages) return answer(res, { ok: false, error: 'channel_not_found' });
        return answer(res, {
          ok: true,
          messages: messages.slice(0, Number(params.limit ?? 100)),
          has_more: messages.length > Number(params.limit ?? 100),
        });
      }
      case 'chat.postMessage': {
        if (params.channel === 'C02RANDOM') return answer(res, { ok: false, error: 'not_in_channel' });
        if (!CHANNELS.some((c) => c.id === params.channel)) return answer(res, { ok: false, error: 'channel_not_found' });
        const ts = `1700000100.000${seq++}`;
        posted.push({ channel: params.channel, text: params.text, ...(params.thread_ts ? { thread_ts: params.thread_ts } : {}), ts });
        return answer(res, { ok: true, channel: params.channel, ts, message: { text: params.text, ts } });
      }
      default:
        return answer(res, { ok: false, error: 'unknown_method' });
    }
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const contentType = String(req.headers['content-type'] ?? '');
      let params: Record<string, string>;
      if (contentType.startsWith('application/json')) {
        params = Object.fromEntries(
          Object.entries(JSON.parse(text || '{}') as Record<string, unknown>).map(([k, v]) => [
            k,
            typeof v === 'string' ? v : JSON.stringify(v),
          ]),
        );
      } else params = Object.fromEntries(new URLSearchParams(text));
      const method = (req.url ?? '').replace(/^\/api\//, '').split('?')[0];
      calls.push({ method, contentType, authorization: req.headers.authorization, params });
      if (rateLimit !== undefined) {
        res
          .writeHead(429, { 'retry-after': String(rateLimit), 'content-type': 'application/json' })
          .end('{"ok":false,"error":"ratelimited"}');
        rateLimit = undefined;
        return;
      }
      const sent = req.headers.authorization?.replace(/^Bearer /, '') ?? params.token;
      if (!sent) return answer(res, { ok: false, error: 'not_authed' });
      if (sent !== token) return answer(res, { ok: false, error: 'invalid_auth' });
      handle(method, params, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    calls,
    posted,
    rateLimitNext: (s) => void (rateLimit = s),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
