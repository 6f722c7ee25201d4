import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';

import type { ServerConfig } from '../../config/corvid-config.js';

/** What `listen` needs. */
export interface ListenOptions {
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** `server.tls`: certificate and key files, relative to `configDir`. */
  tls?: ServerConfig['tls'];
  configDir: string;
}

/** A listening Node server and its URL (`http(s)://host:port`, IPv6 hosts in brackets). */
export interface Listening {
  server: Server;
  port: number;
  url: string;
}

/** Serves `fetch` over HTTP, or HTTPS with `tls`, and resolves once listening. */
export async function listen(options: ListenOptions): Promise<Listening> {
  const { serve: nodeServe } = await import('@hono/node-server');
  const tls = options.tls && {
    cert: readFileSync(resolve(options.configDir, options.tls.cert)),
    key: readFileSync(resolve(options.configDir, options.tls.key)),
  };
  const server = await new Promise<Server>((resolveListen, reject) => {
    const s = nodeServe(
      {
        fetch: options.fetch,
        port: options.port,
        hostname: options.host,
        ...(tls ? { createServer: createHttpsServer, serverOptions: tls } : {}),
      },
      () => resolveListen(s as Server),
    );
    (s as Server).once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host;
  return { server, port, url: `${tls ? 'https' : 'http'}://${host}:${port}` };
}
