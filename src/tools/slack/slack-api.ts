import type { WebClient } from '@slack/web-api';

import { loadPeer } from '../../errors/load-peer.js';
import { SlackToolError } from './slack-tool-error.js';

/** Options of `SlackApi`. */
export interface SlackApiOptions {
  token: string;
  slackApiUrl?: string;
  timeoutMs: number;
  retries: number;
}

// What Slack's error codes mean, for the model.
const HINTS: Record<string, string> = {
  channel_not_found: 'the channel does not exist or the bot cannot see it',
  not_in_channel: 'the bot is not a member of the channel (invite it first)',
  is_archived: 'the channel is archived',
  invalid_auth: 'the token was refused',
  not_authed: 'no token was sent',
  account_inactive: 'the token belongs to a deactivated bot or user',
  token_revoked: 'the token was revoked',
  missing_scope: 'the token lacks an OAuth scope this call needs',
  msg_too_long: 'the message is too long',
  no_text: 'the message has no text',
  thread_not_found: 'there is no thread with that thread_ts',
  ratelimited: 'Slack is rate limiting these calls',
};

const silent = { debug() {}, info() {}, warn() {}, error() {}, setLevel() {}, getLevel: () => 'error', setName() {} };

/**
 * The Web API calls of the Slack tools, through `@slack/web-api` (loaded on first use). Each
 * call gets the tool call's signal and a time limit; failures become `SlackToolError`s with
 * Slack's error code explained and the token removed from any text.
 */
export class SlackApi {
  private module: Promise<typeof import('@slack/web-api')> | undefined;

  constructor(private readonly options: SlackApiOptions) {}

  /** Calls a Web API method (`chat.postMessage`, …) and returns its result (`ok: true`). */
  async call<T = Record<string, unknown>>(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
    const client = await this.client(signal);
    try {
      return (await client.apiCall(method, params)) as T;
    } catch (err) {
      throw this.explain(method, err);
    }
  }

  private async client(signal: AbortSignal | undefined): Promise<WebClient> {
    this.module ??= loadPeer({ packages: '@slack/web-api', feature: 'The Slack tools', load: () => import('@slack/web-api') }).catch(
      (err: unknown) => {
        this.module = undefined;
        throw err;
      },
    );
    const { WebClient } = await this.module;
    const { timeoutMs } = this.options;
    return new WebClient(this.options.token, {
      ...(this.options.slackApiUrl ? { slackApiUrl: withSlash(this.options.slackApiUrl) } : {}),
      timeout: timeoutMs,
      retryConfig: { retries: this.options.retries, factor: 2, minTimeout: 200, maxTimeout: 2_000 },
      rejectRateLimitedCalls: true,
      allowAbsoluteUrls: false,
      logger: silent as never,
      fetch: (url, init) =>
        fetch(url, {
          ...(init as RequestInit),
          signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
        }) as never,
    });
  }

  private explain(method: string, err: unknown): SlackToolError {
    const e = err as {
      code?: string;
      data?: { error?: string; needed?: string };
      retryAfter?: number;
      statusCode?: number;
      message?: string;
      original?: { name?: string; message?: string };
    };
    let message: string;
    switch (e.code) {
      case 'slack_webapi_platform_error': {
        const code = e.data?.error ?? 'unknown_error';
        const hint = HINTS[code];
        message = `Slack ${method} failed: ${code}${hint ? ` (${hint}${code === 'missing_scope' && e.data?.needed ? `: ${e.data.needed}` : ''})` : ''}`;
        break;
      }
      case 'slack_webapi_rate_limited_error':
        message = `Slack ${method} was rate limited: retry after ${e.retryAfter ?? '?'} seconds`;
        break;
      case 'slack_webapi_http_error':
        message = `Slack ${method} failed: HTTP ${e.statusCode ?? '?'}`;
        break;
      case 'slack_webapi_request_error':
        message = /abort|timeout/i.test(`${e.original?.name} ${e.original?.message}`)
          ? `Slack ${method} timed out after ${this.options.timeoutMs} ms`
          : `Slack ${method} failed: could not reach the Slack API (${e.original?.message ?? 'request error'})`;
        break;
      default:
        message = `Slack ${method} failed: ${e.message ?? String(err)}`;
    }
    return new SlackToolError(this.redact(message));
  }

  /** Removes the token from a text. */
  redact(text: string): string {
    return this.options.token ? text.split(this.options.token).join('[token]') : text;
  }
}

const withSlash = (url: string): string => (url.endsWith('/') ? url : `${url}/`);
