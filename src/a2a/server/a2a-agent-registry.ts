import { createRequire } from 'node:module';

import type { AgentCard } from '@a2a-js/sdk';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { JsonRpcTransportHandler, type PushNotificationStore, type TaskStore } from '@a2a-js/sdk/server';

import type { TextSealer } from '../../secrets/index.js';
import type { Store } from '../../types/storage/store.js';
import type { A2ARuntime } from './a2a-runtime.js';
import { type A2ASkill, type AgentCardInput, buildAgentCard } from './agent-card.js';
import { type A2ARunObserver, type A2ATaskHook, CorvidAgentExecutor } from './execution/corvid-agent-executor.js';
import type { TaskEventLog } from './execution/logged-task-sink.js';
import { type A2ALogger, GuardedPushSender } from './push/guarded-push-sender.js';
import { MemoryPushNotificationStore } from './push/memory-push-store.js';
import { StorePushNotificationStore } from './push/store-push-notification-store.js';
import { CorvidRequestHandler } from './request-handler/corvid-request-handler.js';
import { WaitingBusManager } from './request-handler/waiting-bus-manager.js';
import { type CancelMarks, StoreCancelMarks } from './store/cancel-marks.js';
import { BoundedMemoryTaskStore, StoreTaskStore } from './store/store-task-store.js';

/** Everything that serves one agent over A2A. */
export interface A2AAgentEntry {
  name: string;
  card: AgentCard;
  cardInput: AgentCardInput;
  handler: CorvidRequestHandler;
  jsonRpc: JsonRpcTransportHandler;
  legacyJsonRpc: LegacyJsonRpcTransportHandler;
  taskStore: TaskStore;
}

/** Parts that outlive a config reload (running tasks, conversations, stores). */
interface LastingParts {
  executor: CorvidAgentExecutor;
  taskStore: TaskStore;
  pushStore: PushNotificationStore;
  sender: GuardedPushSender;
  buses: WaitingBusManager;
  cancelMarks: CancelMarks | undefined;
  eventLog: TaskEventLog | undefined;
}

/** Options for `A2AAgentRegistry`. */
export interface A2AAgentRegistryOptions {
  runtime: () => A2ARuntime;
  baseUrl: string | (() => string);
  store?: () => Promise<Store>;
  securitySchemes?: Record<string, unknown>;
  security?: Record<string, string[]>[];
  pushAllowedHosts?: string[];
  /** Encrypts push-config tokens kept in the store (see `StorePushNotificationStoreOptions.sealer`). */
  secrets?: () => Promise<TextSealer>;
  logger?: A2ALogger;
  /** Run for every task before its agent (see `A2ATaskHook`). */
  beforeTask?: A2ATaskHook;
  observe?: A2ARunObserver;
  /** The v0.3 HTTP+JSON binding is served (cards advertise it). */
  legacyRest?: boolean;
  /** Serve the extended agent card (see `A2ARoutesOptions.extendedCard`). */
  extendedCard?: boolean;
}

const packageVersion = (() => {
  try {
    return (createRequire(import.meta.url)('../../../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();

/**
 * Builds and caches the A2A request handler of each agent. Handlers are rebuilt when the runtime
 * object changes (a config reload) so cards follow the config; tasks, event buses and
 * conversations are kept, so in-flight tasks survive the reload.
 */
export class A2AAgentRegistry {
  private readonly lasting = new Map<string, LastingParts>();
  private readonly entries = new Map<string, { runtime: A2ARuntime; entry: A2AAgentEntry }>();

  /** One key for every agent's push store, loaded when first needed (a failure is retried next time). */
  private readonly sealer: () => Promise<TextSealer>;

  constructor(private readonly options: A2AAgentRegistryOptions) {
    const open = options.secrets ?? (async () => (await import('../../secrets/index.js')).SecretStore.openDefault());
    let opened: Promise<TextSealer> | undefined;
    this.sealer = () => {
      if (!opened) {
        const opening = open();
        opening.catch(() => {
          if (opened === opening) opened = undefined;
        });
        opened = opening;
      }
      return opened;
    };
  }

  /** The card input of an agent of the current runtime, or undefined when there is no such agent. */
  cardInput(name: string): AgentCardInput | undefined {
    const runtime = this.options.runtime();
    const agent = runtime.agents.get(name);
    if (!agent) return undefined;
    const config = (runtime.config as { agents?: Record<string, { a2a?: { skills?: A2ASkill[]; version?: string } }> }).agents?.[name];
    return {
      name,
      description: agent.description,
      baseUrl: (typeof this.options.baseUrl === 'function' ? this.options.baseUrl() : this.options.baseUrl).replace(/\/+$/, ''),
      version: config?.a2a?.version ?? packageVersion,
      skills: config?.a2a?.skills,
      securitySchemes: this.options.securitySchemes,
      security: this.options.security,
      legacyRest: this.options.legacyRest,
      extendedCard: this.options.extendedCard,
    };
  }

  /** The agent's entry when it is built for the current runtime (no waiting), else undefined. */
  ready(name: string): A2AAgentEntry | undefined {
    const cached = this.entries.get(name);
    const runtime = this.options.runtime();
    return cached && cached.runtime === runtime && runtime.agents.has(name) ? cached.entry : undefined;
  }

  /** The agent's entry, or undefined when the runtime has no such agent. */
  async get(name: string): Promise<A2AAgentEntry | undefined> {
    const runtime = this.options.runtime();
    if (!runtime.agents.has(name)) return undefined;
    const cached = this.entries.get(name);
    if (cached && cached.runtime === runtime) return cached.entry;
    const parts = await this.parts(name);
    const cardInput = this.cardInput(name)!;
    const card = buildAgentCard(cardInput);
    const handler = new CorvidRequestHandler({
      card,
      taskStore: parts.taskStore,
      executor: parts.executor,
      buses: parts.buses,
      pushStore: parts.pushStore,
      sender: parts.sender,
      cancelMarks: parts.cancelMarks,
      eventLog: parts.eventLog,
    });
    const entry: A2AAgentEntry = {
      name,
      card,
      cardInput,
      handler,
      jsonRpc: new JsonRpcTransportHandler(handler),
      legacyJsonRpc: new LegacyJsonRpcTransportHandler(handler),
      taskStore: parts.taskStore,
    };
    this.entries.set(name, { runtime, entry });
    return entry;
  }

  private async parts(name: string): Promise<LastingParts> {
    const existing = this.lasting.get(name);
    if (existing) return existing;
    const store = this.options.store ? await this.options.store() : undefined;
    // Another request may have built them while the store opened.
    const again = this.lasting.get(name);
    if (again) return again;
    // Without a store: in memory (the last 10,000 tasks per agent).
    const pushStore = store
      ? new StorePushNotificationStore(store.state, name, { sealer: this.sealer })
      : new MemoryPushNotificationStore();
    const taskStore = store ? new StoreTaskStore(store.state, name) : new BoundedMemoryTaskStore();
    const cancelMarks = store ? new StoreCancelMarks(store.state, name) : undefined;
    // Shared tasks: each task's changes are logged, so another instance can follow it (resubscribe).
    const eventLog = store ? { log: store.runEvents, agent: name } : undefined;
    const parts: LastingParts = {
      executor: new CorvidAgentExecutor({
        name,
        agent: () => this.options.runtime().agents.get(name),
        store: this.options.store,
        beforeTask: this.options.beforeTask,
        observe: this.options.observe,
        // Shared tasks: a cancel received by another instance stops the run here too.
        cancelMarks,
        eventLog,
      }),
      taskStore,
      pushStore,
      sender: new GuardedPushSender({
        store: pushStore,
        allowedHosts: this.options.pushAllowedHosts,
        logger: this.options.logger,
        ...(pushStore instanceof MemoryPushNotificationStore ? { unused: () => pushStore.unused } : {}),
      }),
      buses: new WaitingBusManager(),
      cancelMarks,
      eventLog,
    };
    this.lasting.set(name, parts);
    return parts;
  }
}
