import { z } from 'zod';

import type { SlackToolsOptions } from '../../tools/slack/slack-tools-options.js';
import { durationSchema, durationToMs } from '../duration-schema.js';

/** `tools: { <id>: { type: slack, token: ${SLACK_BOT_TOKEN}, … } }` — post, read channel history, list channels. */
export const slackToolEntrySchema = z
  .strictObject({
    type: z
      .literal('slack')
      .describe(
        'Slack tools: slack_post_message (also replies in threads), slack_read_channel (recent history), slack_list_channels. Needs the optional package @slack/web-api.',
      ),
    token: z
      .string()
      .min(1, { error: 'the Slack bot token is empty (is the environment variable set?)' })
      .describe('Bot token (xoxb-…), e.g. ${SLACK_BOT_TOKEN}. Never shown in results, errors or logs.'),
    slack_api_url: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe('Base URL of the Slack Web API. Default https://slack.com/api/.'),
    channels: z
      .array(z.string().min(1))
      .optional()
      .describe('Channels the tools may use, by name (general, #general) or ID. Default: every channel the bot can see.'),
    max_messages: z.int().min(1).max(1000).optional().describe('Most messages slack_read_channel returns per call. Default 50.'),
    timeout: durationSchema.optional().describe('Time limit of one Slack API call. Default 15s.'),
    retries: z
      .int()
      .min(0)
      .optional()
      .describe('Retries of a request that failed (network errors, 5xx); rate-limited calls fail at once with the wait time. Default 0.'),
    tools: z
      .array(z.enum(['slack_post_message', 'slack_read_channel', 'slack_list_channels']))
      .optional()
      .describe('Which tools to offer. Default all three.'),
  })
  .describe('Built-in Slack tools (Web API).');

/** A validated `type: slack` entry. */
export type SlackToolEntry = z.output<typeof slackToolEntrySchema>;

/** The `slackTools()` options of a `type: slack` entry. */
export function slackToolOptions(entry: SlackToolEntry, _ctx: { baseDir: string }): SlackToolsOptions {
  const options: SlackToolsOptions = { token: entry.token };
  if (entry.slack_api_url !== undefined) options.slackApiUrl = entry.slack_api_url;
  if (entry.channels) options.channels = entry.channels;
  if (entry.max_messages !== undefined) options.maxMessages = entry.max_messages;
  if (entry.timeout !== undefined) options.timeoutMs = durationToMs(entry.timeout);
  if (entry.retries !== undefined) options.retries = entry.retries;
  if (entry.tools) options.tools = entry.tools;
  return options;
}
