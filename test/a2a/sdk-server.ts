import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { type AgentCard, type Message, type Part, Role, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';

/** An A2A server built with the SDK alone (no Corvid): echoes in chunks; "fail", "reject" and "slow" behave as named. */
export interface SdkServer {
  url: string;
  /** Headers of every request received. */
  requests: Array<Record<string, string | string[] | undefined>>;
  /** Context ids of messages received. */
  contexts: string[];
  canceled: string[];
  close(): Promise<void>;
}

function text(t: string): Part {
  return { content: { $case: 'text', value: t }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

class EchoExecutor implements AgentExecutor {
  private readonly running = new Map<string, () => void>();
  constructor(private readonly server: { contexts: string[]; canceled: string[] }) {}

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = ctx;
    const input = ctx.userMessage.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
    this.server.contexts.push(contextId);
    const status = (state: TaskState, msg?: string) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state,
            timestamp: new Date().toISOString(),
            message: msg
              ? ({
                  messageId: crypto.randomUUID(),
                  contextId,
                  taskId,
                  role: Role.ROLE_AGENT,
                  parts: [text(msg)],
                  metadata: undefined,
                  extensions: [],
                  referenceTaskIds: [],
                } as Message)
              : undefined,
          },
          metadata: undefined,
        }),
      );
    if (input === 'plain message') {
      bus.publish(
        AgentEvent.message({
          messageId: crypto.randomUUID(),
          contextId,
          taskId: '',
          role: Role.ROLE_AGENT,
          parts: [text('just a message')],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        }),
      );
      bus.finished();
      return;
    }
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
        artifacts: [],
        history: [ctx.userMessage],
        metadata: {},
      }),
    );
    status(TaskState.TASK_STATE_WORKING);
    if (input.includes('slow')) {
      await new Promise<void>((resolve) => this.running.set(taskId, resolve));
      status(TaskState.TASK_STATE_CANCELED);
      bus.finished();
      return;
    }
    if (input.includes('fail')) {
      status(TaskState.TASK_STATE_FAILED, 'the tool exploded');
      bus.finished();
      return;
    }
    const answer = `remote says: ${input} (turn ${this.server.contexts.filter((c) => c === contextId).length})`;
    const words = answer.split(/(?<= )/);
    words.forEach((w, i) =>
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: { artifactId: 'a1', name: 'answer', description: '', parts: [text(w)], metadata: undefined, extensions: [] },
          append: i > 0,
          lastChunk: i === words.length - 1,
          metadata: undefined,
        }),
      ),
    );
    status(TaskState.TASK_STATE_COMPLETED);
    bus.finished();
  };

  cancelTask = async (taskId: string): Promise<void> => {
    this.server.canceled.push(taskId);
    this.running.get(taskId)?.();
  };
}

/** Starts the SDK server on 127.0.0.1; `version: '0.3'` serves only the v0.3 protocol. */
export async function startSdkServer(options: { version?: '1.0' | '0.3'; requireHeader?: [string, string] } = {}): Promise<SdkServer> {
  const state: SdkServer = { url: '', requests: [], contexts: [], canceled: [], close: async () => undefined };
  const app = express();
  let server!: Server;
  await new Promise<void>((resolve) => {
    server = app.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const legacyOnly = options.version === '0.3';
  const card: AgentCard = {
    name: 'sdk-echo',
    description: 'An echo agent built with the A2A SDK',
    supportedInterfaces: legacyOnly
      ? [{ url: `${url}/rpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' }]
      : [
          { url: `${url}/rpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
          { url: `${url}/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
        ],
    provider: undefined,
    version: '1.2.3',
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      { id: 'echo', name: 'echo', description: 'echo', tags: [], examples: [], inputModes: [], outputModes: [], securityRequirements: [] },
    ],
    signatures: [],
  } as AgentCard;
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new EchoExecutor(state));
  app.use((req, res, next) => {
    state.requests.push({ ...req.headers });
    if (options.requireHeader && req.headers[options.requireHeader[0].toLowerCase()] !== options.requireHeader[1]) {
      res.status(401).json({ error: 'unauthorized' });
      return;
    }
    next();
  });
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler, legacyCompat: { enabled: legacyOnly } }));
  app.use(
    '/rpc',
    jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: legacyOnly } }),
  );
  app.use('/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  state.url = url;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
