import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { Agent, type ModelConfig, tool } from '../../src/index.js';
import { ConfigError, DEFAULT_INSTRUCTIONS, loadRuntime } from '../../src/runtime/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { lines, tempDir } from '../config/temp-dir.js';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const shout = tool({
  name: 'shout',
  description: 'Upper-case text',
  input: z.object({ text: z.string() }),
  execute: ({ text }) => text.toUpperCase(),
});

const TEAM = lines(
  'defaults:',
  '  model: fast',
  '  agent: lead',
  '  max_steps: 5',
  '  temperature: 0.1',
  'models:',
  '  fast: { provider: openai, model: gpt-4.1-mini, api_key: "${OPENAI_API_KEY}", tool_mode: json, retry: { max_retries: 1 } }',
  '  local: { provider: ollama, model: llama3.2, temperature: 0.7 }',
  'agents:',
  '  lead:',
  '    description: Leads.',
  '    instructions: You lead.',
  '    agent_tools: [math]',
  '    tool_choice: { tool: ask_math }',
  '  math:',
  '    description: Does arithmetic.',
  '    model: local',
  '    instructions: You add.',
  '    tools: [add]',
  '    max_steps: 3',
  '    reasoning: { effort: low }',
  '    context: { max_tokens: 2000, strategy: summarize, summary_model: "openai:gpt-4.1-nano" }',
);

async function team(env: NodeJS.ProcessEnv = { OPENAI_API_KEY: 'sk-test' }) {
  const cwd = tempDir({ 'corvid.yaml': TEAM });
  return { cwd, runtime: await loadRuntime({ cwd, env, tools: [add], dotenv: false }) };
}

describe('loadRuntime', () => {
  it('builds agents with ModelConfig objects and defaults applied', async () => {
    const { cwd, runtime } = await team();
    expect(runtime.configPath).toBe(join(cwd, 'corvid.yaml'));
    expect([...runtime.agents.keys()]).toEqual(['lead', 'math']);
    expect(runtime.defaultAgent).toBe('lead');
    expect(runtime.agent()).toBe(runtime.agents.get('lead'));
    const lead = runtime.agent('lead');
    expect(lead).toBeInstanceOf(Agent);
    expect(lead.options).toMatchObject({
      name: 'lead',
      description: 'Leads.',
      instructions: 'You lead.',
      maxSteps: 5,
      toolChoice: { tool: 'ask_math' },
    });
    const leadModel = lead.options.model as ModelConfig;
    expect(leadModel).toEqual({
      provider: 'openai',
      model: 'gpt-4.1-mini',
      apiKey: 'sk-test',
      toolMode: 'json',
      retry: { maxRetries: 1 },
      temperature: 0.1,
    });
    const math = runtime.agent('math');
    expect(math.options).toMatchObject({ maxSteps: 3, reasoning: { effort: 'low' } });
    expect(math.options.model).toEqual({ provider: 'ollama', model: 'llama3.2', temperature: 0.7 });
    expect(math.options.context).toMatchObject({
      maxTokens: 2000,
      strategy: 'summarize',
      summaryModel: { provider: 'openai', model: 'gpt-4.1-nano' },
    });
    expect(math.tools.map((t) => t.name)).toEqual(['add']);
    expect(lead.tools.map((t) => t.name)).toEqual(['ask_math']);
  });

  it('wires agent_tools to the built agents and runs them together', async () => {
    const { runtime } = await team();
    const lead = new ScriptedModel([{ toolCalls: [{ toolName: 'ask_math', input: { message: 'add 2 and 3' } }] }, { text: 'It is 5.' }]);
    const math = new ScriptedModel([{ toolCalls: [{ toolName: 'add', input: { a: 2, b: 3 } }] }, { text: '5' }]);
    runtime.agent('lead').setModel(lead);
    runtime.agent('math').setModel(math);
    const result = await runtime.agent().run('What is 2 + 3?');
    expect(result.text).toBe('It is 5.');
    expect(result.steps[0].toolResults[0]).toMatchObject({ toolName: 'ask_math', output: '5', isError: false });
    expect(math.calls[0].prompt[0]).toEqual({ role: 'system', content: 'You add.' });
    expect(math.calls[1].prompt.at(-1)).toMatchObject({ role: 'tool', content: [{ toolName: 'add', output: { type: 'json', value: 5 } }] });
    expect(lead.calls[0].tools?.map((t) => t.name)).toEqual(['ask_math']);
  });

  it('mixes code and config: tools by name (array or record) and addTools afterwards', async () => {
    const cwd = tempDir({ 'corvid.yaml': lines('agents:', '  a: { model: "ollama:llama3.2", tools: [plus] }') });
    const runtime = await loadRuntime({ cwd, env: {}, tools: { plus: add } });
    const agent = runtime.agent('a');
    expect(agent.tools).toEqual([add]);
    agent.addTools(shout);
    const model = new ScriptedModel([
      {
        toolCalls: [
          { toolName: 'shout', input: { text: 'hi' } },
          { toolName: 'add', input: { a: 1, b: 1 } },
        ],
      },
      { text: 'done' },
    ]);
    agent.setModel(model);
    const r = await agent.run('go');
    expect(r.steps[0].toolResults.map((x) => x.output)).toEqual(['HI', 2]);
  });

  it('rejects tool names that are not registered, naming agent, tool and line', async () => {
    const cwd = tempDir({ 'corvid.yaml': lines('agents:', '  calc:', '    tools: [add, divide]') });
    const err = await loadRuntime({ cwd, env: {}, tools: [add] }).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.issues).toEqual([
      {
        file: 'corvid.yaml',
        line: 3,
        column: 18,
        path: 'agents.calc.tools[1]',
        message: 'unknown tool "divide" in agent "calc"; registered tools: "add"',
      },
    ]);
    expect(err.message).toContain('corvid.yaml:3:18  agents.calc.tools[1]: unknown tool "divide" in agent "calc"');
  });

  it('rejects invalid tool registrations and clashing tool names', async () => {
    await expect(loadRuntime({ cwd: tempDir(), env: {}, tools: [add, add] })).rejects.toThrow(/two tools are registered as "add"/);
    await expect(loadRuntime({ cwd: tempDir(), env: {}, tools: { x: {} as never } })).rejects.toThrow(/not a tool/);
    const cwd = tempDir({ 'corvid.yaml': lines('agents:', '  a: { tools: [x, y] }') });
    const err = await loadRuntime({ cwd, env: {}, tools: { x: add, y: add } }).catch((e) => e);
    expect(err.issues).toEqual([
      { file: 'corvid.yaml', line: 2, column: 15, path: 'agents.a.tools', message: 'agent "a" would have two tools named "add"' },
    ]);
  });

  it('throws ConfigError listing the agents for an unknown name', async () => {
    const { runtime } = await team();
    expect(() => runtime.agent('nobody')).toThrow(ConfigError);
    expect(() => runtime.agent('nobody')).toThrow('Unknown agent "nobody". Available agents: lead, math');
  });

  it('without a config file provides one assistant with the registered tools and the default model rules', async () => {
    const runtime = await loadRuntime({ cwd: tempDir(), env: { CORVID_MODEL: 'ollama:qwen3:8b' }, tools: [add] });
    expect(runtime.configPath).toBeUndefined();
    expect([...runtime.agents.keys()]).toEqual(['assistant']);
    const a = runtime.agent();
    expect(a.options.instructions).toBe(DEFAULT_INSTRUCTIONS);
    expect(a.options.model).toEqual({ provider: 'ollama', model: 'qwen3:8b' });
    expect(a.tools).toEqual([add]);
    // Only an API key: that provider's default model, the key taken from the runtime's env.
    const keyed = await loadRuntime({ cwd: tempDir(), env: { ANTHROPIC_API_KEY: 'sk-ant' } });
    expect(keyed.agent().options.model).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: 'sk-ant' });
    // Nothing: left to the run (probing Ollama), so loading never touches the network.
    const none = await loadRuntime({ cwd: tempDir(), env: {} });
    expect(none.agent().options.model).toBeUndefined();
  });

  it('gives a file without agents the default assistant on defaults.model', async () => {
    const cwd = tempDir({
      'corvid.yaml': lines('defaults: { model: local, max_steps: 4 }', 'models:', '  local: { provider: ollama, model: llama3.2 }'),
    });
    const runtime = await loadRuntime({ cwd, env: {} });
    expect(runtime.defaultAgent).toBe('assistant');
    expect(runtime.agent().options).toMatchObject({ name: 'assistant', maxSteps: 4, model: { provider: 'ollama', model: 'llama3.2' } });
  });

  it('uses .env files for API keys without touching process.env', async () => {
    const cwd = tempDir({
      '.env': 'CORVID_RT_TEST_KEY=from-dotenv\nOLLAMA_HOST=10.0.0.5:11434\n',
      'corvid.yaml': lines(
        'models:',
        '  m: { provider: ollama, model: x, api_key: "${CORVID_RT_TEST_KEY}" }',
        'agents:',
        '  a: { model: m }',
        '  b: { model: "openai:gpt-4.1" }',
      ),
    });
    const runtime = await loadRuntime({ cwd, env: { OPENAI_API_KEY: 'sk-env' } });
    expect(runtime.agent('a').options.model).toEqual({
      provider: 'ollama',
      model: 'x',
      apiKey: 'from-dotenv',
      baseURL: 'http://10.0.0.5:11434/v1',
    });
    expect(runtime.agent('b').options.model).toEqual({ provider: 'openai', model: 'gpt-4.1', apiKey: 'sk-env' });
    expect(process.env.CORVID_RT_TEST_KEY).toBeUndefined();
  });

  it('reports an invalid CORVID_MODEL at the agent that needs it', async () => {
    const cwd = tempDir({ 'corvid.yaml': lines('agents:', '  a: {}') });
    const err = await loadRuntime({ cwd, env: { CORVID_MODEL: 'nonsense' } }).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.issues[0]).toMatchObject({
      file: 'corvid.yaml',
      path: 'agents.a.model',
      message: expect.stringMatching(/Invalid model id "nonsense"/),
    });
  });
});

describe('runtime.reload', () => {
  it('replaces agents with new objects from the changed file', async () => {
    const { cwd, runtime } = await team();
    const before = runtime.agent('math');
    writeFileSync(join(cwd, 'corvid.yaml'), TEAM.replace('You add.', 'You add carefully.'));
    await runtime.reload();
    const after = runtime.agent('math');
    expect(after).not.toBe(before);
    expect(after.options.instructions).toBe('You add carefully.');
    expect(runtime.config.agents.math.instructions).toBe('You add carefully.');
    // The new lead calls the new math agent.
    const math = new ScriptedModel([{ text: '4' }]);
    after.setModel(math);
    runtime
      .agent('lead')
      .setModel(new ScriptedModel([{ toolCalls: [{ toolName: 'ask_math', input: { message: '2+2' } }] }, { text: 'four' }]));
    expect((await runtime.agent().run('2+2?')).text).toBe('four');
    expect(math.calls).toHaveLength(1);
  });

  it('keeps the old agents when the file became invalid', async () => {
    const { cwd, runtime } = await team();
    const before = runtime.agent('lead');
    const config = runtime.config;
    writeFileSync(join(cwd, 'corvid.yaml'), TEAM.replace('tools: [add]', 'tools: [add, nope]').replace('max_steps: 3', 'max_steps: none'));
    const err = await runtime.reload().catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.issues.map((i: { line: number; path: string }) => `${i.line} ${i.path}`)).toEqual([
      '19 agents.math.tools[1]',
      '20 agents.math.max_steps',
    ]);
    expect(runtime.agent('lead')).toBe(before);
    expect(runtime.config).toBe(config);
    writeFileSync(join(cwd, 'corvid.yaml'), TEAM);
    await runtime.reload();
    expect(runtime.agent('lead')).not.toBe(before);
    await runtime.close();
  });
});
