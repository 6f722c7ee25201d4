import { z } from 'zod';

import { tool } from '../../core/tool.js';
import type { Tool } from '../../types/tool.js';
import type { SlackApi } from './slack-api.js';
import type { SlackChannel, SlackChannels } from './slack-channels.js';
import { channelView } from './slack-channels.js';

/** What the Slack tools share. */
export interface SlackToolScope {
  api: SlackApi;
  channels: SlackChannels;
  maxMessages: number;
}

const channelArg = z.string().min(1).describe('Channel name (general or #general) or ID (C0123ABCD)');

/** `slack_post_message`: a message, or a reply in a thread. */
export function postMessageTool({ api, channels }: SlackToolScope): Tool {
  return tool({
    name: 'slack_post_message',
    description:
      "Post a message to a Slack channel, or reply in a thread (give thread_ts, the ts of the thread's first message). Slack mrkdwn formatting works.",
    input: z.object({
      channel: channelArg,
      text: z.string().min(1).max(40_000).describe('The message text'),
      thread_ts: z.string().optional().describe('Reply in this thread (ts of its parent message)'),
      reply_broadcast: z.boolean().optional().describe('Thread replies only: also show the reply in the channel'),
    }),
    preview: ({ channel, text, thread_ts }) => `Post to ${channel}${thread_ts ? ` (in thread ${thread_ts})` : ''}:\n${text}`,
    execute: async ({ channel, text, thread_ts, reply_broadcast }, ctx) => {
      const target = await channels.resolve(channel, ctx.signal);
      const res = await api.call<{ channel?: string; ts?: string }>(
        'chat.postMessage',
        {
          channel: target.id,
          text,
          ...(thread_ts ? { thread_ts } : {}),
          ...(thread_ts && reply_broadcast ? { reply_broadcast: true } : {}),
        },
        ctx.signal,
      );
      return {
        channel: res.channel ?? target.id,
        ...(target.name ? { channelName: target.name } : {}),
        ts: res.ts,
        ...(thread_ts ? { threadTs: thread_ts } : {}),
      };
    },
  });
}

interface RawMessage {
  ts?: string;
  user?: string;
  bot_id?: string;
  username?: string;
  text?: string;
  thread_ts?: string;
  reply_count?: number;
  subtype?: string;
}

/** `slack_read_channel`: the most recent messages of a channel. */
export function readChannelTool({ api, channels, maxMessages }: SlackToolScope): Tool {
  return tool({
    name: 'slack_read_channel',
    description:
      'Read the most recent messages of a Slack channel, newest first. Each message has its ts (use it as thread_ts to reply in its thread).',
    input: z.object({
      channel: channelArg,
      limit: z
        .number()
        .int()
        .min(1)
        .max(maxMessages)
        .optional()
        .describe(`How many messages (default ${Math.min(20, maxMessages)}, at most ${maxMessages})`),
      oldest: z.string().optional().describe('Only messages after this ts'),
    }),
    execute: async ({ channel, limit, oldest }, ctx) => {
      const target = await channels.resolve(channel, ctx.signal);
      const res = await api.call<{ messages?: RawMessage[]; has_more?: boolean }>(
        'conversations.history',
        { channel: target.id, limit: limit ?? Math.min(20, maxMessages), ...(oldest ? { oldest } : {}) },
        ctx.signal,
      );
      const messages = (res.messages ?? []).map((m) => ({
        ts: m.ts,
        user: m.user ?? m.username ?? m.bot_id,
        text: m.text ?? '',
        ...(m.thread_ts ? { threadTs: m.thread_ts } : {}),
        ...(m.reply_count ? { replyCount: m.reply_count } : {}),
        ...(m.subtype ? { subtype: m.subtype } : {}),
      }));
      return { channel: target.id, ...(target.name ? { channelName: target.name } : {}), messages, hasMore: res.has_more === true };
    },
  });
}

/** `slack_list_channels`: the channels the bot can see (and may use). */
export function listChannelsTool({ channels }: SlackToolScope): Tool {
  return tool({
    name: 'slack_list_channels',
    description:
      'List the Slack channels the bot can see: id, name, whether it is private, whether the bot is a member, topic and purpose.',
    input: z.object({
      query: z.string().optional().describe('Only channels whose name contains this text'),
      member_only: z.boolean().optional().describe('Only channels the bot is a member of'),
    }),
    execute: async ({ query, member_only }, ctx) => {
      const all: SlackChannel[] = await channels.all(ctx.signal);
      const q = query?.trim().replace(/^#/, '').toLowerCase();
      const list = all.filter((c) => channels.allows(c) && (!q || c.name.includes(q)) && (!member_only || c.isMember));
      return {
        channels: list.map((c) =>
          channelView({
            id: c.id,
            name: c.name,
            is_private: c.isPrivate,
            is_member: c.isMember,
            topic: { value: c.topic },
            purpose: { value: c.purpose },
            num_members: c.members,
          }),
        ),
      };
    },
  });
}
