import { randomUUID } from 'node:crypto';

import type { Message as A2AMessage, Part, StreamResponse, Task } from '@a2a-js/sdk';

import { agentAsTool, type AgentToolOptions } from '../../core/agent-tool.js';
import { Conversation } from '../../core/conversation.js';
import { redactUrls } from '../../core/redact-urls.js';
import { newRunId } from '../../core/run-loop.js';
import type { RunOptions } from '../../core/run-options.js';
import type { RunStream } from '../../core/run-stream.js';
import { abortedError, checkDepth } from '../../core/run-tree.js';
import type { ExecuteRequest, Runnable } from '../../core/runnable.js';
import { streamRun } from '../../core/stream-run.js';
import { CorvidError } from '../../errors/corvid-error.js';
import { RunAbortedError } from '../../errors/run-aborted-error.js';
import { ValidationError } from '../../errors/validation-error.js';
import type { AgentEvent, EventSink } from '../../types/events.js';
import { type Message, messageText, type RunInput, userMessage } from '../../types/message.js';
import type { RunResult } from '../../types/result.js';
import type { Tool } from '../../types/tool.js';
import { emptyUsage } from '../../types/usage.js';
import { TASK_STATE, taskStateName } from '../task-states.js';
import { type A2AConnection, connectA2A, displayUrl } from './connect-a2a.js';
import { RemoteAgentError } from './remote-agent-error.js';

/** Options for `new RemoteAgent()`. */
export interface RemoteAgentOptions {
  name: string;
  /** The agent-card URL, the server's base URL (card at `/.well-known/agent-card.json`), or a JSON-RPC endpoint. */
  url: string;
  /** What it does (shown to agents that use it as a tool); default the card's description. */
  description?: string;
  /** HTTP headers sent with every request, e.g. `{ Authorization: 'Bearer …' }`. */
  headers?: Record<string, string>;
  /** Time allowed for one call (card, send, stream), in ms. Default 30000. */
  timeoutMs?: number;
  /** Transport preference; default the card's order (JSON-RPC first for Corvid servers). */
  preferredTransports?: Array<'JSONRPC' | 'HTTP+JSON'>;
}

/**
 * An agent served elsewhere over A2A (any A2A server: Corvid's, the SDK's, other frameworks'),
 * usable like a local one: `run`, `stream`, conversations (the remote context is kept per
 * conversation), as a workflow part, or as a tool (`asTool`). The SDK client loads on first use.
 * Remote text chunks arrive as `text_delta` events; the remote agent's own tool calls stay remote.
 * @example
 * const researcher = new RemoteAgent({ name: 'researcher', url: 'http://127.0.0.1:8080/agents/researcher/.well-known/agent-card.json' });
 * const { text } = await researcher.run('Find three papers on corvid cognition');
 */
export class RemoteAgent implements Runnable {
  readonly kind = 'remote' as const;
  readonly name: string;
  readonly url: string;
  readonly subAgents: readonly Runnable[] = [];
  private readonly options: RemoteAgentOptions;
  private connecting?: Promise<A2AConnection>;
  /** The remote context of each conversation (keyed by its history array). */
  private readonly contexts = new WeakMap<Message[], string>();

  constructor(options: RemoteAgentOptions) {
    if (!options || typeof options.name !== 'string' || options.name.length === 0)
      throw new ValidationError('A remote agent needs a name: new RemoteAgent({ name, url })');
    if (typeof options.url !== 'string' || !URL.canParse(options.url))
      throw new ValidationError(
        `The remote agent "${options.name}" needs url: an absolute http(s) URL (got ${JSON.stringify(options.url)})`,
      );
    this.options = options;
    this.name = options.name;
    this.url = options.url;
  }

  get description(): string | undefined {
    return this.options.description;
  }

  /** Fetches the agent card (once) and connects. */
  connect(signal?: AbortSignal): Promise<A2AConnection> {
    if (!this.connecting) {
      const attempt = connectA2A({
        url: this.url,
        headers: this.options.headers,
        preferredTransports: this.options.preferredTransports,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      this.connecting = attempt;
      attempt.catch(() => {
        if (this.connecting === attempt) this.connecting = undefined;
      });
    }
    return signal ? raceAbort(this.connecting, signal) : this.connecting;
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? 30_000;
  }

  run(input: RunInput, options?: RunOptions): Promise<RunResult> {
    return this.execute({ history: [], input, options });
  }

  stream(input: RunInput, options?: RunOptions): RunStream {
    return streamRun(this, [], input, options);
  }

  conversation(): Conversation {
    return new Conversation(this);
  }

  asTool(options?: AgentToolOptions): Tool<{ message: string }, string> {
    return agentAsTool(this, options);
  }

  /** @internal */
  async execute({ history, input, options, stream = false, parent }: ExecuteRequest): Promise<RunResult> {
    const started = performance.now();
    const path = parent ? parent.path : [this.name];
    if (parent) checkDepth(path, parent.tree, this.name);
    const runId = newRunId();
    const userSink = options?.onEvent;
    const parentSink = parent?.sink;
    const sink: EventSink | undefined = userSink && parentSink ? (e) => (parentSink(e), userSink(e)) : (userSink ?? parentSink);
    const emit = (event: Record<string, unknown>) => sink?.({ runId, agent: this.name, path, ...event } as AgentEvent);
    const text = inputText(history, input);
    emit({ type: 'run_start', input: text });
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const outer = options?.signal ?? parent?.tree?.signal;
    const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
    let taskId: string | undefined;
    let client: A2AConnection['client'] | undefined;
    try {
      const connection = await this.connect(signal);
      client = connection.client;
      const contextId = this.contexts.get(history);
      const request = {
        tenant: '',
        message: a2aMessage(text, contextId),
        configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: false, historyLength: 0 },
        metadata: undefined,
      };
      let result: { text: string; contextId?: string };
      if (stream && connection.card.capabilities?.streaming) {
        const collector = new StreamCollector((delta) => emit({ type: 'text_delta', step: 1, delta }));
        for await (const event of client.sendMessageStream(request, { signal })) {
          collector.add(event);
          taskId ??= collector.taskId;
        }
        result = collector.finish(displayUrl(this.url));
      } else {
        const reply = await client.sendMessage(request, { signal });
        if ('messageId' in reply) result = { text: partsText(reply.parts), contextId: reply.contextId };
        else {
          taskId = reply.id;
          result = { text: taskOutcome(reply, displayUrl(this.url)), contextId: reply.contextId };
        }
      }
      if (result.contextId) this.contexts.set(history, result.contextId);
      const messages: Message[] = [
        ...(typeof input === 'string' ? [userMessage(input)] : input),
        { role: 'assistant', content: [{ type: 'text', text: result.text }] },
      ];
      history.push(...messages);
      // The conversation object keeps its history array, so the context follows it.
      if (result.contextId) this.contexts.set(history, result.contextId);
      if (!parent) emit({ type: 'answer', text: result.text });
      const durationMs = performance.now() - started;
      emit({ type: 'run_end', status: 'completed', steps: 1, usage: emptyUsage(), durationMs });
      return {
        runId,
        agent: this.name,
        text: result.text,
        steps: [],
        usage: emptyUsage(),
        usageByAgent: {},
        messages,
        finishReason: 'stop',
        durationMs,
      };
    } catch (err) {
      let error: unknown = err;
      if (outer?.aborted) {
        error = abortedError(outer, err);
        if (taskId && client)
          void client
            .cancelTask({ tenant: '', id: taskId, metadata: undefined }, { signal: AbortSignal.timeout(5000) })
            .catch(() => undefined);
      } else if (timeout.aborted) {
        error = new RemoteAgentError(
          `The remote agent "${this.name}" at ${displayUrl(this.url)} did not answer within ${this.timeoutMs} ms`,
          { url: displayUrl(this.url), unreachable: true, cause: err },
        );
      } else if (!CorvidError.isInstance(err)) {
        error = new RemoteAgentError(
          `The remote agent "${this.name}" at ${displayUrl(this.url)} failed: ${redactUrls(err instanceof Error ? err.message : String(err))}`,
          { url: displayUrl(this.url), unreachable: isNetworkError(err), cause: err },
        );
      }
      const e = error as CorvidError;
      emit({ type: 'error', error: { name: e.name ?? 'Error', code: e.code ?? 'internal', message: e.message ?? String(error) } });
      emit({
        type: 'run_end',
        status: error instanceof RunAbortedError ? 'aborted' : 'failed',
        steps: 1,
        usage: emptyUsage(),
        durationMs: performance.now() - started,
      });
      throw error;
    }
  }
}

/** Gathers a streamed task: artifact text (by id, honouring `append`), the final state and message. */
class StreamCollector {
  taskId: string | undefined;
  contextId: string | undefined;
  private readonly artifacts = new Map<string, string>();
  private task: Task | undefined;
  private state = 0;
  private statusText = '';
  private messageText: string | undefined;

  constructor(private readonly onDelta: (delta: string) => void) {}

  add(event: StreamResponse): void {
    const p = event.payload;
    if (!p) return;
    switch (p.$case) {
      case 'task':
        this.task = p.value;
        this.taskId = p.value.id;
        this.contextId = p.value.contextId;
        this.state = p.value.status?.state ?? this.state;
        for (const a of p.value.artifacts) this.setArtifact(a.artifactId, partsText(a.parts), false);
        break;
      case 'message':
        this.messageText = partsText(p.value.parts);
        this.contextId = p.value.contextId || this.contextId;
        break;
      case 'statusUpdate':
        this.taskId ??= p.value.taskId;
        this.contextId ??= p.value.contextId;
        this.state = p.value.status?.state ?? this.state;
        if (p.value.status?.message) this.statusText = partsText(p.value.status.message.parts);
        break;
      case 'artifactUpdate': {
        const a = p.value.artifact;
        if (a) this.setArtifact(a.artifactId, partsText(a.parts), p.value.append);
        break;
      }
      default: {
        const never: never = p;
        void never;
      }
    }
  }

  private setArtifact(id: string, text: string, append: boolean): void {
    const before = this.artifacts.get(id) ?? '';
    const after = append ? before + text : text;
    this.artifacts.set(id, after);
    // A replacement that extends what was streamed reports only the new part.
    if (after.startsWith(before) && after.length > before.length) this.onDelta(after.slice(before.length));
  }

  finish(url: string): { text: string; contextId?: string } {
    if (this.messageText !== undefined && !this.taskId) return { text: this.messageText, contextId: this.contextId };
    const task: Task = {
      ...(this.task ?? { id: this.taskId ?? '', contextId: this.contextId ?? '', history: [], metadata: undefined }),
      status: { state: this.state, message: undefined, timestamp: undefined },
      artifacts: [...this.artifacts].map(([artifactId, text]) => ({
        artifactId,
        name: '',
        description: '',
        parts: [textPart(text)],
        metadata: undefined,
        extensions: [],
      })),
    } as Task;
    return { text: taskOutcome(task, url, this.statusText), contextId: this.contextId };
  }
}

/** A finished task's answer; throws for failed, rejected and canceled tasks. */
function taskOutcome(task: Task, url: string, statusText?: string): string {
  const state = task.status?.state ?? 0;
  const status = statusText ?? (task.status?.message ? partsText(task.status.message.parts) : '');
  const artifacts = task.artifacts
    .map((a) => partsText(a.parts))
    .filter(Boolean)
    .join('\n');
  switch (state) {
    case TASK_STATE.COMPLETED:
    case TASK_STATE.INPUT_REQUIRED:
    case TASK_STATE.AUTH_REQUIRED:
      return artifacts || status;
    case TASK_STATE.FAILED:
    case TASK_STATE.REJECTED:
    case TASK_STATE.CANCELED:
      throw new RemoteAgentError(`The remote agent at ${url} ${taskStateName(state)} the task${status ? `: ${status}` : ''}`, {
        url,
        taskState: taskStateName(state),
      });
    default:
      throw new RemoteAgentError(
        `The remote agent at ${url} ended the exchange with the task still ${taskStateName(state) ?? 'in an unknown state'}`,
        { url, taskState: taskStateName(state) },
      );
  }
}

function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

function partsText(parts: readonly Part[]): string {
  return parts
    .map((p) => (p.content?.$case === 'text' ? p.content.value : p.content?.$case === 'data' ? JSON.stringify(p.content.value) : ''))
    .join('');
}

function a2aMessage(text: string, contextId: string | undefined): A2AMessage {
  return {
    messageId: randomUUID(),
    contextId: contextId ?? '',
    taskId: '',
    role: 1,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  } as A2AMessage;
}

function inputText(history: readonly Message[], input: RunInput): string {
  const messages = typeof input === 'string' ? undefined : input.length > 0 ? input : history;
  if (!messages) return input as string;
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'user') return messageText(messages[i]);
  return '';
}

function isNetworkError(err: unknown): boolean {
  const text = `${(err as Error)?.message ?? ''} ${String((err as { cause?: unknown })?.cause ?? '')}`;
  return /fetch failed|ECONNREFUSED|ENOTFOUND|ECONNRESET|Failed to fetch/i.test(text);
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}
