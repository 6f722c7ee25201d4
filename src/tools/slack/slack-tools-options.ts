/** The Slack tools by name. */
export type SlackToolName = 'slack_post_message' | 'slack_read_channel' | 'slack_list_channels';

/** Options of `slackTools()`. */
export interface SlackToolsOptions {
  /** Bot token (`xoxb-…`). A secret: it is sent only in the Authorization header, never put in results, errors or logs. */
  token: string;
  /** Base URL of the Web API, ending in `/`. Default `https://slack.com/api/`. */
  slackApiUrl?: string;
  /**
   * Channels the tools may use — names (`general` or `#general`) or IDs (`C0123…`). Default: every
   * channel the bot can see. Listing and reading other channels, or posting to them, is refused.
   */
  channels?: readonly string[];
  /** Most messages `slack_read_channel` returns per call. Default 50 (Slack's page limit is 1000). */
  maxMessages?: number;
  /** Time limit of one API call, in milliseconds. Default 15,000. */
  timeoutMs?: number;
  /** Retries of a failed request (network errors and 5xx; rate-limited calls are not retried, they fail with the wait time). Default 0. */
  retries?: number;
  /** Which tools to make. Default all three. */
  tools?: readonly SlackToolName[];
}
