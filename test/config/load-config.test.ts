import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { ConfigError, findConfigFile, loadConfig, loadDotEnv, printConfig, redactConfig, validateConfig } from '../../src/config/index.js';
import { lines, tempDir } from './temp-dir.js';

const SECRET = 'sk-live-0123456789abcdef';

describe('findConfigFile', () => {
  it('finds corvid.yaml, then corvid.yml, in the directory only', () => {
    expect(findConfigFile(tempDir())).toBeUndefined();
    const yml = tempDir({ 'corvid.yml': '' });
    expect(findConfigFile(yml)).toBe(join(yml, 'corvid.yml'));
    const both = tempDir({ 'corvid.yml': '', 'corvid.yaml': '' });
    expect(findConfigFile(both)).toBe(join(both, 'corvid.yaml'));
    expect(findConfigFile(join(both, 'nested'))).toBeUndefined();
  });
});

describe('loadConfig', () => {
  it('loads the file in cwd and returns the normalised config, path and env', async () => {
    const dir = tempDir({ 'corvid.yaml': lines('agents:', '  a: { model: "ollama:llama3.2", max_steps: 3 }') });
    const loaded = await loadConfig({ cwd: dir, env: { HOME: '/h' } });
    expect(loaded.path).toBe(join(dir, 'corvid.yaml'));
    expect(loaded.config.agents.a).toEqual({ name: 'a', model: 'ollama:llama3.2', maxSteps: 3, tools: [], agentTools: [] });
    expect(loaded.env).toEqual({ HOME: '/h' });
  });

  it('returns an empty config when there is no file', async () => {
    const loaded = await loadConfig({ cwd: tempDir(), env: {} });
    expect(loaded.path).toBeUndefined();
    expect(loaded.config).toEqual({ version: 1, defaults: {}, models: {}, toolModules: {}, agents: {} });
  });

  it('throws one ConfigError carrying every issue with file, line, column and path', async () => {
    const dir = tempDir({
      'conf/app.yaml': lines('models:', '  m: { provider: nope, model: x }', 'agents:', '  a:', '    model: missing', '    max_steps: 0'),
    });
    const err = await loadConfig({ cwd: dir, path: 'conf/app.yaml', env: {} }).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.code).toBe('config_invalid');
    expect(err.issues).toEqual([
      {
        file: join('conf', 'app.yaml'),
        line: 2,
        column: 18,
        path: 'models.m.provider',
        message: expect.stringMatching(/^must be one of openai/),
      },
      {
        file: join('conf', 'app.yaml'),
        line: 5,
        column: 12,
        path: 'agents.a.model',
        message: expect.stringMatching(/^unknown model "missing"/),
      },
      { file: join('conf', 'app.yaml'), line: 6, column: 16, path: 'agents.a.max_steps', message: 'too small: expected number to be >0' },
    ]);
    expect(err.message).toContain('Invalid configuration in');
    expect(err.message).toContain('3 problems');
    expect(err.message).toContain(`\n  ${join('conf', 'app.yaml')}:5:12  agents.a.model: unknown model "missing"`);
  });

  it('reports a missing file named with path', async () => {
    const err = await loadConfig({ cwd: tempDir(), path: 'nope.yaml' }).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.issues).toEqual([{ file: 'nope.yaml', path: '', message: 'config file not found' }]);
  });

  it('takes text instead of a file, and checks tool names against knownTools', async () => {
    const text = lines('agents:', '  a: { tools: [add, sub] }');
    const err = await loadConfig({ text, cwd: tempDir(), env: {}, knownTools: ['add'] }).catch((e) => e);
    expect(err.issues).toEqual([
      { line: 2, column: 21, path: 'agents.a.tools[1]', message: 'unknown tool "sub" in agent "a"; registered tools: "add"' },
    ]);
    const ok = await loadConfig({ text, cwd: tempDir(), env: {}, allowUnknownTools: true });
    expect(ok.config.agents.a.tools).toEqual(['add', 'sub']);
    expect(ok.warnings).toHaveLength(2);
  });
});

describe('.env files', () => {
  const config = lines(
    'models:',
    '  m:',
    '    provider: openai',
    '    model: ${MODEL}',
    '    base_url: ${BASE}',
    '    headers: { A: "${A}", B: "${B}", C: "${C}" }',
  );

  it('merges real env over the working directory .env over the config directory .env', async () => {
    const cwd = tempDir({
      '.env': lines('A=from-cwd', 'B=from-cwd', 'MODEL=gpt-cwd'),
      'cfg/.env': lines('A=from-cfg', 'B=from-cfg', 'C=from-cfg', 'BASE=http://cfg/v1', 'MODEL=gpt-cfg'),
      'cfg/corvid.yaml': config,
    });
    const before = { ...process.env };
    const loaded = await loadConfig({ cwd, path: 'cfg/corvid.yaml', env: { A: 'from-env' } });
    expect(loaded.config.models.m).toMatchObject({
      model: 'gpt-cwd',
      baseURL: 'http://cfg/v1',
      headers: { A: 'from-env', B: 'from-cwd', C: 'from-cfg' },
    });
    expect(loaded.envFiles).toEqual([join(cwd, '.env'), join(cwd, 'cfg', '.env')]);
    expect(process.env).toEqual(before);
  });

  it('is not read with dotenv: false', async () => {
    const cwd = tempDir({ '.env': 'MODEL=x\n', 'corvid.yaml': config });
    const err = await loadConfig({ cwd, env: {}, dotenv: false }).catch((e) => e);
    expect(err.issues.map((i: { path: string }) => i.path)).toEqual([
      'models.m.model',
      'models.m.base_url',
      'models.m.headers.A',
      'models.m.headers.B',
      'models.m.headers.C',
    ]);
  });

  it('writes .env values into process.env only when asked, never overriding', async () => {
    const name = `CORVID_TEST_${process.pid}`;
    const cwd = tempDir({ '.env': lines(`${name}_NEW=from-file`, `${name}_SET=from-file`) });
    process.env[`${name}_SET`] = 'already';
    try {
      const r = await loadDotEnv({ cwd });
      expect(r.fromFiles).toEqual({ [`${name}_NEW`]: 'from-file' });
      expect(process.env[`${name}_NEW`]).toBeUndefined();
      await loadDotEnv({ cwd, apply: true });
      expect(process.env[`${name}_NEW`]).toBe('from-file');
      expect(process.env[`${name}_SET`]).toBe('already');
    } finally {
      delete process.env[`${name}_NEW`];
      delete process.env[`${name}_SET`];
    }
  });
});

describe('secrets', () => {
  const file = lines(
    'models:',
    '  m:',
    '    provider: openai',
    '    model: gpt-4.1-mini',
    '    api_key: ${OPENAI_API_KEY}',
    '    headers: { Authorization: "Bearer ${OPENAI_API_KEY}", X-Team: blue }',
    '    provider_options: { openai: { user: u1, apiKey: inline-secret } }',
  );

  it('never appear in error messages (values are never quoted; keys are)', async () => {
    const bad = [
      file.replace('gpt-4.1-mini', '[gpt') + lines('agents: {}'),
      lines('models:', `  m: { provider: openai, model: x, api_key: ${SECRET} }: oops`),
      lines('models:', `  m: { provider: openai, model: x, api_key: ${SECRET}, temprature: 2, api: [${SECRET}] }`),
      lines('models:', '  m:', '    provider: openai', '    model: x', `    api_key: ${SECRET}`, '    api_kye: 1'),
      lines('models:', '  m:', '    provider: openai', '    model: x', `    api_key: { nested: ${SECRET} }`),
      // A secret misused as a reference is masked too.
      lines(
        'models:',
        '  m: { provider: openai, model: x, api_key: "${OPENAI_API_KEY}" }',
        'agents:',
        '  a: { model: "${OPENAI_API_KEY}" }',
      ),
    ];
    for (const text of bad) {
      const err = await loadConfig({ text, cwd: tempDir(), env: { OPENAI_API_KEY: SECRET } }).catch((e) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.message).not.toContain(SECRET);
      expect(JSON.stringify(err.issues)).not.toContain(SECRET);
    }
    const misused = await loadConfig({ text: bad.at(-1)!, cwd: tempDir(), env: { OPENAI_API_KEY: SECRET } }).catch((e) => e);
    expect(misused.issues[0].message).toMatch(/^unknown model "\*\*\*"/);
  });

  it('are masked by printConfig and redactConfig', async () => {
    const { config } = await loadConfig({
      text: file + lines('agents:', '  a: { model: m, max_steps: 2, agent_tools: [b] }', '  b: {}'),
      cwd: tempDir(),
      env: { OPENAI_API_KEY: SECRET },
    });
    expect(config.models.m.apiKey).toBe(SECRET);
    const redacted = redactConfig(config);
    expect(redacted.models.m.apiKey).toBe('***');
    expect(config.models.m.apiKey).toBe(SECRET);
    for (const format of ['yaml', 'json'] as const) {
      const out = printConfig(config, format);
      expect(out).not.toContain(SECRET);
      expect(out).not.toContain('inline-secret');
      const data = format === 'yaml' ? parse(out) : JSON.parse(out);
      expect(data.models.m).toEqual({
        provider: 'openai',
        model: 'gpt-4.1-mini',
        api_key: '***',
        headers: { Authorization: '***', 'X-Team': 'blue' },
        provider_options: { openai: { user: 'u1', apiKey: '***' } },
      });
      expect(data.agents).toEqual({ a: { model: 'm', max_steps: 2, agent_tools: ['b'] }, b: {} });
    }
  });

  it('printConfig output validates again as a config', async () => {
    const { config } = await loadConfig({
      text: file + lines('agents:', '  a: { model: m, context: { max_tokens: 9, summary_model: m } }'),
      cwd: tempDir(),
      env: { OPENAI_API_KEY: SECRET },
    });
    const again = await validateConfig({ text: printConfig(config), cwd: tempDir(), env: {} });
    expect(again.issues).toEqual([]);
  });
});

describe('validateConfig', () => {
  it('returns issues instead of throwing, and a missing file is an issue', async () => {
    const dir = tempDir();
    const none = await validateConfig({ cwd: dir, env: {} });
    expect(none).toEqual({ ok: false, issues: [{ path: '', message: `no corvid.yaml or corvid.yml in ${dir}` }], warnings: [] });
    const bad = await validateConfig({ text: lines('agents:', '  a: { model: 3 }'), cwd: dir, env: {} });
    expect(bad.ok).toBe(false);
    expect(bad.issues).toEqual([{ line: 2, column: 15, path: 'agents.a.model', message: 'expected string, received number' }]);
  });

  it('reports the file path and the config when valid', async () => {
    const dir = tempDir({ 'corvid.yml': lines('agents:', '  a: { tools: [x] }') });
    const r = await validateConfig({ cwd: dir, env: {}, allowUnknownTools: true });
    expect(r.ok).toBe(true);
    expect(r.path).toBe(join(dir, 'corvid.yml'));
    expect(r.warnings[0]).toMatchObject({ file: 'corvid.yml', line: 2, path: 'agents.a.tools[0]' });
    expect(r.config?.agents.a.tools).toEqual(['x']);
  });
});

describe('loadConfig with sections', () => {
  const text = lines(
    'models:',
    '  main: { provider: openai, model: gpt-4.1-mini, api_key: "${OPENAI_API_KEY}" }',
    'defaults: { agent: b, model: main }',
    'storage: { path: "${DATA_DIR:-data}/app.db" }',
    'agents:',
    '  a: { model: main, tools: [not_registered] }',
    '  b: { instructions: "${PROMPT}" }',
  );

  it("reads storage:, the agent names and defaults.agent, without the other sections' variables", async () => {
    await expect(loadConfig({ text, env: {}, dotenv: false })).rejects.toThrow(/OPENAI_API_KEY is not set/);
    const { config } = await loadConfig({ text, env: {}, dotenv: false, sections: ['storage'] });
    expect(config.storage?.path).toBe('data/app.db');
    expect(Object.keys(config.agents)).toEqual(['a', 'b']);
    expect(config.defaults.agent).toBe('b');
    expect(config.models).toEqual({});
  });

  it('still reports the problems of the sections it reads', async () => {
    const bad = `${text}\nstorage: { path: 3, busy_timeout_ms: "\${WAIT}" }\n`.replace(/^storage: \{ path: "[^\n]*\n/m, '');
    const err = await loadConfig({ text: bad, env: {}, dotenv: false, sections: ['storage'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).issues.map((i) => i.message).join('\n')).toMatch(/WAIT is not set/);
  });
});
