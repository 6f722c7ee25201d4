import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { AgentEvent } from '../../../src/index.js';
import { ConfigError } from '../../../src/index.js';
import { loadRuntime, validateConfigText } from '../../../src/runtime/index.js';
import { openStore } from '../../../src/storage/index.js';
import { ScriptedModel } from '../../../src/testing/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const BASE = `models:\n  m: { provider: openai, model: x, api_key: test }\ndefaults: { model: m }\n`;

function project(yaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-files-agent-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'project', 'src'), { recursive: true });
  writeFileSync(join(dir, 'project', 'src', 'app.ts'), 'export const greeting = "hello";\n');
  writeFileSync(join(dir, 'project', '.env'), 'TOKEN=secret\n');
  writeFileSync(join(dir, 'secret.txt'), 'outside the root\n');
  writeFileSync(join(dir, 'corvid.yaml'), yaml);
  return dir;
}

const CONFIG = `${BASE}tools:
  workspace:
    type: files
    root: ./project
    deny: [".env", "**/*.pem", ".git/**"]
agents:
  coder:
    tools: [workspace]
    require_approval: [write_file, edit_file]
  reader:
    tools: [workspace.read_file, workspace.grep]
`;

describe('files tools from corvid.yaml', () => {
  it('an agent reads, is refused outside the root, edits after approval seeing the diff, and events name the paths', async () => {
    const dir = project(CONFIG);
    const rt = await loadRuntime({ cwd: dir, env: {}, dotenv: false });
    expect(rt.agent('coder').tools.map((t) => t.name)).toEqual([
      'read_file',
      'write_file',
      'edit_file',
      'multi_edit',
      'list_dir',
      'glob',
      'grep',
      'search_files',
    ]);
    expect(rt.agent('reader').tools.map((t) => t.name)).toEqual(['read_file', 'grep']);
    const model = new ScriptedModel([
      {
        toolCalls: [
          { toolName: 'read_file', input: { path: '../secret.txt' }, toolCallId: 'c1' },
          { toolName: 'read_file', input: { path: '.env' }, toolCallId: 'c2' },
        ],
      },
      { toolCalls: [{ toolName: 'read_file', input: { path: 'src/app.ts' }, toolCallId: 'c3' }] },
      {
        toolCalls: [{ toolName: 'edit_file', input: { path: 'src/app.ts', old_string: '"hello"', new_string: '"hi"' }, toolCallId: 'c4' }],
      },
      { text: 'Changed the greeting.' },
    ]);
    const agent = rt.agent('coder').setModel(model);
    const asked: string[] = [];
    const events: AgentEvent[] = [];
    const r = await agent.run('Make the greeting shorter', {
      onApproval: (req) => (asked.push(req.prompt), { approved: true }),
      onEvent: (e) => events.push(e),
    });
    expect(r.text).toBe('Changed the greeting.');
    expect(readFileSync(join(dir, 'project', 'src', 'app.ts'), 'utf8')).toBe('export const greeting = "hi";\n');
    const results = events.flatMap((e) => (e.type === 'tool_result' ? [e] : []));
    expect(results[0]).toMatchObject({
      toolName: 'read_file',
      isError: true,
      output: expect.stringContaining('"../secret.txt" refused: it leads outside the allowed folders'),
    });
    expect(results[1]).toMatchObject({ isError: true, output: expect.stringContaining('deny pattern ".env"') });
    expect(results[2]).toMatchObject({ isError: false, output: expect.objectContaining({ path: 'src/app.ts' }) });
    expect(results[3]).toMatchObject({
      toolName: 'edit_file',
      isError: false,
      output: expect.objectContaining({ path: 'src/app.ts', replacements: 1 }),
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('Allow edit_file(');
    expect(asked[0]).toContain('--- a/src/app.ts\n+++ b/src/app.ts');
    expect(asked[0]).toContain('-export const greeting = "hello";\n+export const greeting = "hi";');
    // The model saw the refusals as tool errors and went on.
    expect(JSON.stringify(model.calls[1].prompt)).toContain('refused');
  });

  it('a denied approval leaves the file unchanged; a session run pauses with the diff in approval_required', async () => {
    const dir = project(CONFIG);
    const rt = await loadRuntime({ cwd: dir, env: {}, dotenv: false });
    const edit = {
      toolCalls: [{ toolName: 'write_file', input: { path: 'src/app.ts', content: 'export const greeting = "yo";\n' }, toolCallId: 'w1' }],
    };
    const denied = await rt
      .agent('coder')
      .setModel(new ScriptedModel([edit, { text: 'OK, left it.' }]))
      .run('rewrite', { onApproval: () => ({ approved: false, reason: 'no' }) });
    expect(denied.text).toBe('OK, left it.');
    expect(readFileSync(join(dir, 'project', 'src', 'app.ts'), 'utf8')).toBe('export const greeting = "hello";\n');

    const store = await openStore({ driver: 'memory' });
    const events: AgentEvent[] = [];
    const agent = rt.agent('coder').setModel(new ScriptedModel([edit]));
    const paused = await agent.run('rewrite', { session: 's1', store, onEvent: (e) => events.push(e) });
    expect(paused.status).toBe('paused');
    const event = events.find((e) => e.type === 'approval_required');
    expect(event).toMatchObject({
      toolName: 'write_file',
      prompt: expect.stringContaining('-export const greeting = "hello";\n+export const greeting = "yo";'),
    });
    expect((await store.approvals.listPending({ sessionId: 's1' }))[0].prompt).toContain('+export const greeting = "yo";');
    await store.close();
  });

  it('validation names bad files entries with their line', async () => {
    const bad = validateConfigText(`${BASE}tools:\n  ws:\n    type: files\n    rooot: ./x\nagents:\n  a:\n    tools: [ws]\n`, { env: {} });
    expect(bad.ok).toBe(false);
    expect(bad.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'tools.ws.rooot', line: 7, message: 'unknown key "rooot" (did you mean "root"?)' }),
      ]),
    );
    const kind = validateConfigText(`${BASE}tools:\n  ws:\n    type: filez\n    root: .\n`, { env: {} });
    expect(kind.issues[0].message).toMatch(/type must be one of: files/);
    const dir = project(`${BASE}tools:\n  ws:\n    type: files\n    root: ./missing-folder\nagents:\n  a:\n    tools: [ws]\n`);
    const err = await loadRuntime({ cwd: dir, env: {}, dotenv: false }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/tools\.ws: cannot set up the files tools: the root folder .*missing-folder does not exist/);
  });

  it('over MCP (corvid mcp serve, /mcp) the tools that wait for approval are not served: nobody could approve them', async () => {
    const dir = project(CONFIG);
    const rt = await loadRuntime({ cwd: dir, env: {}, dotenv: false });
    try {
      const { mcpServedParts } = await import('../../../src/runtime/mcp-served-parts.js');
      const served = (await mcpServedParts(rt, { baseDir: dir })).tools.map((t) => t.name);
      expect(served).toEqual(expect.arrayContaining(['read_file', 'list_dir', 'glob', 'grep', 'multi_edit']));
      expect(served).not.toContain('write_file');
      expect(served).not.toContain('edit_file');
    } finally {
      await rt.close();
    }
  });
});
