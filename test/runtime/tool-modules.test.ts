import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { ConfigError } from '../../src/index.js';
import { loadRuntime, validateConfig } from '../../src/runtime/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(yaml: string, module = TOOLS): string {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-toolmod-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'corvid.yaml'), yaml);
  writeFileSync(join(dir, 'tools.mjs'), module);
  return dir;
}

// Tools are plain objects of the Tool shape here, so the module needs no package resolution.
const TOOLS = `
const mk = (name, fn) => ({ kind: 'tool', name, description: name, jsonSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }, execute: fn });
export const add = mk('add', ({ a, b }) => a + b);
export const mul = mk('multiply', ({ a, b }) => a * b);
export const notATool = 42;
`;

const BASE = `models:\n  m: { provider: openai, model: x, api_key: test }\ndefaults: { model: m }\n`;

describe('tool modules (tools: section)', () => {
  it('loads every tool of a module, or one by name, and the agent runs them', async () => {
    const dir = setup(
      `${BASE}tools:\n  math: { module: ./tools.mjs }\nagents:\n  all:\n    tools: [math]\n  one:\n    tools: [math.multiply]\n`,
    );
    const rt = await loadRuntime({ cwd: dir, env: {}, dotenv: false });
    expect(
      rt
        .agent('all')
        .tools.map((t) => t.name)
        .sort(),
    ).toEqual(['add', 'multiply']);
    expect(rt.agent('one').tools.map((t) => t.name)).toEqual(['multiply']);
    const agent = rt
      .agent('one')
      .setModel(new ScriptedModel([{ toolCalls: [{ toolName: 'multiply', input: { a: 6, b: 7 } }] }, { text: '42' }]));
    const r = await agent.run('6*7');
    expect(r.steps[0].toolResults[0]).toMatchObject({ output: 42, isError: false });
  });

  it('reports a missing module, a missing export and an unknown tool with file and line', async () => {
    const dir = setup(
      `${BASE}tools:\n  math: { module: ./tools.mjs }\n  gone: { module: ./nope.mjs }\n  bad:\n    module: ./tools.mjs\n    export: notATool\nagents:\n  a:\n    tools: [math.divide]\n`,
    );
    const err = await loadRuntime({ cwd: dir, env: {}, dotenv: false }).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toMatch(/corvid\.yaml:6:\d+ +tools\.gone\.module: cannot import "\.\/nope\.mjs": module not found/);
    expect(err.message).toMatch(/corvid\.yaml:9:\d+ +tools\.bad\.export: export "notATool" of "\.\/tools\.mjs" is not a tool/);
  });

  it('an unknown tool inside a module is reported at the agent line', async () => {
    const dir = setup(`${BASE}tools:\n  math: { module: ./tools.mjs }\nagents:\n  a:\n    tools:\n      - math.divide\n`);
    const err = await loadRuntime({ cwd: dir, env: {}, dotenv: false }).catch((e) => e);
    expect(err.message).toMatch(
      /corvid\.yaml:9:\d+ +agents\.a\.tools\[0\]: tool module "math" has no tool "divide"; its tools: add, multiply/,
    );
  });

  it('validation checks module ids in references without importing', async () => {
    const dir = setup(`${BASE}tools:\n  math: { module: ./tools.mjs }\nagents:\n  a:\n    tools: [maths.add, math]\n`);
    const r = await validateConfig({ cwd: dir, env: {}, dotenv: false });
    expect(r.ok).toBe(false);
    expect(r.issues[0]).toMatchObject({
      line: 8,
      path: 'agents.a.tools[0]',
      message: expect.stringMatching(/unknown tool module "maths"/),
    });
  });
});
