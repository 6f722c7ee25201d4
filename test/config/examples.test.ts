import { readFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { tool } from '../../src/index.js';
import { formatConfigIssue, loadRuntime, validateConfig } from '../../src/runtime/index.js';
import { declaredTools, exampleFiles, EXAMPLES_DIR, headerCommands } from './example-files.js';

/** The variables the examples need, with fake values. No network is used. */
// TRACKER_MCP_URL: the mcp example's remote server, on a closed loopback port (no other address is contacted).
const ENV = {
  OPENAI_API_KEY: 'sk-test',
  ANTHROPIC_API_KEY: 'sk-ant-test',
  GEMINI_API_KEY: 'g-test',
  TRACKER_MCP_URL: 'http://127.0.0.1:9/mcp',
};

describe('examples', () => {
  const files = exampleFiles();

  it('exist, with a comment header saying what each shows', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith('# '), relative(EXAMPLES_DIR, file)).toBe(true);
      expect(text, relative(EXAMPLES_DIR, file)).toMatch(/^# Shows: /m);
    }
  });

  it('each has header commands to run it (examples/<name>/corvid.yaml, run from the repository root)', () => {
    for (const file of files) {
      const name = relative(EXAMPLES_DIR, file);
      const commands = headerCommands(readFileSync(file, 'utf8'));
      expect(commands.length, name).toBeGreaterThan(0);
      for (const c of commands) {
        // A config other than the example's own, or none at all, would not run this example.
        if (/^corvid (run|chat|serve|validate|sessions|memories|runs|approvals|mcp|call)\b/.test(c.line)) {
          expect(c.line, name).toMatch(/ -c examples\/[\w-]+\/corvid\.yaml\b/);
        }
      }
    }
  });

  it('each header lists the variables the example needs (every ${VAR} without a default)', () => {
    const problems: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const header = text.split('\n').filter((l) => l.startsWith('#'));
      const listed = header.find((l) => l.startsWith('# Required variables: ')) ?? '';
      // Variables in the YAML itself, not in comments (which may show other settings).
      const yaml = text
        .split('\n')
        .filter((l) => !l.trimStart().startsWith('#'))
        .map((l) => l.replace(/\s#.*$/, ''))
        .join('\n');
      const needed = new Set([...yaml.matchAll(/(?<!\$)\$\{([A-Za-z_]\w*)\}/g)].map((m) => m[1]));
      for (const v of needed) if (!new RegExp(`\\b${v}\\b`).test(listed)) problems.push(`${relative(EXAMPLES_DIR, file)}: ${v}`);
    }
    expect(problems).toEqual([]);
  });

  it('header commands read as written (no doubled words such as "corvid chat chat")', () => {
    for (const file of files) {
      for (const c of headerCommands(readFileSync(file, 'utf8'))) expect(c.line, relative(EXAMPLES_DIR, file)).not.toMatch(/\b(\w+) \1\b/);
    }
  });

  it.each(files.map((f) => [relative(EXAMPLES_DIR, f), f]))('%s validates', async (_name, file) => {
    const text = readFileSync(file, 'utf8');
    const r = await validateConfig({ path: file, env: ENV, dotenv: false, knownTools: declaredTools(text) });
    expect(r.issues.map(formatConfigIssue)).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.ok).toBe(true);
  });

  it.each(files.map((f) => [relative(EXAMPLES_DIR, f), f]))('%s builds a runtime', async (_name, file) => {
    const text = readFileSync(file, 'utf8');
    const tools = declaredTools(text).map((name) => tool({ name, description: name, parameters: { type: 'object' }, execute: () => 0 }));
    const runtime = await loadRuntime({ configPath: file, cwd: dirname(file), env: ENV, dotenv: false, tools });
    expect(runtime.agents.size).toBeGreaterThan(0);
    expect(runtime.agents.has(runtime.defaultAgent)).toBe(true);
    await runtime.close();
  });
});
