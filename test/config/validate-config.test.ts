import { describe, expect, it } from 'vitest';

import { formatConfigIssue, validateConfigText, type ValidateConfigTextOptions } from '../../src/config/index.js';
import { lines } from './temp-dir.js';

/** Validates text as `corvid.yaml` and returns every issue as `file:line:col  path: message`. */
function problems(text: string, options: ValidateConfigTextOptions = {}): string[] {
  const r = validateConfigText(text, { file: 'corvid.yaml', allowUnknownTools: true, ...options });
  expect(r.ok).toBe(false);
  return r.issues.map(formatConfigIssue);
}

function valid(text: string, options: ValidateConfigTextOptions = {}) {
  const r = validateConfigText(text, { file: 'corvid.yaml', ...options });
  expect(r.issues.map(formatConfigIssue)).toEqual([]);
  expect(r.ok).toBe(true);
  return r.config!;
}

describe('validateConfigText: YAML syntax', () => {
  it("reports the parser's own position", () => {
    expect(problems(lines('agents:', '  a:', '    model: [openai:gpt-4.1', '  b: {}'))).toEqual([
      'corvid.yaml:4:3  YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ]);
  });

  it('reports bad indentation, duplicate keys and tabs', () => {
    expect(problems(lines('agents:', '  a:', '    model: x', '   b: {}'))[0]).toMatch(
      /^corvid\.yaml:4:1 {2}YAML syntax error: All mapping items must start at the same column/,
    );
    expect(problems(lines('models: {}', 'agents: {}', 'models: {}'))).toEqual([
      'corvid.yaml:3:1  YAML syntax error: Map keys must be unique',
    ]);
  });

  it('drops cascades, keeps token text out, and hints at quoting ${} in flow collections', () => {
    const p = problems(lines('models:', '  fast: { provider: openai, model: x, api_key: ${SECRET_KEY} }', 'agents:', '  a: {}'));
    expect(p).toHaveLength(1);
    expect(p[0]).toMatch(/^corvid\.yaml:2:49 {2}YAML syntax error: .*quote interpolations: "\$\{VAR\}"/);
    expect(p[0]).not.toContain('SECRET_KEY');
  });

  it('rejects a top level that is not a mapping', () => {
    expect(problems('- a\n- b\n')).toEqual(['corvid.yaml:1:1  the config must be a mapping with sections such as models: and agents:']);
  });

  it('accepts an empty file and comments only', () => {
    expect(valid('')).toEqual({ version: 1, defaults: {}, models: {}, toolModules: {}, agents: {} });
    expect(valid('# nothing yet\n').agents).toEqual({});
  });
});

describe('validateConfigText: schema', () => {
  it('reports every unknown key at its own line, with suggestions', () => {
    const p = problems(
      lines(
        'version: 1',
        'storag: {}',
        'defaults:',
        '  maxSteps: 3',
        'models:',
        '  fast:',
        '    provider: openai',
        '    model: gpt-4.1-mini',
        '    temprature: 0.2',
        'agents:',
        '  a:',
        '    model: fast',
        '    tool_mode: json',
        '    context: { max_tokens: 100, window: 3 }',
        'tool: x',
      ),
    );
    expect(p).toEqual([
      'corvid.yaml:2:1  storag: unknown key "storag" (did you mean "storage"?)',
      'corvid.yaml:4:3  defaults.maxSteps: unknown key "maxSteps" (did you mean "max_steps"?)',
      'corvid.yaml:9:5  models.fast.temprature: unknown key "temprature" (did you mean "temperature"?)',
      expect.stringMatching(
        /^corvid\.yaml:13:5 {2}agents\.a\.tool_mode: unknown key "tool_mode"; allowed keys: description, model, instructions, tools, /,
      ),
      expect.stringMatching(
        /^corvid\.yaml:14:33 {2}agents\.a\.context\.window: unknown key "window"; allowed keys: max_tokens, strategy, /,
      ),
      'corvid.yaml:15:1  tool: unknown key "tool" (did you mean "tools"?)',
    ]);
  });

  it('reports wrong types, enum values and ranges', () => {
    const p = problems(
      lines(
        'defaults:',
        '  tool_mode: fast',
        'models:',
        '  m:',
        '    provider: openaii',
        '    model: x',
        '    temperature: 3',
        '    reasoning: { effort: extreme }',
        '    retry: { max_retries: -1 }',
        'agents:',
        '  a:',
        '    max_steps: ten',
        '    tools: add',
        '    tool_choice: sometimes',
        '    tool_errors: ignore',
        '    tool_concurrency: 1.5',
        '    context: { strategy: window }',
      ),
    );
    expect(p).toEqual([
      'corvid.yaml:2:14  defaults.tool_mode: invalid option: expected one of "native"|"json"',
      'corvid.yaml:5:15  models.m.provider: must be one of openai, openai-chat, anthropic, claude, google, gemini, ollama, openai-compatible, compatible',
      'corvid.yaml:7:18  models.m.temperature: too big: expected number to be <=2',
      'corvid.yaml:8:26  models.m.reasoning.effort: invalid option: expected one of "minimal"|"low"|"medium"|"high"',
      'corvid.yaml:9:27  models.m.retry.max_retries: too small: expected number to be >=0',
      'corvid.yaml:12:16  agents.a.max_steps: expected number, received string',
      'corvid.yaml:13:12  agents.a.tools: expected array, received string',
      'corvid.yaml:14:18  agents.a.tool_choice: must be auto, none, required or { tool: <tool name> }',
      'corvid.yaml:15:18  agents.a.tool_errors: invalid option: expected one of "return"|"throw"',
      'corvid.yaml:16:23  agents.a.tool_concurrency: expected int, received number',
      'corvid.yaml:17:5  agents.a.context.max_tokens: "max_tokens" is required',
    ]);
  });

  it('reports a missing required key at its parent, invalid names at the key', () => {
    expect(problems(lines('models:', '  fast:', '    provider: openai', 'agents:', '  1st: {}', '  ok: {}'))).toEqual([
      'corvid.yaml:2:3  models.fast.model: "model" is required',
      'corvid.yaml:5:3  agents.1st: invalid name "1st": agent names start with a letter and use letters, digits, "_" and "-" (at most 60)',
    ]);
    expect(problems(lines('models:', '  "a:b": { provider: openai, model: x }'))[0]).toMatch(
      /^corvid\.yaml:2:3 {2}models\["a:b"\]: invalid name "a:b": model names/,
    );
  });

  it('checks provider-specific settings', () => {
    expect(
      problems(
        lines(
          'models:',
          '  v:',
          '    provider: openai-compatible',
          '    model: qwen',
          '  c:',
          '    provider: anthropic',
          '    model: x',
          '    api: chat',
          '  u:',
          '    provider: ollama',
          '    model: x',
          '    base_url: not a url',
        ),
      ),
    ).toEqual([
      'corvid.yaml:2:3  models.v: an openai-compatible model needs base_url, e.g. http://127.0.0.1:8000/v1',
      'corvid.yaml:8:10  models.c.api: api applies only to openai models, not anthropic',
      'corvid.yaml:12:15  models.u.base_url: must be an absolute URL, e.g. http://127.0.0.1:8000/v1',
    ]);
  });
});

describe('validateConfigText: references', () => {
  const text = lines(
    'defaults:',
    '  model: nope',
    '  agent: ghost',
    'models:',
    '  fast: { provider: openai, model: gpt-4.1-mini }',
    'agents:',
    '  a:',
    '    model: fasst',
    '    agent_tools: [b, phantom, a]',
    '    tool_choice: { tool: search }',
    '  b:',
    '    model: foo:bar',
    '    tools: [add, add]',
    '    context: { max_tokens: 1000, strategy: summarize, summary_model: cheap }',
  );

  it('reports undefined models, agents, tools and summary models, all at once', () => {
    expect(problems(text, { allowUnknownTools: false, knownTools: ['add'] })).toEqual([
      'corvid.yaml:2:10  defaults.model: unknown model "nope": define it under models (defined: "fast") or write "provider:model", e.g. "openai:gpt-4.1-mini"',
      'corvid.yaml:3:10  defaults.agent: unknown agent "ghost"; agents: "a", "b"',
      'corvid.yaml:8:12  agents.a.model: unknown model "fasst": define it under models (defined: "fast") or write "provider:model", e.g. "openai:gpt-4.1-mini"',
      'corvid.yaml:9:22  agents.a.agent_tools[1]: unknown agent "phantom"; agents: "a", "b"',
      'corvid.yaml:9:31  agents.a.agent_tools[2]: agent "a" cannot list itself in agent_tools',
      'corvid.yaml:10:26  agents.a.tool_choice.tool: tool_choice names "search", which agent "a" does not have; its tools: "ask_b"',
      'corvid.yaml:12:12  agents.b.model: unknown provider "foo" in "foo:bar"; known providers: openai, openai-chat, anthropic, claude, google, gemini, ollama, openai-compatible, compatible',
      'corvid.yaml:13:18  agents.b.tools[1]: duplicate tool "add": agent "b" already has a tool named "add" (at tools[0])',
      'corvid.yaml:14:70  agents.b.context.summary_model: unknown model "cheap": define it under models (defined: "fast") or write "provider:model", e.g. "openai:gpt-4.1-mini"',
    ]);
  });

  it('treats tool names as errors unless known, or warnings with allowUnknownTools', () => {
    const cfg = lines('agents:', '  a:', '    tools: [add, search]');
    const strict = validateConfigText(cfg, { file: 'corvid.yaml' });
    expect(strict.issues.map(formatConfigIssue)).toEqual([
      'corvid.yaml:3:13  agents.a.tools[0]: tool "add" of agent "a" is not known here; code-defined tools are registered with loadRuntime({ tools })',
      'corvid.yaml:3:18  agents.a.tools[1]: tool "search" of agent "a" is not known here; code-defined tools are registered with loadRuntime({ tools })',
    ]);
    const known = validateConfigText(cfg, { file: 'corvid.yaml', knownTools: ['add'] });
    expect(known.issues.map(formatConfigIssue)).toEqual([
      'corvid.yaml:3:18  agents.a.tools[1]: unknown tool "search" in agent "a"; registered tools: "add"',
    ]);
    const loose = validateConfigText(cfg, { file: 'corvid.yaml', allowUnknownTools: true });
    expect(loose.ok).toBe(true);
    expect(loose.warnings.map((w) => w.path)).toEqual(['agents.a.tools[0]', 'agents.a.tools[1]']);
  });

  it('reports a cycle among agent_tools with its path', () => {
    const p = problems(
      lines('agents:', '  a: { agent_tools: [b] }', '  b: { agent_tools: [c] }', '  c: { agent_tools: [a] }', '  d: { agent_tools: [a] }'),
    );
    expect(p).toEqual(['corvid.yaml:4:22  agents.c.agent_tools[0]: agent_tools cycle: a → b → c → a']);
  });

  it('allows agents without a model when there is no defaults.model', () => {
    const config = valid(lines('agents:', '  a: { instructions: hi }'));
    expect(config.agents.a).toEqual({ name: 'a', instructions: 'hi', tools: [], agentTools: [] });
  });

  it('reads an empty agent entry as an agent with every default', () => {
    expect(valid(lines('agents:', '  helper:', '  other: ~')).agents).toEqual({
      helper: { name: 'helper', tools: [], agentTools: [] },
      other: { name: 'other', tools: [], agentTools: [] },
    });
    expect(problems(lines('models:', '  m:'))).toEqual([
      'corvid.yaml:2:3  models.m.provider: "provider" is required',
      'corvid.yaml:2:3  models.m.model: "model" is required',
    ]);
  });

  it('accepts inline provider:model ids with colons in the model part', () => {
    const config = valid(lines('defaults: { model: "ollama:qwen3:8b" }', 'agents:', '  a: { model: gemini:gemini-2.5-flash }'));
    expect(config.defaults.model).toBe('ollama:qwen3:8b');
  });
});

describe('validateConfigText: interpolation', () => {
  const env = { KEY: 'sk-1', STEPS: '7', PIN: '12345', HOST: 'http://h:1/v1', EMPTY: '', TEMP: '0.5', MODEL: 'openai:gpt-4.1' };

  it('interpolates ${VAR} and ${VAR:-default} per scalar and coerces numbers where the schema wants them', () => {
    const config = valid(
      lines(
        'models:',
        '  m:',
        '    provider: openai',
        '    model: gpt-${VERSION:-4.1}-mini',
        '    api_key: ${PIN}',
        '    base_url: ${HOST}',
        '    temperature: ${TEMP}',
        '    headers: { X-Key: "${KEY}", X-Lit: "$${KEY}", X-E: "${EMPTY:-fallback}", "${KEY}": keys-are-not-interpolated }',
        'agents:',
        '  a:',
        '    model: ${MODEL}',
        '    max_steps: ${STEPS}',
        '    instructions: |',
        '      Key is not ${KEY:-x} here; $${ESCAPED} stays.',
      ),
      { env },
    );
    expect(config.models.m).toEqual({
      provider: 'openai',
      model: 'gpt-4.1-mini',
      apiKey: '12345',
      baseURL: 'http://h:1/v1',
      temperature: 0.5,
      headers: { 'X-Key': 'sk-1', 'X-Lit': '${KEY}', 'X-E': 'fallback', '${KEY}': 'keys-are-not-interpolated' },
    });
    expect(config.agents.a).toMatchObject({
      model: 'openai:gpt-4.1',
      maxSteps: 7,
      instructions: 'Key is not sk-1 here; ${ESCAPED} stays.\n',
    });
  });

  it('inserts values verbatim, without re-parsing them as YAML, and ignores comments', () => {
    const tricky = 'line 1\nkey: value # not a comment\n- [x, ${NOT_EXPANDED}]';
    const config = valid(
      lines(
        '# ${IN_A_COMMENT} is not interpolated',
        'agents:',
        '  a:',
        '    instructions: ${TRICKY}  # nor ${THIS}',
        '    description: "${TRICKY}"',
      ),
      { env: { TRICKY: tricky } },
    );
    expect(config.agents.a.instructions).toBe(tricky);
    expect(config.agents.a.description).toBe(tricky);
  });

  it('keeps quoted interpolations as strings', () => {
    expect(problems(lines('agents:', '  a:', '    max_steps: "${STEPS}"'), { env })).toEqual([
      'corvid.yaml:3:16  agents.a.max_steps: expected number, received string',
    ]);
  });

  it('reports each missing variable at its line, without follow-on errors', () => {
    expect(
      problems(
        lines(
          'models:',
          '  m:',
          '    provider: openai',
          '    model: x',
          '    api_key: ${OPENAI_KEY}',
          'agents:',
          '  a:',
          '    model: ${AGENT_MODEL}',
          '    max_steps: ${MAX}',
        ),
        { env: {} },
      ),
    ).toEqual([
      'corvid.yaml:5:14  models.m.api_key: environment variable OPENAI_KEY is not set (give a default with ${OPENAI_KEY:-value}, or set it in the environment or a .env file)',
      'corvid.yaml:8:12  agents.a.model: environment variable AGENT_MODEL is not set (give a default with ${AGENT_MODEL:-value}, or set it in the environment or a .env file)',
      'corvid.yaml:9:16  agents.a.max_steps: environment variable MAX is not set (give a default with ${MAX:-value}, or set it in the environment or a .env file)',
    ]);
  });

  it("missingEnv: 'warning' checks the structure without the secrets; a value the schema needs stays an error", () => {
    const text = lines(
      'models:',
      '  m:',
      '    provider: openai',
      '    model: x',
      '    api_key: ${OPENAI_KEY}',
      'agents:',
      '  a:',
      '    model: m',
    );
    const v = validateConfigText(text, { file: 'corvid.yaml', env: {}, missingEnv: 'warning' });
    expect(v.ok).toBe(true);
    expect(v.warnings.map(formatConfigIssue)).toEqual([
      'corvid.yaml:5:14  models.m.api_key: environment variable OPENAI_KEY is not set (give a default with ${OPENAI_KEY:-value}, or set it in the environment or a .env file)',
    ]);
    // A structural problem elsewhere is still found, with the warning beside it.
    const bad = validateConfigText(`${text}    max_stepz: 3\n`, { file: 'corvid.yaml', env: {}, missingEnv: 'warning' });
    expect(bad.ok).toBe(false);
    expect(bad.issues.map((i) => i.message)).toEqual(['unknown key "max_stepz" (did you mean "max_steps"?)']);
    expect(bad.warnings).toHaveLength(1);
    // max_steps must be a number: without MAX it cannot be checked, so it is an error.
    const needed = validateConfigText(lines('agents:', '  a:', '    max_steps: ${MAX}'), {
      file: 'corvid.yaml',
      env: {},
      missingEnv: 'warning',
    });
    expect(needed.ok).toBe(false);
    expect(needed.issues.map((i) => `${i.path}: ${i.message.slice(0, 40)}`)).toEqual([
      'agents.a.max_steps: environment variable MAX is not set (giv',
    ]);
  });

  it('reports malformed references', () => {
    expect(problems(lines('agents:', '  a:', '    instructions: "${1BAD} and ${OK"'))).toEqual([
      'corvid.yaml:3:19  agents.a.instructions: invalid variable reference "${1BAD}": write ${NAME} or ${NAME:-default}',
      'corvid.yaml:3:19  agents.a.instructions: unclosed "${": write ${NAME} or ${NAME:-default} (use "$${" for a literal "${")',
    ]);
  });

  it('treats an empty unquoted result as absent and drops an empty api_key', () => {
    const flow = valid(lines('models:', '  m: { provider: ollama, model: x, api_key: "${EMPTY:-}" }'), { env });
    expect(flow.models.m).toEqual({ provider: 'ollama', model: 'x' });
    const block = valid(lines('models:', '  m:', '    provider: ollama', '    model: x', '    temperature: ${NONE:-}'), { env });
    expect(block.models.m).toEqual({ provider: 'ollama', model: 'x' });
  });
});

describe('validateConfigText: normalisation', () => {
  it('converts to camelCase, canonicalises providers and supports anchors and merge keys', () => {
    const config = valid(
      lines(
        'models:',
        '  g: { provider: gemini, model: gemini-2.5-flash, reasoning: { budget_tokens: 2048 }, retry: { max_retries: 1 } }',
        '  c: { provider: openai-chat, model: gpt-4o, tool_mode: json, timeout_ms: 5000, provider_options: { openai: { parallelToolCalls: false } } }',
        'agents:',
        '  base: &base',
        '    max_steps: 4',
        '    tool_errors: throw',
        '  a:',
        '    <<: *base',
        '    model: g',
        '    max_steps: 6',
        '    tool_choice: { tool: ask_base }',
        '    agent_tools: [base]',
        '    context: { max_tokens: 100, keep_recent_messages: 2, summary_model: c, strategy: summarize }',
      ),
    );
    expect(config.models.g).toEqual({
      provider: 'google',
      model: 'gemini-2.5-flash',
      reasoning: { budgetTokens: 2048 },
      retry: { maxRetries: 1 },
    });
    expect(config.models.c).toEqual({
      provider: 'openai',
      api: 'chat',
      model: 'gpt-4o',
      toolMode: 'json',
      timeoutMs: 5000,
      providerOptions: { openai: { parallelToolCalls: false } },
    });
    expect(config.agents.a).toEqual({
      name: 'a',
      model: 'g',
      maxSteps: 6,
      toolErrors: 'throw',
      toolChoice: { tool: 'ask_base' },
      tools: [],
      agentTools: ['base'],
      context: { maxTokens: 100, keepRecentMessages: 2, summaryModel: 'c', strategy: 'summarize' },
    });
  });
});
