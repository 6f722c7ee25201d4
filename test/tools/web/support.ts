/**
 * Test support for the web tools: a page server on 127.0.0.1, a connection tripwire that fails
 * (and records) any attempt to connect anywhere but 127.0.0.1 / ::1, and a tiny PDF writer.
 */
import { lookup as dnsLookup } from 'node:dns';
import { Agent as HttpAgent, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { type AddressInfo, isIP } from 'node:net';

/** A request the page server received. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A node:http server on `host` answering from `routes` by path; records every request. */
export async function startPageServer(
  routes: Record<string, Route>,
  host = '127.0.0.1',
): Promise<{ url: string; port: number; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
      if (route) route(req, res, body);
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const LOOPBACK = new Set(['127.0.0.1', '::1']);

/**
 * Wraps the connection step of `node:http` and `node:https` agents: every address a request is
 * about to connect to is recorded in `attempts`, and one that is not 127.0.0.1 / ::1 is stopped
 * (the connection fails) and recorded in `escapes`. `restore()` undoes it.
 */
export function installTripwire(): { attempts: string[]; escapes: string[]; restore(): void } {
  const attempts: string[] = [];
  const escapes: string[] = [];
  const check = (address: string): Error | undefined => {
    attempts.push(address);
    if (LOOPBACK.has(address)) return undefined;
    escapes.push(address);
    return new Error(`tripwire: connection to ${address} stopped`);
  };
  type Create = (options: Record<string, unknown>, cb?: unknown) => unknown;
  const patch = (proto: { createConnection: Create }) => {
    const original = proto.createConnection;
    proto.createConnection = function (this: unknown, options: Record<string, unknown>, cb?: unknown) {
      const host = String(options.host ?? 'localhost');
      if (isIP(host)) {
        const err = check(host);
        if (err) throw err;
        return original.call(this, options, cb);
      }
      const inner = (options.lookup as typeof dnsLookup | undefined) ?? dnsLookup;
      const lookup = (name: string, opts: { all?: boolean }, callback: (...a: unknown[]) => void) =>
        (inner as unknown as (n: string, o: unknown, c: (...a: unknown[]) => void) => void)(
          name,
          opts,
          (err: unknown, address: unknown, family: unknown) => {
            if (err) return callback(err);
            const list = Array.isArray(address) ? (address as Array<{ address: string }>) : [{ address: String(address) }];
            for (const a of list) {
              const stop = check(a.address);
              if (stop) return callback(stop);
            }
            callback(null, address, family);
          },
        );
      return original.call(this, { ...options, lookup }, cb);
    };
    return () => void (proto.createConnection = original);
  };
  const undo = [patch(HttpAgent.prototype as never), patch(HttpsAgent.prototype as never)];
  return { attempts, escapes, restore: () => undo.forEach((u) => u()) };
}

/** A one-page PDF with `text` on it (Helvetica) and a document title. */
export function tinyPdf(text: string, title: string): Buffer {
  const stream = `BT /F1 18 Tf 72 720 Td (${text.replace(/[()\\]/g, (c) => `\\${c}`)}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Title (${title}) >>`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
