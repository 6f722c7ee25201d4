import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { tool } from '../../src/core/tool.js';
import { Agent } from '../../src/index.js';
import {
  type CorvidMcpServer,
  createMcpServer,
  elicitInput,
  type McpHttpServer,
  mcpPrompt,
  mcpResource,
  mcpResourceTemplate,
  requestSampling,
  sendLog,
  serveMcpHttp,
} from '../../src/mcp/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { FIXTURES } from './support.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
const cities = ['paris', 'parma', 'porto', 'oslo'];

const summarise = tool({
  name: 'summarise',
  description: 'Summarises a text with the client LLM',
  input: z.object({ text: z.string() }),
  execute: async ({ text }, ctx) => {
    const answer = await requestSampling(ctx, {
      messages: [{ role: 'user', content: { type: 'text', text: `Summarise: ${text}` } }],
      maxTokens: 100,
      systemPrompt: 'Be brief',
    });
    return answer.content.type === 'text' ? `Summary (${answer.model}): ${answer.content.text}` : 'no text';
  },
});
const book = tool({
  name: 'book_table',
  description: 'Books a table after asking the user',
  input: z.object({ restaurant: z.string() }),
  execute: async ({ restaurant }, ctx) => {
    const answer = await elicitInput(ctx, {
      message: `How many people at ${restaurant}?`,
      requestedSchema: { type: 'object', properties: { people: { type: 'integer', minimum: 1, default: 2 } }, required: ['people'] },
    });
    return answer.action === 'accept' ? `Booked ${restaurant} for ${String(answer.content?.people)}` : `Not booked (${answer.action})`;
  },
});

function makeServer(): CorvidMcpServer {
  return createMcpServer({
    name: 'content-test',
    tools: [summarise, book],
    resources: [
      mcpResource({
        uri: 'docs://readme',
        name: 'readme',
        title: 'Read me',
        description: 'The read-me',
        mimeType: 'text/markdown',
        read: () => '# Hello',
      }),
      mcpResource({ uri: 'img://logo', name: 'logo', mimeType: 'image/png', read: () => PNG }),
      mcpResource({ uri: 'docs://broken', name: 'broken', read: () => Promise.reject(new Error('disk on fire')) }),
      mcpResourceTemplate({
        uriTemplate: 'weather://{city}/today',
        name: 'weather',
        mimeType: 'application/json',
        list: () => [{ uri: 'weather://oslo/today', name: 'Oslo weather' }],
        complete: { city: (typed) => cities.filter((c) => c.startsWith(typed)) },
        read: (uri, { city }) => [{ uri, mimeType: 'application/json', text: JSON.stringify({ city, sky: 'clear' }) }],
      }),
    ],
    prompts: [
      mcpPrompt({
        name: 'plan_trip',
        title: 'Plan a trip',
        description: 'Plans a trip to a city',
        arguments: z.object({ city: z.string().describe('Where to go'), days: z.string().optional().describe('How long') }),
        complete: { city: cities },
        get: ({ city, days }) => [
          { role: 'user', content: { type: 'text', text: `Plan ${days ?? 'a few'} days in ${city}` } },
          { role: 'assistant', content: { type: 'text', text: 'Sure.' } },
        ],
      }),
      mcpPrompt({ name: 'hello', description: 'Says hello', get: () => 'Hello!' }),
    ],
  });
}

type Answers = { sampling?: boolean; elicitation?: 'accept' | 'decline' };

async function httpClient(url: string, answers: Answers = {}): Promise<Client> {
  const capabilities = { ...(answers.sampling ? { sampling: {} } : {}), ...(answers.elicitation ? { elicitation: { form: {} } } : {}) };
  const client = new Client({ name: 'sdk-test', version: '1' }, { capabilities });
  if (answers.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      const first = request.params.messages[0].content;
      const text = !Array.isArray(first) && first.type === 'text' ? first.text : '';
      return {
        role: 'assistant',
        model: 'client-llm',
        content: { type: 'text', text: `short version of "${text}" (${request.params.systemPrompt})` },
      };
    });
  }
  if (answers.elicitation) {
    const action = answers.elicitation;
    client.setRequestHandler(ElicitRequestSchema, async (request) =>
      action === 'accept'
        ? {
            action,
            content: {
              people:
                (request.params as unknown as { requestedSchema: { properties: { people: { default: number } } } }).requestedSchema
                  .properties.people.default + 2,
            },
          }
        : { action },
    );
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('createMcpServer: resources, prompts and completion (SDK Client over Streamable HTTP)', () => {
  let server: CorvidMcpServer;
  let http: McpHttpServer;
  beforeAll(async () => {
    server = makeServer();
    http = await serveMcpHttp(server, { port: 0 });
  });
  afterAll(() => http.close());

  it('declares the capabilities and lists resources (template listings included) and templates', async () => {
    const client = await httpClient(http.mcpUrl);
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: { subscribe: true }, prompts: {}, completions: {} });
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      { uri: 'docs://readme', name: 'readme', title: 'Read me', description: 'The read-me', mimeType: 'text/markdown' },
      { uri: 'img://logo', name: 'logo', mimeType: 'image/png' },
      { uri: 'docs://broken', name: 'broken' },
      { uri: 'weather://oslo/today', name: 'Oslo weather' },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: 'weather://{city}/today', name: 'weather', mimeType: 'application/json' },
    ]);
    await client.close();
  });

  it('reads text, binary (base64 blob) and templated resources; unknown and failing ones are clear errors', async () => {
    const client = await httpClient(http.mcpUrl);
    expect((await client.readResource({ uri: 'docs://readme' })).contents).toEqual([
      { uri: 'docs://readme', mimeType: 'text/markdown', text: '# Hello' },
    ]);
    const logo = (await client.readResource({ uri: 'img://logo' })).contents[0] as { blob: string; mimeType: string };
    expect(logo.mimeType).toBe('image/png');
    expect(Buffer.from(logo.blob, 'base64').equals(PNG)).toBe(true);
    expect((await client.readResource({ uri: 'weather://porto/today' })).contents).toEqual([
      { uri: 'weather://porto/today', mimeType: 'application/json', text: '{"city":"porto","sky":"clear"}' },
    ]);
    await expect(client.readResource({ uri: 'docs://nothing' })).rejects.toMatchObject({
      code: -32002,
      message: expect.stringContaining(
        'Resource "docs://nothing" not found. Resources: docs://readme, img://logo, docs://broken, weather://{city}/today',
      ),
    });
    await expect(client.readResource({ uri: 'docs://broken' })).rejects.toThrow('Reading resource "docs://broken" failed: disk on fire');
    await client.close();
  });

  it('subscribe: notifyResourceUpdated reaches subscribed clients only, until they unsubscribe', async () => {
    const client = await httpClient(http.mcpUrl);
    const other = await httpClient(http.mcpUrl);
    const updates: string[] = [];
    let notified!: () => void;
    const arrived = new Promise<void>((resolve) => (notified = resolve));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
      notified();
    });
    await client.subscribeResource({ uri: 'weather://oslo/today' });
    expect(await server.notifyResourceUpdated('docs://readme')).toBe(0);
    expect(await server.notifyResourceUpdated('weather://oslo/today')).toBe(1);
    await arrived;
    expect(updates).toEqual(['weather://oslo/today']);
    await client.unsubscribeResource({ uri: 'weather://oslo/today' });
    expect(await server.notifyResourceUpdated('weather://oslo/today')).toBe(0);
    await expect(other.subscribeResource({ uri: 'nowhere://x' })).rejects.toThrow(
      'Cannot subscribe to "nowhere://x": no such resource on this server',
    );
    await client.close();
    await other.close();
  });

  it('lists prompts with their zod-described arguments and builds their messages', async () => {
    const client = await httpClient(http.mcpUrl);
    expect((await client.listPrompts()).prompts).toEqual([
      {
        name: 'plan_trip',
        title: 'Plan a trip',
        description: 'Plans a trip to a city',
        arguments: [
          { name: 'city', description: 'Where to go', required: true },
          { name: 'days', description: 'How long', required: false },
        ],
      },
      { name: 'hello', description: 'Says hello' },
    ]);
    expect(await client.getPrompt({ name: 'plan_trip', arguments: { city: 'Oslo', days: '3' } })).toEqual({
      description: 'Plans a trip to a city',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Plan 3 days in Oslo' } },
        { role: 'assistant', content: { type: 'text', text: 'Sure.' } },
      ],
    });
    expect((await client.getPrompt({ name: 'hello' })).messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello!' } }]);
    await expect(client.getPrompt({ name: 'plan_trip', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Invalid arguments for prompt "plan_trip": city: /),
    });
    await expect(client.getPrompt({ name: 'plan' })).rejects.toThrow('Unknown prompt "plan". Prompts: plan_trip, hello');
    await client.close();
  });

  it('completes prompt arguments and template variables (completion/complete)', async () => {
    const client = await httpClient(http.mcpUrl);
    expect(
      (await client.complete({ ref: { type: 'ref/prompt', name: 'plan_trip' }, argument: { name: 'city', value: 'PAR' } })).completion,
    ).toEqual({
      values: ['paris', 'parma'],
      total: 2,
      hasMore: false,
    });
    expect(
      (await client.complete({ ref: { type: 'ref/prompt', name: 'plan_trip' }, argument: { name: 'days', value: '' } })).completion.values,
    ).toEqual([]);
    expect(
      (await client.complete({ ref: { type: 'ref/resource', uri: 'weather://{city}/today' }, argument: { name: 'city', value: 'p' } }))
        .completion.values,
    ).toEqual(['paris', 'parma', 'porto']);
    await expect(client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' } })).rejects.toThrow(
      'Unknown prompt "nope"',
    );
    await client.close();
  });
});

describe('served tools asking the client: sampling and elicitation', () => {
  let http: McpHttpServer;
  beforeAll(async () => {
    http = await serveMcpHttp(makeServer(), { port: 0 });
  });
  afterAll(() => http.close());

  it('requestSampling: the client answers sampling/createMessage and the tool uses its answer', async () => {
    const client = await httpClient(http.mcpUrl, { sampling: true });
    expect(await client.callTool({ name: 'summarise', arguments: { text: 'a long story' } })).toEqual({
      content: [{ type: 'text', text: 'Summary (client-llm): short version of "Summarise: a long story" (Be brief)' }],
    });
    await client.close();
  });

  it('elicitInput: the user accepts (with content) or declines', async () => {
    const accepting = await httpClient(http.mcpUrl, { elicitation: 'accept' });
    expect(await accepting.callTool({ name: 'book_table', arguments: { restaurant: 'Chez Corvid' } })).toEqual({
      content: [{ type: 'text', text: 'Booked Chez Corvid for 4' }],
    });
    await accepting.close();
    const declining = await httpClient(http.mcpUrl, { elicitation: 'decline' });
    expect(await declining.callTool({ name: 'book_table', arguments: { restaurant: 'Chez Corvid' } })).toEqual({
      content: [{ type: 'text', text: 'Not booked (decline)' }],
    });
    await declining.close();
  });

  it('a client without the capability gets a clear isError result', async () => {
    const client = await httpClient(http.mcpUrl);
    expect(await client.callTool({ name: 'summarise', arguments: { text: 'x' } })).toEqual({
      content: [
        {
          type: 'text',
          text: 'Tool "summarise" failed: the MCP client does not support sampling (it did not declare the "sampling" capability)',
        },
      ],
      isError: true,
    });
    expect(await client.callTool({ name: 'book_table', arguments: { restaurant: 'x' } })).toEqual({
      content: [
        {
          type: 'text',
          text: 'Tool "book_table" failed: the MCP client does not support elicitation (it did not declare the "elicitation" capability)',
        },
      ],
      isError: true,
    });
    await client.close();
  });

  it('outside MCP (REST gateway, inside an agent) the helpers fail with a message saying why', async () => {
    const res = await fetch(`${http.url}/execute`, {
      method: 'POST',
      body: JSON.stringify({ tool: 'summarise', arguments: { text: 'x' } }),
    });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /^Tool "summarise" failed: requestSampling\(\) needs an MCP client/,
    );
    const model = new ScriptedModel([{ toolCalls: [{ toolName: 'book_table', input: { restaurant: 'x' } }] }, { text: 'could not book' }]);
    const agent = new Agent({ name: 'booker', model, tools: [book] });
    const result = await agent.run('book');
    expect(result.text).toBe('could not book');
    expect(JSON.stringify(model.calls[1])).toContain('elicitInput() needs an MCP client');
  });
});

describe('the same over stdio (a built server, spawned)', () => {
  it('resources, prompts, completion, sampling and elicitation', async () => {
    const client = new Client({ name: 'sdk-test', version: '1' }, { capabilities: { sampling: {}, elicitation: { form: {} } } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      model: 'tiny',
      content: { type: 'text', text: 'forty-two' },
    }));
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { ok: true } }));
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [join(FIXTURES, 'content-server.mjs')], stderr: 'pipe' }),
    );
    try {
      expect((await client.readResource({ uri: 'memo://today' })).contents).toEqual([
        { uri: 'memo://today', mimeType: 'text/plain', text: 'Buy milk.' },
      ]);
      expect((await client.readResource({ uri: 'notes://birds' })).contents[0]).toMatchObject({ text: 'Notes on birds' });
      expect((await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } })).messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Say hello to Ada' } },
      ]);
      expect(
        (await client.complete({ ref: { type: 'ref/resource', uri: 'notes://{topic}' }, argument: { name: 'topic', value: 'be' } }))
          .completion.values,
      ).toEqual(['bees']);
      expect(await client.callTool({ name: 'ask_llm', arguments: { question: 'meaning of life?' } })).toEqual({
        content: [{ type: 'text', text: 'tiny says: forty-two' }],
      });
      expect(await client.callTool({ name: 'confirm', arguments: {} })).toEqual({
        content: [{ type: 'text', text: 'accept {"ok":true}' }],
      });
    } finally {
      await client.close();
    }
  });
});

describe('createMcpServer: bad definitions', () => {
  it('refuses duplicate resource URIs, templates and prompt names, naming them', () => {
    const r = mcpResource({ uri: 'a://b', name: 'b', read: () => '' });
    expect(() => createMcpServer({ name: 'x', resources: [r, r] })).toThrow('Two resources have the URI "a://b"');
    const p = mcpPrompt({ name: 'p', get: () => '' });
    expect(() => createMcpServer({ name: 'x', prompts: [p, p] })).toThrow('Two prompts are named "p"');
  });
});

describe('serveMcpHttp: resumable SSE streams', () => {
  it('starts each call stream with a priming event and a retry hint, and replays missed events after Last-Event-ID', async () => {
    const slow = tool({
      name: 'slow',
      description: 'Logs, then answers',
      parameters: { type: 'object', properties: {} },
      execute: (_input, ctx) => {
        sendLog(ctx, 'info', 'working');
        return 'done';
      },
    });
    const http = await serveMcpHttp(createMcpServer({ name: 'resumable', tools: [slow] }), { port: 0, resumability: { retryMs: 250 } });
    try {
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      };
      const init = await fetch(http.mcpUrl, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      });
      const session = init.headers.get('mcp-session-id')!;
      await init.text();
      const call = await fetch(http.mcpUrl, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': session },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: {} } }),
      });
      const stream = await call.text();
      const events = stream.split('\n\n').filter((e) => e.trim());
      expect(events[0]).toMatch(/^id: \S+\nretry: 250\ndata: $/);
      expect(events.at(-1)).toContain('"result":{"content":[{"type":"text","text":"done"}]}');
      // A client that saw only the priming event reconnects with its id and gets the rest.
      const primingId = /^id: (\S+)/.exec(events[0])![1];
      const replay = await fetch(http.mcpUrl, {
        headers: {
          accept: 'text/event-stream',
          'mcp-session-id': session,
          'mcp-protocol-version': '2025-11-25',
          'last-event-id': primingId,
        },
      });
      const reader = replay.body!.getReader();
      let text = '';
      while (!text.includes('"text":"done"')) text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      expect(text).toContain('"working"');
    } finally {
      await http.close();
    }
  });
});
