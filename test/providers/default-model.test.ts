import { createServer, type Server, type Socket } from 'node:net';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { Agent, ConfigError, detectDefaultModel } from '../../src/index.js';
import { ollamaBaseURL } from '../../src/models/create-provider-model.js';
import { closedPort, type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { add } from '../support/provider-harness.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

describe('detectDefaultModel', () => {
  it('prefers CORVID_MODEL over API keys', async () => {
    const env = { CORVID_MODEL: 'anthropic:claude-haiku-4-5', OPENAI_API_KEY: 'sk-x' };
    expect(await detectDefaultModel(env)).toEqual({ provider: 'anthropic', model: 'claude-haiku-4-5' });
    expect(await detectDefaultModel({ CORVID_MODEL: 'openai-chat:gpt-4o' })).toEqual({ provider: 'openai', model: 'gpt-4o', api: 'chat' });
    expect(await detectDefaultModel({ CORVID_MODEL: 'ollama:qwen3:8b' })).toEqual({ provider: 'ollama', model: 'qwen3:8b' });
  });

  it('rejects a malformed CORVID_MODEL with a ConfigError', async () => {
    await expect(detectDefaultModel({ CORVID_MODEL: 'gpt-4.1-mini' })).rejects.toBeInstanceOf(ConfigError);
    await expect(detectDefaultModel({ CORVID_MODEL: 'nosuch:model' })).rejects.toThrow(/Unknown provider "nosuch"/);
  });

  it('picks the provider whose API key is set (openai, then anthropic, then google)', async () => {
    expect(await detectDefaultModel({ OPENAI_API_KEY: 'a', ANTHROPIC_API_KEY: 'b' })).toEqual({
      provider: 'openai',
      model: 'gpt-4.1-mini',
    });
    expect(await detectDefaultModel({ ANTHROPIC_API_KEY: 'b', GEMINI_API_KEY: 'c' })).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
    });
    expect(await detectDefaultModel({ GEMINI_API_KEY: 'c' })).toEqual({ provider: 'google', model: 'gemini-2.5-flash' });
    expect(await detectDefaultModel({ GOOGLE_GENERATIVE_AI_API_KEY: 'c' })).toEqual({ provider: 'google', model: 'gemini-2.5-flash' });
  });

  it('falls back to an Ollama that answers on OLLAMA_HOST, with or without a scheme', async () => {
    server = await startFakeLlmServer([], { ollamaModels: ['qwen3:8b', 'llama3.2:latest'] });
    expect(await detectDefaultModel({ OLLAMA_HOST: server.url })).toEqual({ provider: 'ollama', model: 'qwen3:8b' });
    expect(await detectDefaultModel({ OLLAMA_HOST: server.url.replace('http://', '') + '/' })).toEqual({
      provider: 'ollama',
      model: 'qwen3:8b',
    });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/tags', 'GET /api/tags']);
  });

  it('reads OLLAMA_HOST as Ollama does (no scheme means http and port 11434)', () => {
    expect(ollamaBaseURL({})).toBe('http://127.0.0.1:11434/v1');
    expect(ollamaBaseURL({ OLLAMA_HOST: '0.0.0.0' })).toBe('http://0.0.0.0:11434/v1');
    expect(ollamaBaseURL({ OLLAMA_HOST: 'gpu-box:8080' })).toBe('http://gpu-box:8080/v1');
    expect(ollamaBaseURL({ OLLAMA_HOST: 'http://gpu-box:8080/' })).toBe('http://gpu-box:8080/v1');
    expect(ollamaBaseURL({ OLLAMA_HOST: 'https://ollama.example.com' })).toBe('https://ollama.example.com/v1');
  });

  it('gives a ConfigError quickly when nothing is configured and Ollama is not running', async () => {
    const port = await closedPort();
    const started = performance.now();
    const err = await detectDefaultModel({ OLLAMA_HOST: `127.0.0.1:${port}` }).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as Error).message;
    expect(message).toContain('CORVID_MODEL');
    expect(message).toContain('OPENAI_API_KEY');
    expect(message).toContain('Ollama');
  });

  it('gives a ConfigError when Ollama runs but has no model pulled', async () => {
    server = await startFakeLlmServer([], { ollamaModels: [] });
    await expect(detectDefaultModel({ OLLAMA_HOST: server.url })).rejects.toBeInstanceOf(ConfigError);
  });

  it('does not hang on an Ollama port that accepts connections but never answers', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((s) => sockets.add(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const port = (silent.address() as { port: number }).port;
    try {
      const started = performance.now();
      await expect(detectDefaultModel({ OLLAMA_HOST: `http://127.0.0.1:${port}` }, { ollamaTimeoutMs: 200 })).rejects.toBeInstanceOf(
        ConfigError,
      );
      expect(performance.now() - started).toBeLessThan(2000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('lets an agent without a model run on the detected Ollama', async () => {
    for (const name of [
      'CORVID_MODEL',
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'GOOGLE_GENERATIVE_AI_API_KEY',
      'GEMINI_API_KEY',
      'GOOGLE_API_KEY',
    ]) {
      vi.stubEnv(name, '');
    }
    server = await startFakeLlmServer([{ toolCalls: [{ name: 'add', arguments: { a: 20, b: 22 } }] }, { text: '42' }]);
    vi.stubEnv('OLLAMA_HOST', server.url);
    const agent = new Agent({ name: 'local', instructions: 'Be brief.', tools: [add] });
    const result = await agent.run('20+22?');
    expect(result.text).toBe('42');
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/tags',
      'POST /v1/chat/completions',
      'POST /v1/chat/completions',
    ]);
    expect(server.requests[1].body.model).toBe('llama3.2:latest');
    expect(server.requests[2].body.messages.at(-1)).toMatchObject({ role: 'tool', content: '42' });
  });

  it('CORVID_BASE_URL (and CORVID_API_KEY) complete the CORVID_MODEL model; openai-compatible needs the URL', async () => {
    expect(
      await detectDefaultModel({ CORVID_MODEL: 'openai-compatible:m1', CORVID_BASE_URL: 'http://127.0.0.1:8000/v1', CORVID_API_KEY: 'k' }),
    ).toEqual({
      provider: 'openai-compatible',
      model: 'm1',
      baseURL: 'http://127.0.0.1:8000/v1',
      apiKey: 'k',
    });
    expect(await detectDefaultModel({ CORVID_MODEL: 'openai:gpt-4o', CORVID_BASE_URL: 'http://proxy/v1' })).toEqual({
      provider: 'openai',
      model: 'gpt-4o',
      baseURL: 'http://proxy/v1',
    });
    await expect(detectDefaultModel({ CORVID_MODEL: 'openai-compatible:m1' })).rejects.toThrow(/set CORVID_BASE_URL/);
  });

  it('an agent given "openai-compatible:<model>" or "google:<model>" finds its base URL in the environment', async () => {
    server = await startFakeLlmServer([{ text: 'compatible' }, { text: 'gemini' }]);
    vi.stubEnv('CORVID_BASE_URL', `${server.url}/v1`);
    vi.stubEnv('GOOGLE_GENERATIVE_AI_BASE_URL', `${server.url}/v1beta`);
    vi.stubEnv('GOOGLE_GENERATIVE_AI_API_KEY', 'g-test');
    expect((await new Agent({ name: 'a', model: 'openai-compatible:m1' }).run('hi')).text).toBe('compatible');
    expect((await new Agent({ name: 'b', model: 'google:gemini-2.5-flash' }).run('hi')).text).toBe('gemini');
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1beta/models/gemini-2.5-flash:generateContent']);
  });
});
