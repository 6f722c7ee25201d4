import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { Agent, tool } from '../../src/index.js';
import type { RunningServer } from '../../src/server/app/serve.js';
import { type FakeLlmServer, type FakeReply, type RecordedRequest, startFakeLlmServer } from '../support/fake-llm-server.js';
import { metricValue, startServer } from './helpers.js';

// `corvid serve` as an OpenAI-compatible API, called with the official `openai` client over a real
// port; the agent's model is the fake model server (OpenAI Responses wire format).

/** Everything the fake model was sent in one request, as text (messages, tool results, tool names). */
const sent = (r: RecordedRequest | undefined) => JSON.stringify(r?.body ?? {});
const toolNames = (r: RecordedRequest) =>
  (r.body.tools ?? []).map((t: { name?: string; function?: { name: string } }) => t.name ?? t.function?.name);

describe('OpenAI-compatible API', () => {
  let llm: FakeLlmServer;
  let server: RunningServer;
  let client: OpenAI;
  const replies: FakeReply[] = [];

  beforeAll(async () => {
    llm = await startFakeLlmServer(() => replies.shift() ?? { text: 'default answer', usage: { input: 1, output: 1 } });
    const clock = tool({
      name: 'get_time',
      description: 'The current time in a zone',
      input: z.object({ zone: z.string() }),
      execute: ({ zone }) => `12:00 in ${zone}`,
    });
    const assistant = new Agent({
      name: 'assistant',
      instructions: 'You are helpful.',
      model: { provider: 'openai', model: 'gpt-4.1-mini', apiKey: 'test', baseURL: `${llm.url}/v1` },
      tools: [clock],
    });
    ({ server } = await startServer([assistant]));
    client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'not-checked', maxRetries: 0 });
  });
  afterAll(async () => {
    await server.close();
    await llm.close();
  });
  beforeEach(() => {
    replies.length = 0;
    llm.requests.length = 0;
  });

  it('lists the agents as models', async () => {
    const page = await client.models.list();
    expect(page.data.map((m) => m.id)).toEqual(['assistant']);
    expect(page.data[0]).toMatchObject({ object: 'model', owned_by: 'corvid' });
    expect(typeof page.data[0].created).toBe('number');
    expect((await client.models.retrieve('assistant')).id).toBe('assistant');
  });

  it('answers a chat completion with the run usage', async () => {
    replies.push({ text: 'Hello there!', usage: { input: 11, output: 4 } });
    const done = await client.chat.completions.create({
      model: 'assistant',
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'Hi' },
      ],
    });
    expect(done.object).toBe('chat.completion');
    expect(done.choices[0].message).toMatchObject({ role: 'assistant', content: 'Hello there!' });
    expect(done.choices[0].finish_reason).toBe('stop');
    expect(done.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 });
    const body = sent(llm.requests[0]);
    expect(body).toContain('You are helpful.');
    expect(body).toContain('Answer briefly.');
    expect(body).toContain('Hi');
  });

  it('streams a chat completion ending with usage when asked', async () => {
    replies.push({ text: 'Streamed words here', usage: { input: 7, output: 3 } });
    const stream = await client.chat.completions.create({
      model: 'assistant',
      messages: [{ role: 'user', content: 'Say something' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const chunks = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    expect(text).toBe('Streamed words here');
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.at(-1)!.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
  });

  it('answers a response, and streams one as typed events', async () => {
    replies.push({ text: 'A plain response.', usage: { input: 5, output: 3 } });
    const r = await client.responses.create({ model: 'assistant', input: 'Tell me', store: false });
    expect(r.object).toBe('response');
    expect(r.status).toBe('completed');
    expect(r.output_text).toBe('A plain response.');
    expect(r.usage).toMatchObject({ input_tokens: 5, output_tokens: 3, total_tokens: 8 });

    replies.push({ text: 'A streamed response.', usage: { input: 6, output: 4 } });
    const stream = await client.responses.create({ model: 'assistant', input: 'Stream it', store: false, stream: true });
    const types: string[] = [];
    let text = '';
    let completed: OpenAI.Responses.Response | undefined;
    for await (const e of stream) {
      types.push(e.type);
      if (e.type === 'response.output_text.delta') text += e.delta;
      if (e.type === 'response.completed') completed = e.response;
    }
    expect(text).toBe('A streamed response.');
    expect(types[0]).toBe('response.created');
    expect(types).toContain('response.output_item.added');
    expect(types.at(-1)).toBe('response.completed');
    expect(completed?.output_text ?? completed?.output).toBeDefined();
    expect(completed?.usage).toMatchObject({ input_tokens: 6, output_tokens: 4, total_tokens: 10 });
  });

  it('shows a server-side tool call as reasoning progress, never as a client tool call', async () => {
    replies.push({ toolCalls: [{ name: 'get_time', arguments: { zone: 'UTC' } }], usage: { input: 10, output: 5 } });
    replies.push({ text: 'It is noon.', usage: { input: 20, output: 3 } });
    const stream = await client.chat.completions.create({
      model: 'assistant',
      messages: [{ role: 'user', content: 'Time?' }],
      stream: true,
    });
    let reasoning = '';
    let text = '';
    let finish: string | null | undefined;
    let sawToolCalls = false;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string; tool_calls?: unknown } | undefined;
      reasoning += delta?.reasoning_content ?? '';
      text += delta?.content ?? '';
      if (delta?.tool_calls) sawToolCalls = true;
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(reasoning).toContain('get_time {"zone":"UTC"}');
    expect(reasoning).toContain('get_time → 12:00 in UTC');
    expect(text).toBe('It is noon.');
    expect(sawToolCalls).toBe(false);
    expect(finish).toBe('stop');
    expect(llm.requests).toHaveLength(2);
    expect(sent(llm.requests[1])).toContain('12:00 in UTC');

    replies.push({ toolCalls: [{ name: 'get_time', arguments: { zone: 'CET' } }] });
    replies.push({ text: 'One o clock.' });
    const events = await client.responses.create({ model: 'assistant', input: 'Time in CET?', store: false, stream: true });
    let summary = '';
    for await (const e of events) if (e.type === 'response.reasoning_summary_text.delta') summary += e.delta;
    expect(summary).toContain('get_time → 12:00 in CET');
  });

  it('suspends on a client tool call and continues with its result (chat completions)', async () => {
    const tools: OpenAI.Chat.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ];
    replies.push({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' }, id: 'call_w1' }], usage: { input: 9, output: 6 } });
    const first = await client.chat.completions.create({
      model: 'assistant',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools,
    });
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    const call = first.choices[0].message.tool_calls![0] as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
    expect(call).toMatchObject({ id: 'call_w1', type: 'function', function: { name: 'get_weather' } });
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
    expect(toolNames(llm.requests[0])).toEqual(expect.arrayContaining(['get_time', 'get_weather']));
    expect(llm.requests).toHaveLength(1);

    replies.push({ text: 'Sunny, 18 degrees.', usage: { input: 15, output: 5 } });
    const second = await client.chat.completions.create({
      model: 'assistant',
      tools,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        first.choices[0].message as OpenAI.Chat.ChatCompletionMessageParam,
        { role: 'tool', tool_call_id: 'call_w1', content: '18C and sunny' },
      ],
    });
    expect(second.choices[0].message.content).toBe('Sunny, 18 degrees.');
    expect(second.choices[0].finish_reason).toBe('stop');
    const body = sent(llm.requests[1]);
    expect(body).toContain('18C and sunny');
    expect(body).toContain('call_w1');
  });

  it('suspends on a client tool call and continues with function_call_output (responses, previous_response_id)', async () => {
    const tools: OpenAI.Responses.Tool[] = [
      { type: 'function', name: 'get_weather', strict: false, parameters: { type: 'object', properties: { city: { type: 'string' } } } },
    ];
    replies.push({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' }, id: 'call_o1' }] });
    const first = await client.responses.create({ model: 'assistant', input: 'Weather in Oslo?', tools });
    const fc = first.output.find((i) => i.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    expect(fc).toMatchObject({ call_id: 'call_o1', name: 'get_weather' });
    expect(JSON.parse(fc.arguments)).toEqual({ city: 'Oslo' });

    replies.push({ text: 'Cold in Oslo.' });
    const second = await client.responses.create({
      model: 'assistant',
      tools,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: 'call_o1', output: '-3C, snow' }],
    });
    expect(second.output_text).toBe('Cold in Oslo.');
    const body = sent(llm.requests[1]);
    expect(body).toContain('Weather in Oslo?');
    expect(body).toContain('-3C, snow');
  });

  it('keeps a session for a named user (chat completions) and for previous_response_id (responses)', async () => {
    replies.push({ text: 'Nice to meet you, Ada.' });
    await client.chat.completions.create({ model: 'assistant', user: 'ada-1', messages: [{ role: 'user', content: 'I am Ada.' }] });
    replies.push({ text: 'You are Ada.' });
    const again = await client.chat.completions.create({
      model: 'assistant',
      user: 'ada-1',
      messages: [{ role: 'user', content: 'Who am I?' }],
    });
    expect(again.choices[0].message.content).toBe('You are Ada.');
    const body = sent(llm.requests[1]);
    expect(body).toContain('I am Ada.');
    // The provider sends the earlier assistant message as a reference to its item id.
    expect(body).toMatch(/Nice to meet you, Ada\.|"item_reference"/);
    expect(body).toContain('Who am I?');
    // Stateless without `user`: nothing of the session.
    replies.push({ text: 'I do not know.' });
    await client.chat.completions.create({ model: 'assistant', messages: [{ role: 'user', content: 'Who am I?' }] });
    expect(sent(llm.requests[2])).not.toContain('I am Ada.');

    replies.push({ text: 'Noted: blue.' });
    const r1 = await client.responses.create({ model: 'assistant', input: 'My colour is blue.' });
    replies.push({ text: 'Blue.' });
    const r2 = await client.responses.create({ model: 'assistant', input: 'My colour?', previous_response_id: r1.id });
    expect(r2.output_text).toBe('Blue.');
    expect(r2.previous_response_id).toBe(r1.id);
    expect(sent(llm.requests[4])).toContain('My colour is blue.');
  });

  it('counts its runs, tokens and requests in the server metrics', async () => {
    replies.push({ text: 'Counted.', usage: { input: 30, output: 12 } });
    await client.chat.completions.create({ model: 'assistant', messages: [{ role: 'user', content: 'Count me' }] });
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(metricValue(text, 'corvid_runs_total', { agent: 'assistant', status: 'completed' })).toBeGreaterThan(0);
    expect(metricValue(text, 'corvid_tokens_total', { agent: 'assistant', kind: 'input' })).toBeGreaterThanOrEqual(30);
    expect(metricValue(text, 'corvid_http_requests_total', { route: '/v1/chat/completions', status: '200' })).toBeGreaterThan(0);
  });

  it('answers errors in OpenAI error shape', async () => {
    const unknown = await client.chat.completions.create({ model: 'nobody', messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
    expect(unknown.status).toBe(404);
    expect(unknown.error).toMatchObject({ type: 'not_found_error', code: 'agent_not_found' });
    expect(unknown.message).toContain('Unknown agent "nobody"');

    const bad = await client.chat.completions
      .create({ model: 'assistant', messages: [{ role: 'robot', content: 'x' }] as never })
      .catch((e) => e);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect(bad.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request', param: 'messages[0].role' });

    const noInput = await client.responses.create({ model: 'assistant' } as never).catch((e) => e);
    expect(noInput).toBeInstanceOf(OpenAI.BadRequestError);
    expect(noInput.error.param).toBe('input');

    const lost = await client.responses.create({ model: 'assistant', input: 'x', previous_response_id: 'resp_nope' }).catch((e) => e);
    expect(lost).toBeInstanceOf(OpenAI.NotFoundError);
    expect(llm.requests).toHaveLength(0);
  });
});

describe('OpenAI-compatible API: auth and browser chat UI requests', () => {
  let llm: FakeLlmServer;
  let server: RunningServer;
  const key = 'sk-corvid-test-key';

  beforeAll(async () => {
    llm = await startFakeLlmServer(() => ({ text: 'Hi from the agent.', usage: { input: 4, output: 5 } }));
    const { hashApiKey } = await import('../../src/server/auth/api-keys.js');
    const agent = new Agent({
      name: 'helper',
      model: { provider: 'openai', model: 'gpt-4.1-mini', apiKey: 'test', baseURL: `${llm.url}/v1` },
    });
    ({ server } = await startServer([agent], { server: { auth: { apiKeys: [{ name: 'ui', hash: hashApiKey(key) }] } } }));
  });
  afterAll(async () => {
    await server.close();
    await llm.close();
  });

  it('refuses a missing or wrong key with 401 in OpenAI error shape', async () => {
    const anonymous = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'wrong', maxRetries: 0 });
    const err = await anonymous.models.list().catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(err.error).toMatchObject({ type: 'authentication_error', code: 'unauthorized' });
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toMatchObject({ type: 'authentication_error', param: null });
    expect(llm.requests).toHaveLength(0);
    const ok = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: key, maxRetries: 0 });
    expect((await ok.models.list()).data.map((m) => m.id)).toEqual(['helper']);
  });

  it('streams to a chat UI request with stream_options and unknown fields (Open WebUI / LibreChat shape)', async () => {
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, accept: 'text/event-stream' },
      body: JSON.stringify({
        model: 'helper',
        stream: true,
        stream_options: { include_usage: true },
        messages: [
          { role: 'system', content: 'Be nice.' },
          { role: 'user', content: [{ type: 'text', text: 'Hello?' }] },
        ],
        temperature: 0.7,
        // Fields chat UIs send that this server does not use.
        chat_id: 'c1',
        id: 'm1',
        session_id: 's1',
        features: { web_search: false },
        params: {},
        metadata: { ui: 'x' },
        frequency_penalty: 0,
        presence_penalty: 0,
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const lines = (await res.text()).split('\n').filter((l) => l.startsWith('data: '));
    expect(lines.at(-1)).toBe('data: [DONE]');
    const chunks = lines.slice(0, -1).map((l) => JSON.parse(l.slice(6)));
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('Hi from the agent.');
    expect(chunks.at(-1).usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 });
    const body = llm.requests[0].body;
    expect(JSON.stringify(body)).toContain('Be nice.');
    expect(body.temperature).toBe(0.7);
    expect(JSON.stringify(body)).not.toContain('web_search');
  });

  it('answers a bad body with 400 naming the field, and a non-JSON body with 415', async () => {
    const before = llm.requests.length;
    const post = (body: string, type = 'application/json') =>
      fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': type, authorization: `Bearer ${key}` },
        body,
      });
    const notJson = await post('{"model":');
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
    const noMessages = await post(JSON.stringify({ model: 'helper' }));
    expect(noMessages.status).toBe(400);
    expect((await noMessages.json()).error).toMatchObject({ param: 'messages' });
    const badArgs = await post(
      JSON.stringify({
        model: 'helper',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{oops' } }] },
          { role: 'tool', tool_call_id: 'c1', content: 'r' },
        ],
      }),
    );
    expect(badArgs.status).toBe(400);
    expect((await badArgs.json()).error.param).toBe('messages[1].tool_calls[0].function.arguments');
    const form = await post('model=helper', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(415);
    expect(llm.requests).toHaveLength(before);
  });
});
