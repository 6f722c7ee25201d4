import type { Server } from 'node:http';

import type { Hono } from 'hono';
import type { Logger } from 'pino';

import type { ServerAppParts } from '../app/server-app-parts.js';
import type { ServerEnv } from '../app/server-env.js';

type NodeWs = typeof import('@hono/node-ws');
type WsRoute = typeof import('./ws-route.js');

/**
 * The chat WebSocket route on a Node server (`@hono/node-ws`): `register` adds the route to the
 * app, `attach` handles the upgrades of the listening server, `closeAll` ends every socket.
 */
export class NodeWebSockets {
  private nodeWs?: ReturnType<NodeWs['createNodeWebSocket']>;

  private constructor(
    private readonly modules: { nodeWs: NodeWs; wsRoute: WsRoute },
    private readonly logger: Logger,
  ) {}

  /** Loads `@hono/node-ws` and the route. */
  static async load(logger: Logger): Promise<NodeWebSockets> {
    const [nodeWs, wsRoute] = await Promise.all([import('@hono/node-ws'), import('./ws-route.js')]);
    return new NodeWebSockets({ nodeWs, wsRoute }, logger);
  }

  /** Adds `GET /api/v1/agents/{name}/ws` to `app`. */
  register(app: Hono<ServerEnv>, parts: ServerAppParts): void {
    const nodeWs = this.modules.nodeWs.createNodeWebSocket({ app: app as unknown as Hono });
    // Larger messages close the socket (1009) before they are buffered (ws's own default is 100 MiB).
    nodeWs.wss.options.maxPayload = parts.maxBodyBytes;
    this.nodeWs = nodeWs;
    // A socket's errors (a message over the limit, a bad frame) end it (onClose runs); logged
    // here, not on stderr (@hono/node-ws's default, which on Node 20 fails to build an ErrorEvent).
    const onError = (err: unknown) => this.logger.debug({ error: (err as Error)?.message }, 'websocket error');
    const upgrade = ((createEvents: never, upgradeOptions?: object) =>
      nodeWs.upgradeWebSocket(createEvents, { onError, ...upgradeOptions })) as never;
    this.modules.wsRoute.registerWebSocketRoute(app, parts, upgrade);
  }

  /** Handles the WebSocket upgrades of `server`. */
  attach(server: Server): void {
    this.nodeWs?.injectWebSocket(server as never);
  }

  /** Terminates every open socket and stops accepting new ones. */
  closeAll(): void {
    const wss = this.nodeWs?.wss;
    if (!wss) return;
    for (const ws of wss.clients) ws.terminate();
    wss.close();
  }
}
