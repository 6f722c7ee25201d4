import { loadPeer } from '../errors/load-peer.js';
/**
 * Lazy access to `@modelcontextprotocol/sdk`: imported on first use, so nothing loads the SDK
 * unless MCP is used.
 */
export type ClientModule = typeof import('@modelcontextprotocol/sdk/client/index.js');
export type StdioModule = typeof import('@modelcontextprotocol/sdk/client/stdio.js');
export type StreamableHttpModule = typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
export type SseModule = typeof import('@modelcontextprotocol/sdk/client/sse.js');
export type AuthModule = typeof import('@modelcontextprotocol/sdk/client/auth.js');
export type TypesModule = typeof import('@modelcontextprotocol/sdk/types.js');

/** The SDK modules the client side uses. */
export interface ClientSdk {
  client: ClientModule;
  stdio: StdioModule;
  http: StreamableHttpModule;
  sse: SseModule;
  auth: AuthModule;
  types: TypesModule;
}

let clientSdk: Promise<ClientSdk> | undefined;

/** Runs an SDK import (`loadPeer` of the optional peer `@modelcontextprotocol/sdk`). */
export async function importSdk<T>(load: () => Promise<T>): Promise<T> {
  return loadPeer({ packages: '@modelcontextprotocol/sdk', feature: 'MCP', load });
}

/** Imports (once) the SDK modules of the client side. */
export function loadClientSdk(): Promise<ClientSdk> {
  clientSdk ??= (async () => {
    const [client, stdio, http, sse, auth, types] = await importSdk(() =>
      Promise.all([
        import('@modelcontextprotocol/sdk/client/index.js'),
        import('@modelcontextprotocol/sdk/client/stdio.js'),
        import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
        import('@modelcontextprotocol/sdk/client/sse.js'),
        import('@modelcontextprotocol/sdk/client/auth.js'),
        import('@modelcontextprotocol/sdk/types.js'),
      ]),
    );
    return { client, stdio, http, sse, auth, types };
  })();
  return clientSdk;
}

/** The version of Corvid, sent as the client / server version. */
export const CORVID_VERSION: string = await (async () => {
  try {
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
})();
