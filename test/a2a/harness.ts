import type { AddressInfo } from 'node:net';

import { serve, type ServerType } from '@hono/node-server';

import { type A2ARoutesOptions, createA2ARoutes } from '../../src/a2a/index.js';
import { Agent, type Runnable } from '../../src/index.js';
import type { Runtime } from '../../src/runtime/load-runtime.js';
import { type Script, ScriptedModel } from '../../src/testing/index.js';
import type { Store } from '../../src/types/storage/store.js';

/** A model that echoes the last user message, word by word; "slow" makes it wait until aborted. */
export function echoModel(): ScriptedModel {
  const script: Script = (call) => {
    const last = [...call.prompt].reverse().find((m) => m.role === 'user');
    const text = last && last.role === 'user' ? last.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
    if (text.includes('slow')) return { text: 'never', delayMs: 60_000 };
    if (text.includes('history')) return { text: `I have seen ${call.prompt.filter((m) => m.role === 'user').length} user messages` };
    return { text: `echo: ${text}` };
  };
  return new ScriptedModel(script);
}

/** Just enough of a `Runtime` for the routes: agents, the default agent, config. */
export function fakeRuntime(agents: Runnable[], config: Record<string, unknown> = {}): Runtime {
  const map = new Map(agents.map((a) => [a.name, a]));
  return {
    config: { agents: {}, ...config },
    configPath: undefined,
    agents: map,
    defaultAgent: agents[0].name,
    agent: (name?: string) => map.get(name ?? agents[0].name),
    reload: async () => undefined,
    mcp: undefined,
    store: async () => {
      throw new Error('no store');
    },
    close: async () => undefined,
  } as unknown as Runtime;
}

export function echoAgent(name = 'echo', description = 'Echoes what you say'): Agent {
  return new Agent({ name, description, instructions: 'Echo.', model: echoModel() });
}

export interface TestServer {
  url: string;
  server: ServerType;
  close(): Promise<void>;
}

/** Serves the routes on 127.0.0.1 on a free port. */
export async function startServer(options: Omit<A2ARoutesOptions, 'baseUrl'> & { port?: number }): Promise<TestServer> {
  // The base URL is known once the port is; requests arrive only after the routes exist.
  let app: Awaited<ReturnType<typeof createA2ARoutes>> | undefined;
  const server = await new Promise<ServerType>((resolve) => {
    const s: ServerType = serve({ fetch: (req, env) => app!.fetch(req, env), port: options.port ?? 0, hostname: '127.0.0.1' }, () =>
      resolve(s),
    );
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app = await createA2ARoutes({ ...options, baseUrl });
  return {
    url: baseUrl,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

export type { Store };
