import type { Hono } from 'hono';
import type { DestinationStream, Logger } from 'pino';

import type { A2ATaskStart } from '../../a2a/server/execution/corvid-agent-executor.js';
import type { ServerConfig } from '../../config/corvid-config.js';
import type { Runnable } from '../../core/runnable.js';
import type { LoadRuntimeOptions } from '../../runtime/load-runtime.js';
import type { StoreSource } from '../../types/durable-options.js';
import type { ChatSessions } from '../sessions/chat-sessions.js';
import type { StudioOptions } from '../studio/studio-static.js';
import type { ServerAppParts } from './create-server-app.js';
import type { ServedRuntime } from './served-runtime.js';
import type { ServerEnv } from './server-env.js';

/** Options of `serve()`. Give `agents` (built in code) or a `runtime`, else the config is loaded. */
export interface ServeOptions {
  /** Agents to serve (every one public); the first is the default. */
  agents?: Runnable[];
  /** A runtime to serve (e.g. from `loadRuntime`); `serve()` does not close one it was given. */
  runtime?: ServedRuntime;
  /**
   * With neither `agents` nor `runtime`: options for `loadRuntime` (config file, cwd, env, tools).
   * Its `cwd` (default `process.cwd()`) is also where the Studio reads `.corvid/evals/`.
   */
  load?: LoadRuntimeOptions;
  /** Port; 0 picks a free one. Default: `server.port`, else 8080. */
  port?: number;
  /**
   * Interface. Default: `server.host`, else 127.0.0.1. Giving a non-loopback host here serves it
   * even without auth (with a loud warning); a non-loopback `server.host` needs `server.auth`.
   */
  host?: string;
  /** Settings overriding the config's `server:` section. */
  server?: ServerConfig;
  /** Reload the config when it (or `.env`) changes. Default false. */
  watch?: boolean;
  /** A pino logger; default JSON lines on stdout at `server.logging.level`. */
  logger?: Logger;
  /** Where the default logger writes. */
  logDestination?: DestinationStream;
  /**
   * Where chat sessions live, in memory (default without a store). Giving it turns off session
   * runs in `store`.
   */
  sessions?: ChatSessions;
  /**
   * The store chat turns run in as session runs (history with agent names, state, checkpoints,
   * approvals). Default: the runtime's store when the config has a `storage:` section.
   */
  store?: StoreSource;
  /**
   * Execute queued background runs in this process too (`runtime.runs.work()`). Default true when
   * the server has a store and the runtime has `runs`; false only accepts them (`--no-worker`),
   * for `corvid worker` processes to run.
   */
  worker?: boolean | { concurrency?: number };
  /** Resume runs left interrupted by an earlier process, at start (in the background). Default: `storage.resume` of the config, else `manual`. */
  resume?: 'manual' | 'auto';
  /**
   * Mount the A2A endpoints (agent cards, `/a2a/{name}`). Default true. An object serves them
   * with options: `beforeTask`, a hook run for every task before its agent (`A2ATaskHook`).
   */
  a2a?: boolean | { beforeTask?: (task: A2ATaskStart) => void | Promise<void> };
  /**
   * Serve the Studio (the web UI) at `/studio`. Default: `server.studio` of the config, else true.
   * An object serves it from another folder (`dir`; default `<package root>/dist/studio`).
   */
  studio?: boolean | StudioOptions;
}

/** A running server. */
export interface RunningServer {
  /** e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly app: Hono<ServerEnv>;
  readonly parts: ServerAppParts;
  readonly logger: Logger;
  /** The runtime serving requests now. */
  runtime(): ServedRuntime;
  /** Reloads the config now (as a watched change would). Resolves false when the new config was rejected. */
  reload(): Promise<boolean>;
  /**
   * Stops accepting connections, lets in-flight requests finish (up to `timeoutMs`, default
   * 10000), then closes every connection, the tracer and the runtime (when `serve()` loaded it).
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
}
