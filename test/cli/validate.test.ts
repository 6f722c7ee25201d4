import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { cliEnv, runCli, STACK_LINE, tempDir, writeConfig } from './cli-harness.js';

const tmp = tempDir();
const opts = { cwd: tmp.dir, env: cliEnv(tmp.dir, { SECRET_KEY: 'sk-live-123456789' }) };
afterAll(() => tmp.cleanup());

const GOOD = `defaults:
  model: main
models:
  main:
    provider: openai
    model: gpt-4.1-mini
    api_key: \${SECRET_KEY}
    headers:
      Authorization: Bearer abc
      X-Team: blue
agents:
  helper:
    instructions: Help.
    max_steps: 4
  critic:
    model: openai:gpt-4.1
`;

describe('corvid validate', () => {
  it('accepts a good file', async () => {
    writeConfig(tmp.dir, GOOD, 'good.yaml');
    const r = await runCli(['validate', 'good.yaml'], opts);
    expect(r).toEqual({ code: 0, stdout: '✓ good.yaml is valid (1 model, 2 agents)\n', stderr: '' });
  });

  it('finds ./corvid.yaml, or the -c file, when no file is given', async () => {
    const dir = tempDir();
    try {
      writeConfig(dir.dir, GOOD);
      writeConfig(dir.dir, 'agents:\n  a: {}\n', 'other.yaml');
      const found = await runCli(['validate'], { ...opts, cwd: dir.dir });
      expect(found.stdout).toBe('✓ corvid.yaml is valid (1 model, 2 agents)\n');
      const viaFlag = await runCli(['-c', 'other.yaml', 'validate'], { ...opts, cwd: dir.dir });
      expect(viaFlag.stdout).toBe('✓ other.yaml is valid (0 models, 1 agent)\n');
      const none = await runCli(['validate'], { ...opts, cwd: tmp.dir });
      expect(none.code).toBe(1);
      expect(none.stderr).toMatch(/no corvid\.yaml or corvid\.yml/);
    } finally {
      dir.cleanup();
    }
  });

  it('reports every problem with file:line:col at once', async () => {
    writeConfig(
      tmp.dir,
      `models:
  main:
    provider: openia
    model: gpt-4.1-mini
agents:
  helper:
    model: missing
    max_steps: 0
    temprature: 0.5
`,
      'bad.yaml',
    );
    const r = await runCli(['validate', 'bad.yaml'], opts);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.some((l) => /^bad\.yaml:3:\d+ +models\.main\.provider: /.test(l))).toBe(true);
    expect(lines.some((l) => /^bad\.yaml:7:\d+ +agents\.helper\.model: .*missing/.test(l))).toBe(true);
    expect(lines.some((l) => /^bad\.yaml:8:\d+ +agents\.helper\.max_steps: /.test(l))).toBe(true);
    expect(lines.some((l) => /^bad\.yaml:9:\d+ +agents\.helper.*temprature/.test(l))).toBe(true);
    expect(lines.at(-1)).toBe('✗ bad.yaml is invalid: 4 problems');
    expect(r.stderr).not.toMatch(STACK_LINE);
  });

  it('reports YAML syntax errors and missing files', async () => {
    writeConfig(tmp.dir, 'agents:\n  a: [1, 2\n', 'syntax.yaml');
    const syntax = await runCli(['validate', 'syntax.yaml'], opts);
    expect(syntax.code).toBe(1);
    expect(syntax.stderr).toMatch(/^syntax\.yaml:\d+:\d+/m);
    const missing = await runCli(['validate', 'nope.yaml'], opts);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.yaml.*not found/);
  });

  it('prints the resolved config as YAML with secrets masked', async () => {
    writeConfig(tmp.dir, GOOD, 'good.yaml');
    const r = await runCli(['validate', 'good.yaml', '--print-config'], opts);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/✓ good\.yaml is valid/);
    expect(r.stdout).not.toContain('sk-live-123456789');
    expect(r.stdout).not.toContain('Bearer abc');
    const printed = parse(r.stdout) as { models: Record<string, Record<string, unknown>>; agents: Record<string, Record<string, unknown>> };
    expect(printed.models.main).toMatchObject({ provider: 'openai', model: 'gpt-4.1-mini', headers: { 'X-Team': 'blue' } });
    expect(printed.models.main.api_key).toMatch(/^\*+$/);
    expect(printed.agents.helper).toMatchObject({ instructions: 'Help.', max_steps: 4 });
  });
});

describe('corvid validate agrees with corvid run about tools', () => {
  const TOOLS = `import { tool } from ${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)};
export const add = tool({ name: 'add', description: 'Add', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } }, execute: ({ a, b }) => a + b });
`;
  const agree = async (dir: string, file: string) => {
    const validate = await runCli(['validate', file], { ...opts, cwd: dir });
    const run = await runCli(['run', '-c', file, '-q', 'hi'], { ...opts, cwd: dir, env: cliEnv(dir, { OPENAI_API_KEY: 'sk-test' }) });
    return { validate, run };
  };

  it('a tool defined nowhere the CLI can see: both fail; --allow-unknown-tools makes it a warning for programs', async () => {
    const dir = tempDir();
    try {
      writeConfig(dir.dir, 'agents:\n  calc:\n    model: openai:gpt-4.1-mini\n    tools: [add]\n');
      const { validate, run } = await agree(dir.dir, 'corvid.yaml');
      expect(validate.code).toBe(1);
      expect(validate.stderr).toMatch(/^corvid\.yaml:4:13 +agents\.calc\.tools\[0\]: tool "add"/m);
      expect(validate.stderr).toContain('--allow-unknown-tools');
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('"add"');
      const loose = await runCli(['validate', '--allow-unknown-tools'], { ...opts, cwd: dir.dir });
      expect(loose.code).toBe(0);
      expect(loose.stderr).toMatch(/^warning: corvid\.yaml:4:13 +agents\.calc\.tools\[0\]/m);
    } finally {
      dir.cleanup();
    }
  });

  it('tool modules are imported and module.tool names checked, as when running', async () => {
    const dir = tempDir();
    try {
      writeConfig(dir.dir, TOOLS, 'tools.mjs');
      writeConfig(
        dir.dir,
        'tools:\n  math: { module: ./tools.mjs }\nagents:\n  calc:\n    model: openai:gpt-4.1-mini\n    tools: [math.add, math.sub]\n',
      );
      const { validate, run } = await agree(dir.dir, 'corvid.yaml');
      expect(validate.code).toBe(1);
      expect(validate.stderr).toMatch(
        /^corvid\.yaml:6:23 +agents\.calc\.tools\[1\]: tool module "math" has no tool "sub"; its tools: add$/m,
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('tool module "math" has no tool "sub"');

      writeConfig(dir.dir, 'tools:\n  math: { module: ./missing.mjs }\nagents:\n  calc: { tools: [math] }\n', 'broken.yaml');
      const broken = await runCli(['validate', 'broken.yaml'], { ...opts, cwd: dir.dir });
      expect(broken.code).toBe(1);
      expect(broken.stderr).toMatch(/^broken\.yaml:2:\d+ +tools\.math\.module: cannot import "\.\/missing\.mjs": module not found$/m);

      writeConfig(
        dir.dir,
        'tools:\n  math: { module: ./tools.mjs }\nagents:\n  calc:\n    model: openai:gpt-4.1-mini\n    tools: [math.add]\n',
        'good.yaml',
      );
      expect((await runCli(['validate', 'good.yaml'], { ...opts, cwd: dir.dir })).stdout).toBe(
        '✓ good.yaml is valid (0 models, 1 agent)\n',
      );
    } finally {
      dir.cleanup();
    }
  });
});
