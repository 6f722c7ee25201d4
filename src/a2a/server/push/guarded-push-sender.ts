import type { StreamResponse, Task } from '@a2a-js/sdk';
import { V03PushNotificationSerializer } from '@a2a-js/sdk/compat/v0_3/server';
import {
  type PushNotificationSender,
  type PushNotificationSerializer,
  type PushNotificationStore,
  type ServerCallContext,
  V1PushNotificationSerializer,
} from '@a2a-js/sdk/server';

import { redactedErrorMessage, redactUrl, redactUrls } from '../../../core/redact-urls.js';
import { LOOPBACK_HOSTS, pushUrlProblem } from './push-url-policy.js';

/** Where warnings about push notifications go. */
export interface A2ALogger {
  warn(message: string): void;
}

/** Options for `GuardedPushSender`. */
export interface GuardedPushSenderOptions {
  store: PushNotificationStore;
  /**
   * Hosts (`URL.hostname`, e.g. `127.0.0.1`, `hooks.example.com`, `[::1]`) webhooks may be delivered
   * to; `*` allows any. Default: loopback only. Registration refuses other hosts (see
   * `pushUrlProblem`); a config stored otherwise is skipped with a warning, never contacted.
   */
  allowedHosts?: readonly string[];
  /** Attempts per notification (first try included). Default 4. */
  attempts?: number;
  /** First retry delay in ms, doubled each retry. Default 250. */
  initialDelayMs?: number;
  /** Per-attempt timeout in ms. Default 5000. */
  timeoutMs?: number;
  logger?: A2ALogger;
  /** True while the store certainly holds no config (e.g. none was ever registered): events are then not looked up. */
  unused?: () => boolean;
}

/**
 * Delivers task events to registered webhooks by HTTP POST, in order per task, retrying network
 * failures, 429 and 5xx answers with exponential backoff. Only http(s) URLs without credentials
 * on allowed hosts are contacted (SSRF guard; `pushUrlProblem`); another config is skipped with a
 * warning. Warnings never contain a URL's credentials, query string or fragment.
 */
export class GuardedPushSender implements PushNotificationSender {
  private readonly chains = new Map<string, Promise<void>>();
  private readonly warned = new Set<string>();
  private readonly serializers: Record<string, PushNotificationSerializer> = {
    '1.0': new V1PushNotificationSerializer(),
    '0.3': new V03PushNotificationSerializer(),
  };

  constructor(private readonly options: GuardedPushSenderOptions) {}

  /** Why `url` can never be contacted (scheme, credentials, host not allowed), or undefined when it may be. */
  problem(url: string): string | undefined {
    return pushUrlProblem(url, this.options.allowedHosts ?? LOOPBACK_HOSTS);
  }

  /** True when `url` may be contacted. */
  allows(url: string): boolean {
    return this.problem(url) === undefined;
  }

  /** True while no webhook can be registered for any task (see `GuardedPushSenderOptions.unused`). */
  get unused(): boolean {
    return this.options.unused?.() === true;
  }

  async send(streamResponse: StreamResponse, context: ServerCallContext, task?: Task): Promise<void> {
    if (this.unused) return;
    const taskId = taskIdOf(streamResponse);
    if (!taskId) return;
    let configs: Awaited<ReturnType<NonNullable<PushNotificationStore['loadWithMetadata']>>>;
    try {
      configs = this.options.store.loadWithMetadata
        ? await this.options.store.loadWithMetadata(taskId, context)
        : (await this.options.store.load(taskId, context)).map((config) => ({ config, wireVersion: context.requestedVersion }));
    } catch (err) {
      this.warn(`A2A push notifications for task ${taskId} not sent: its push configs cannot be read: ${redactedErrorMessage(err)}`);
      return;
    }
    if (configs.length === 0) return;
    // One chain per task keeps its notifications in order.
    const previous = this.chains.get(taskId) ?? Promise.resolve();
    const next = previous.then(() =>
      Promise.all(
        configs.map(async ({ config, wireVersion }) => {
          const problem = this.problem(config.url);
          if (problem !== undefined) {
            const key = `${taskId} ${config.url}`;
            if (!this.warned.has(key)) {
              this.warned.add(key);
              this.warn(`A2A push notification for task ${taskId} to ${redactUrl(config.url)} not delivered: ${problem}`);
            }
            return;
          }
          const serializer = this.serializers[wireVersion.startsWith('0.') ? '0.3' : '1.0'];
          const { body, contentType } = serializer.serialize(streamResponse, task);
          const headers: Record<string, string> = { 'content-type': contentType };
          if (config.authentication?.scheme)
            headers.authorization = `${config.authentication.scheme} ${config.authentication.credentials}`.trim();
          else if (config.token) headers['x-a2a-notification-token'] = config.token;
          await this.deliver(config.url, body, headers, taskId);
        }),
      ).then(() => undefined),
    );
    this.chains.set(taskId, next);
    const forget = () => {
      if (this.chains.get(taskId) === next) this.chains.delete(taskId);
    };
    // On either outcome; a rejection reaches the caller through the `await` below, not a second time from here.
    void next.then(forget, forget);
    await next;
  }

  private async deliver(url: string, body: string, headers: Record<string, string>, taskId: string): Promise<void> {
    const attempts = this.options.attempts ?? 4;
    let delay = this.options.initialDelayMs ?? 250;
    let lastProblem = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const res = await fetch(url, {
          method: 'POST',
          body,
          headers,
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
          redirect: 'manual',
        });
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) return;
        lastProblem = `HTTP ${res.status}`;
        if (res.status !== 429 && res.status < 500) break;
      } catch (err) {
        lastProblem = redactedErrorMessage(err);
      }
      if (attempt < attempts) {
        await new Promise((r) => setTimeout(r, delay));
        delay *= 2;
      }
    }
    this.warn(`A2A push notification for task ${taskId} to ${redactUrl(url)} failed: ${lastProblem}`);
  }

  /** Logs `message` with every URL in it redacted. */
  private warn(message: string): void {
    const safe = redactUrls(message);
    if (this.options.logger) this.options.logger.warn(safe);
    else console.warn(safe);
  }
}

function taskIdOf(response: StreamResponse): string {
  const p = response.payload;
  if (!p) return '';
  switch (p.$case) {
    case 'task':
      return p.value.id;
    case 'message':
      return p.value.taskId;
    case 'statusUpdate':
      return p.value.taskId;
    case 'artifactUpdate':
      return p.value.taskId;
    default: {
      const never: never = p;
      return never;
    }
  }
}
