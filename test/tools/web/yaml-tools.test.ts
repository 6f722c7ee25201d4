/**
 * The web, slack and rest tool families from corvid.yaml: an agent built from the file (its
 * model swapped for a scripted one) reads a local page with web_fetch, calls tools of Corvid's
 * own REST gateway and posts to a fake Slack; bad entries are config errors with their path.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { tool } from '../../../src/core/tool.js';
import { ConfigError } from '../../../src/errors/config-error.js';
import { createMcpServer, type McpHttpServer, serveMcpHttp } from '../../../src/mcp/index.js';
import { loadRuntime } from '../../../src/runtime/load-runtime.js';
import { ScriptedModel } from '../../../src/testing/index.js';
import { type FakeSlack, startFakeSlack } from '../slack/fake-slack-server.js';
import { startPageServer } from './support.js';

const GATEWAY_TOKEN = 'yaml-gateway-token-42';
const SLACK_TOKEN = 'xoxb-yaml-secret-token';
const stock = tool({
  name: 'stock',
  description: 'Units in stock of a SKU',
  input: z.object({ sku: z.string() }),
  execute: ({ sku }) => ({ sku, units: 12 }),
});

let pages: Awaited<ReturnType<typeof startPageServer>>;
let gateway: McpHttpServer;
let slack: FakeSlack;
const dirs: string[] = [];

beforeAll(async () => {
  pages = await startPageServer({
    '/price-list': (_q, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<html><head><title>Price list</title></head><body><article><h1>Price list</h1><p>SKU A-1 costs 4 euros per unit this week, down from 5 euros last week, while supplies last.</p></article></body></html>',
        ),
  });
  gateway = await serveMcpHttp(createMcpServer({ name: 'inventory', tools: [stock] }), {
    port: 0,
    authenticate: (t) => t === GATEWAY_TOKEN,
  });
  slack = await startFakeSlack(SLACK_TOKEN);
});
afterAll(async () => {
  await Promise.all([pages.close(), gateway.close(), slack.close()]);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function project(yaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-yaml-tools-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'corvid.yaml'), yaml);
  return dir;
}

describe('tools: type web / rest / slack in corvid.yaml', () => {
  it('builds an agent whose model reads a page, asks the inventory server and posts to Slack', async () => {
    const cwd = project(`tools:
  web:
    type: web
    allow_hosts: [127.0.0.1]
    max_chars: 2000
    timeout: 10s
  inventory:
    type: rest
    url: ${gateway.url}
    token: \${INVENTORY_TOKEN}
    prefix: inv_
  slack:
    type: slack
    token: \${SLACK_BOT_TOKEN}
    slack_api_url: ${slack.apiUrl}
    channels: ["#general"]
agents:
  buyer:
    model: ollama:llama3.2
    tools: [web.web_fetch, inventory, slack.slack_post_message]
`);
    const runtime = await loadRuntime({ cwd, env: { INVENTORY_TOKEN: GATEWAY_TOKEN, SLACK_BOT_TOKEN: SLACK_TOKEN } });
    const buyer = runtime.agent('buyer');
    expect(buyer.tools.map((t) => t.name)).toEqual(['web_fetch', 'inv_stock', 'slack_post_message']);
    const model = new ScriptedModel([
      {
        toolCalls: [
          { toolName: 'web_fetch', input: { url: `${pages.url}/price-list` }, toolCallId: 'w' },
          { toolName: 'inv_stock', input: { sku: 'A-1' }, toolCallId: 'i' },
        ],
      },
      {
        toolCalls: [{ toolName: 'slack_post_message', input: { channel: '#general', text: 'A-1: 12 units at 4 euros' }, toolCallId: 's' }],
      },
      { text: 'A-1 costs 4 euros and 12 are in stock; I told #general.' },
    ]);
    buyer.setModel(model);
    const result = await buyer.run('What does A-1 cost and how many do we have? Tell the team.');
    expect(result.text).toBe('A-1 costs 4 euros and 12 are in stock; I told #general.');
    const [page, units] = result.steps[0].toolResults;
    expect(page).toMatchObject({
      isError: false,
      output: { url: `${pages.url}/price-list`, title: 'Price list', content: expect.stringContaining('SKU A-1 costs 4 euros per unit') },
    });
    expect(units).toMatchObject({ isError: false, output: { sku: 'A-1', units: 12 } });
    expect(result.steps[1].toolResults[0]).toMatchObject({ isError: false, output: { channel: 'C01GENERAL', channelName: 'general' } });
    expect(slack.posted.at(-1)).toMatchObject({ channel: 'C01GENERAL', text: 'A-1: 12 units at 4 euros' });
    expect(JSON.stringify(result)).not.toContain(SLACK_TOKEN);
    expect(JSON.stringify(result)).not.toContain(GATEWAY_TOKEN);
  });

  it('keeps the SSRF guard on by default: a YAML web entry refuses the loopback page', async () => {
    const cwd = project(`tools:\n  web: { type: web }\nagents:\n  reader:\n    model: ollama:llama3.2\n    tools: [web]\n`);
    const reader = (await loadRuntime({ cwd, env: {} })).agent('reader');
    expect(reader.tools.map((t) => t.name)).toEqual(['web_fetch']);
    reader.setModel(
      new ScriptedModel([{ toolCalls: [{ toolName: 'web_fetch', input: { url: `${pages.url}/price-list` } }] }, { text: 'blocked' }]),
    );
    const before = pages.received.length;
    const result = await reader.run('read it');
    expect(result.steps[0].toolResults[0]).toMatchObject({
      isError: true,
      output: expect.stringMatching(/^Tool "web_fetch" failed: Refused: "127\.0\.0\.1" is a loopback address/),
    });
    expect(pages.received.length).toBe(before);
  });

  it('reports bad entries with their path', async () => {
    const bad = async (yaml: string, env: Record<string, string> = {}) => {
      const err = await loadRuntime({ cwd: project(yaml), env }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      return (err as ConfigError).message;
    };
    const agent = 'agents:\n  a:\n    model: ollama:llama3.2\n    tools: [t]\n';
    expect(await bad(`tools:\n  t: { type: web, allow_host: [x] }\n${agent}`)).toMatch(/tools\.t\.allow_host: unknown key/);
    expect(await bad(`tools:\n  t: { type: web, allow_hosts: ["not a host!"] }\n${agent}`)).toContain(
      'allowHosts: "not a host!" is not a host name',
    );
    expect(await bad(`tools:\n  t: { type: slack }\n${agent}`)).toMatch(/tools\.t\.token: "token" is required/);
    expect(await bad(`tools:\n  t: { type: rest, url: "ftp://x" }\n${agent}`)).toMatch(/tools\.t\.url: invalid URL/);
    expect(await bad(`tools:\n  t: { type: rest, url: "${gateway.url}", token: wrong }\n${agent}`)).toContain(
      `cannot set up the rest tools: Could not read the tools of ${gateway.url}: GET /tools answered HTTP 401 (authentication: the bearer token was refused)`,
    );
  });
});
