/**
 * The Slack tools: `slack_post_message` (also replies in threads), `slack_read_channel` (recent
 * history) and `slack_list_channels`, through `@slack/web-api` (an optional package, loaded on
 * first use). The token stays out of results, errors and logs.
 * @example
 * import { slackTools } from 'corvid/tools';
 * const agent = new Agent({ name: 'notifier', model, tools: slackTools({ token: process.env.SLACK_BOT_TOKEN!, channels: ['#alerts'] }) });
 */
import { ValidationError } from '../../errors/validation-error.js';
import type { Tool } from '../../types/tool.js';
import { SlackApi } from './slack-api.js';
import { SlackChannels } from './slack-channels.js';
import { listChannelsTool, postMessageTool, readChannelTool, type SlackToolScope } from './slack-tools.js';
import type { SlackToolName, SlackToolsOptions } from './slack-tools-options.js';

export type { SlackChannel } from './slack-channels.js';
export { SlackToolError } from './slack-tool-error.js';
export type { SlackToolName, SlackToolsOptions } from './slack-tools-options.js';

const MAKERS: Record<SlackToolName, (scope: SlackToolScope) => Tool> = {
  slack_post_message: postMessageTool,
  slack_read_channel: readChannelTool,
  slack_list_channels: listChannelsTool,
};

/** The Slack tools (all three unless `tools` picks some). */
export function slackTools(options: SlackToolsOptions): Tool[] {
  if (typeof options?.token !== 'string' || options.token.trim() === '')
    throw new ValidationError('slackTools: token is required (a bot token, xoxb-…)');
  const maxMessages = options.maxMessages ?? 50;
  if (!Number.isInteger(maxMessages) || maxMessages < 1 || maxMessages > 1000)
    throw new ValidationError(`slackTools: maxMessages must be an integer from 1 to 1000, got ${maxMessages}`);
  const timeoutMs = options.timeoutMs ?? 15_000;
  if (!(timeoutMs > 0)) throw new ValidationError(`slackTools: timeoutMs must be positive, got ${timeoutMs}`);
  if (options.slackApiUrl !== undefined && !/^https?:\/\//.test(options.slackApiUrl))
    throw new ValidationError(`slackTools: slackApiUrl must be an http(s) URL, got "${options.slackApiUrl}"`);
  const api = new SlackApi({ token: options.token, slackApiUrl: options.slackApiUrl, timeoutMs, retries: options.retries ?? 0 });
  const scope: SlackToolScope = { api, channels: new SlackChannels(api, options.channels), maxMessages };
  const names = options.tools ?? (Object.keys(MAKERS) as SlackToolName[]);
  return names.map((name) => {
    const make = MAKERS[name];
    if (!make) throw new ValidationError(`slackTools: unknown tool "${String(name)}" (known: ${Object.keys(MAKERS).join(', ')})`);
    return make(scope);
  });
}
