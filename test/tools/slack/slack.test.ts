/**
 * The Slack tools against a fake Slack Web API on 127.0.0.1: what is sent (method, token header,
 * form fields), what comes back, Slack's `ok: false` errors as clear tool errors, the channel
 * allow-list, and the token never showing in results, errors, events or logs.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { Agent } from '../../../src/core/agent.js';
import { ScriptedModel } from '../../../src/testing/index.js';
import { slackTools, type SlackToolsOptions } from '../../../src/tools/slack/index.js';
import type { Tool, ToolContext } from '../../../src/types/tool.js';
import { type FakeSlack, startFakeSlack } from './fake-slack-server.js';

const TOKEN = 'xoxb-1111-2222-SECRETsecretSECRET';
const ctx = (): ToolContext => ({
  signal: new AbortController().signal,
  agent: 't',
  path: ['t'],
  runId: 'r',
  toolCallId: 'c',
  idempotencyKey: 'r:c',
  messages: [],
  state: undefined as never,
});

let slack: FakeSlack;
beforeAll(async () => {
  slack = await startFakeSlack(TOKEN);
});
afterAll(() => slack.close());

const tools = (options: Partial<SlackToolsOptions> = {}): Record<string, Tool> =>
  Object.fromEntries(slackTools({ token: TOKEN, slackApiUrl: slack.apiUrl, ...options }).map((t) => [t.name, t]));
const run = async (name: string, args: Record<string, unknown>, options: Partial<SlackToolsOptions> = {}) =>
  (await tools(options)[name].execute(args, ctx())) as Record<string, unknown>;

describe('slack tools', () => {
  it('posts a message by channel name: resolves it with conversations.list (paged), then chat.postMessage with the token in the header', async () => {
    slack.calls.length = 0;
    const result = await run('slack_post_message', { channel: '#ops-alerts', text: 'Disk is *full*' });
    expect(result).toEqual({ channel: 'G03OPS', channelName: 'ops-alerts', ts: expect.stringMatching(/^1700000100\./) });
    expect(slack.calls.map((c) => c.method)).toEqual(['conversations.list', 'conversations.list', 'chat.postMessage']);
    expect(slack.calls[1].params).toMatchObject({ cursor: 'page2', types: 'public_channel,private_channel', exclude_archived: 'true' });
    const post = slack.calls[2];
    expect(post.authorization).toBe(`Bearer ${TOKEN}`);
    expect(post.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(post.params).toMatchObject({ channel: 'G03OPS', text: 'Disk is *full*' });
    expect(post.params.token).toBeUndefined();
    expect(slack.posted.at(-1)).toMatchObject({ channel: 'G03OPS', text: 'Disk is *full*' });
  });

  it('replies in a thread by channel ID, without listing channels', async () => {
    slack.calls.length = 0;
    const result = await run('slack_post_message', {
      channel: 'C01GENERAL',
      text: 'Looks good',
      thread_ts: '1700000002.000200',
      reply_broadcast: true,
    });
    expect(result).toMatchObject({ channel: 'C01GENERAL', threadTs: '1700000002.000200' });
    expect(slack.calls.map((c) => c.method)).toEqual(['chat.postMessage']);
    expect(slack.calls[0].params).toMatchObject({
      channel: 'C01GENERAL',
      text: 'Looks good',
      thread_ts: '1700000002.000200',
      reply_broadcast: 'true',
    });
  });

  it('reads recent channel history with ts, thread info and a limit', async () => {
    const result = await run('slack_read_channel', { channel: 'general', limit: 2 });
    expect(result).toEqual({
      channel: 'C01GENERAL',
      channelName: 'general',
      hasMore: true,
      messages: [
        { ts: '1700000002.000200', user: 'U2', text: 'Deploy done', threadTs: '1700000002.000200', replyCount: 2 },
        { ts: '1700000001.000100', user: 'U1', text: 'Deploying now' },
      ],
    });
    expect(slack.calls.at(-1)).toMatchObject({ method: 'conversations.history', params: { channel: 'C01GENERAL', limit: '2' } });
  });

  it('lists channels, filtered by name or membership', async () => {
    const all = (await run('slack_list_channels', {})) as { channels: Array<{ id: string; name: string }> };
    expect(all.channels.map((c) => c.name)).toEqual(['general', 'random', 'ops-alerts']);
    expect(all.channels[2]).toEqual({ id: 'G03OPS', name: 'ops-alerts', isPrivate: true, isMember: true, topic: 'Pager', members: 5 });
    expect(((await run('slack_list_channels', { member_only: true })) as typeof all).channels.map((c) => c.name)).toEqual([
      'general',
      'ops-alerts',
    ]);
    expect(((await run('slack_list_channels', { query: '#ops' })) as typeof all).channels.map((c) => c.name)).toEqual(['ops-alerts']);
  });

  it('turns ok:false answers into clear errors', async () => {
    await expect(run('slack_post_message', { channel: 'random', text: 'hi' })).rejects.toThrow(
      'Slack chat.postMessage failed: not_in_channel (the bot is not a member of the channel (invite it first))',
    );
    await expect(run('slack_read_channel', { channel: 'C09NOPE' })).rejects.toThrow(
      'Slack conversations.history failed: channel_not_found (the channel does not exist or the bot cannot see it)',
    );
    await expect(run('slack_read_channel', { channel: '#nope' })).rejects.toThrow(
      'No channel named "#nope" that the bot can see; list channels with slack_list_channels',
    );
  });

  it('says when Slack rate limits, without retrying', async () => {
    slack.rateLimitNext(7);
    const before = slack.calls.length;
    await expect(run('slack_read_channel', { channel: 'C01GENERAL' })).rejects.toThrow(
      'Slack conversations.history was rate limited: retry after 7 seconds',
    );
    expect(slack.calls.length).toBe(before + 1);
  });

  it('keeps to the channel allow-list for posting, reading and listing', async () => {
    const only = { channels: ['#general', 'G03OPS'] };
    await expect(run('slack_post_message', { channel: 'random', text: 'x' }, only)).rejects.toThrow(
      'Channel "random" is not one of the channels these Slack tools may use',
    );
    await expect(run('slack_read_channel', { channel: 'C02RANDOM' }, only)).rejects.toThrow(
      'Channel "C02RANDOM" is not one of the channels',
    );
    expect(((await run('slack_list_channels', {}, only)) as { channels: Array<{ name: string }> }).channels.map((c) => c.name)).toEqual([
      'general',
      'ops-alerts',
    ]);
    expect(await run('slack_read_channel', { channel: 'ops-alerts' }, only)).toMatchObject({
      channel: 'G03OPS',
      messages: [{ text: 'Disk 91% on db-1' }],
    });
  });

  it('shows the approver the message it would post', async () => {
    expect(await tools().slack_post_message.preview!({ channel: '#general', text: 'Ship it', thread_ts: '1.2' })).toBe(
      'Post to #general (in thread 1.2):\nShip it',
    );
  });

  it('checks its options', () => {
    expect(() => slackTools({ token: '' })).toThrow('slackTools: token is required');
    expect(() => slackTools({ token: TOKEN, slackApiUrl: 'ftp://x' })).toThrow('slackApiUrl must be an http(s) URL');
    expect(() => slackTools({ token: TOKEN, tools: ['slack_delete' as never] })).toThrow('unknown tool "slack_delete"');
    expect(slackTools({ token: TOKEN, tools: ['slack_list_channels'] }).map((t) => t.name)).toEqual(['slack_list_channels']);
  });

  it('times out a Slack API that does not answer', async () => {
    const { createServer } = await import('node:http');
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/api/`;
    try {
      await expect(run('slack_read_channel', { channel: 'C01GENERAL' }, { slackApiUrl: url, timeoutMs: 200 })).rejects.toThrow(
        'Slack conversations.history timed out after 200 ms',
      );
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe('the token stays secret', () => {
  it('is in no result, error, event or log line of a run, also when Slack refuses it', async () => {
    const logged: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...a: unknown[]) => void logged.push(a.map(String).join(' '))),
    );
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => (logged.push(String(chunk)), true));
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => (logged.push(String(chunk)), true));
    try {
      const model = new ScriptedModel([
        {
          toolCalls: [
            { toolName: 'slack_post_message', input: { channel: 'C01GENERAL', text: 'hello' }, toolCallId: 'a' },
            { toolName: 'slack_read_channel', input: { channel: 'C02RANDOM' }, toolCallId: 'b' },
          ],
        },
        { text: 'done' },
      ]);
      const wrong = 'xoxb-9999-WRONG-token-value';
      const events: unknown[] = [];
      const agent = new Agent({ name: 'notifier', model, tools: slackTools({ token: wrong, slackApiUrl: slack.apiUrl }) });
      const stream = agent.stream('Post hello');
      for await (const e of stream) events.push(e);
      const result = await stream.result;
      const outputs = result.steps[0].toolResults;
      expect(outputs.map((r) => r.output)).toEqual([
        'Tool "slack_post_message" failed: Slack chat.postMessage failed: invalid_auth (the token was refused)',
        'Tool "slack_read_channel" failed: Slack conversations.history failed: invalid_auth (the token was refused)',
      ]);
      const everything = JSON.stringify({ result, events, model: model.calls }) + logged.join('\n');
      expect(everything).not.toContain(wrong);
      expect(everything).not.toContain('WRONG-token');
      expect(slack.calls.at(-1)?.authorization).toBe(`Bearer ${wrong}`); // it was sent, to Slack only
    } finally {
      spies.forEach((s) => s.mockRestore());
      stdout.mockRestore();
      stderr.mockRestore();
    }
  });
});
