import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import type { McpConnectionOptions } from './mcp-connection-options.js';
import { type ClientSdk, CORVID_VERSION } from './sdk.js';
import type { McpElicitationHandler } from './types.js';

/** Elicitation answer when nobody can be asked. */
const NO_USER = 'Corvid is running without a user who could answer (non-interactive); the request was declined.';

/** Options of `createSdkClient`. */
export interface SdkClientOptions {
  sdk: ClientSdk;
  /** Id of the server, for notices and elicitation requests. */
  server: string;
  onElicitation?: McpConnectionOptions['onElicitation'];
  onNotice?: McpConnectionOptions['onNotice'];
  /** The server's tool list changed (the SDK re-listed it). */
  onToolsChanged(client: Client, tools: Awaited<ReturnType<Client['listTools']>>['tools']): void;
  /** The connection closed (the server went away, or we closed it). */
  onClose(client: Client): void;
}

/**
 * An SDK `Client` as Corvid uses it: declares form elicitation (answered by `onElicitation`, or
 * declined with the reason in `_meta["dev.corvid/reason"]`), follows `tools/list_changed`.
 */
export function createSdkClient(options: SdkClientOptions): Client {
  const { sdk, server } = options;
  const client = new sdk.client.Client(
    { name: 'corvid', version: CORVID_VERSION },
    {
      capabilities: { elicitation: { form: {} } },
      listChanged: {
        tools: {
          onChanged: (err, tools) => {
            if (!err && tools) options.onToolsChanged(client, tools);
          },
        },
      },
    },
  );
  client.onclose = () => options.onClose(client);
  client.setRequestHandler(sdk.types.ElicitRequestSchema, async (request, extra) => {
    const params = request.params as { mode?: string; message: string; requestedSchema?: unknown };
    const handler = options.onElicitation;
    if (params.mode === 'url' || !handler) {
      const reason = params.mode === 'url' ? 'Corvid does not support URL elicitation.' : NO_USER;
      options.onNotice?.({ kind: 'log', server, level: 'warning', message: `elicitation declined: ${reason}` });
      return { action: 'decline', _meta: { 'dev.corvid/reason': reason } };
    }
    return handler({
      server,
      message: params.message,
      requestedSchema: params.requestedSchema as Parameters<McpElicitationHandler>[0]['requestedSchema'],
      signal: extra.signal,
    });
  });
  return client;
}
