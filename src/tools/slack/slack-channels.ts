import type { SlackApi } from './slack-api.js';
import { SlackToolError } from './slack-tool-error.js';

/** A channel as the tools show it. */
export interface SlackChannel {
  id: string;
  name: string;
  isPrivate: boolean;
  isMember: boolean;
  topic?: string;
  purpose?: string;
  members?: number;
}

interface RawChannel {
  id: string;
  name?: string;
  is_private?: boolean;
  is_member?: boolean;
  topic?: { value?: string };
  purpose?: { value?: string };
  num_members?: number;
}

const CHANNEL_ID = /^[CGD][A-Z0-9]{2,}$/;
const MAX_PAGES = 20;
const CACHE_MS = 60_000;

/** Maps a Slack channel object to what the tools return. */
export function channelView(c: RawChannel): SlackChannel {
  return {
    id: c.id,
    name: c.name ?? c.id,
    isPrivate: c.is_private === true,
    isMember: c.is_member === true,
    ...(c.topic?.value ? { topic: c.topic.value } : {}),
    ...(c.purpose?.value ? { purpose: c.purpose.value } : {}),
    ...(typeof c.num_members === 'number' ? { members: c.num_members } : {}),
  };
}

/**
 * Channel names and IDs: resolves `#name` / `name` to an ID (from `conversations.list`, cached
 * for a minute) and enforces the `channels` allow-list by name or ID.
 */
export class SlackChannels {
  private readonly allowed: Set<string> | undefined;
  private cache: { at: number; channels: Promise<SlackChannel[]> } | undefined;

  constructor(
    private readonly api: SlackApi,
    allowList: readonly string[] | undefined,
  ) {
    this.allowed = allowList && allowList.length > 0 ? new Set(allowList.map(normalize)) : undefined;
  }

  /** True when the allow-list (if any) holds the channel's name or ID. */
  allows(channel: { id: string; name?: string }): boolean {
    return !this.allowed || this.allowed.has(channel.id) || (channel.name !== undefined && this.allowed.has(normalize(channel.name)));
  }

  /** The channel ID for a name or ID the model gave; throws when unknown or not allowed. */
  async resolve(input: string, signal?: AbortSignal): Promise<{ id: string; name?: string }> {
    const text = input.trim();
    const needsList = !CHANNEL_ID.test(text) || this.allowed !== undefined;
    const known = needsList ? await this.all(signal) : [];
    let found: { id: string; name?: string } | undefined;
    if (CHANNEL_ID.test(text)) found = known.find((c) => c.id === text) ?? { id: text };
    else found = known.find((c) => c.name === normalize(text));
    if (!found) throw new SlackToolError(`No channel named "${text}" that the bot can see; list channels with slack_list_channels`);
    if (!this.allows(found)) throw new SlackToolError(`Channel "${text}" is not one of the channels these Slack tools may use`);
    return found;
  }

  /** Every channel the bot can see (public and private, not archived), cached for a minute. */
  all(signal?: AbortSignal): Promise<SlackChannel[]> {
    if (this.cache && Date.now() - this.cache.at < CACHE_MS) return this.cache.channels;
    const channels = this.fetchAll(signal);
    this.cache = { at: Date.now(), channels };
    channels.catch(() => (this.cache = undefined));
    return channels;
  }

  private async fetchAll(signal?: AbortSignal): Promise<SlackChannel[]> {
    const out: SlackChannel[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await this.api.call<{ channels?: RawChannel[]; response_metadata?: { next_cursor?: string } }>(
        'conversations.list',
        { types: 'public_channel,private_channel', exclude_archived: true, limit: 200, ...(cursor ? { cursor } : {}) },
        signal,
      );
      out.push(...(res.channels ?? []).map(channelView));
      cursor = res.response_metadata?.next_cursor || undefined;
      if (!cursor) break;
    }
    return out;
  }
}

const normalize = (name: string): string => (CHANNEL_ID.test(name.trim()) ? name.trim() : name.trim().replace(/^#/, '').toLowerCase());
