/**
 * Built-in tools from corvid.yaml behind `require_approval`, over a real server on 127.0.0.1:
 * the chat JSON API, SSE and the WebSocket each show the approver the edit's diff or the shell
 * command; approving applies the edit / runs the command, denying leaves the file as it was; the
 * `tool_call` / `tool_result` events name the path, the command and the exit code.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import type { Agent } from '../../src/index.js';
import { loadRuntime, type Runtime } from '../../src/runtime/index.js';
import type { RunningServer } from '../../src/server/app/serve.js';
import { ScriptedModel, type ScriptedTurn } from '../../src/testing/index.js';
import { chat, parseSse, startServer } from './helpers.js';

const CONFIG = `models:
  m: { provider: openai, model: x, api_key: test }
defaults: { model: m }
storage:
  driver: sqlite
  path: ./data/corvid.db
tools:
  workspace:
    type: files
    root: ./project
  sh:
    type: shell
    cwd: ./project
    allow: ["echo *", "cat *"]
    timeout: 10s
    isolation: none
agents:
  coder:
    tools: [workspace]
    require_approval: [edit_file]
  dev:
    tools: [sh]
    require_approval: [bash]
`;

const EDIT = { path: 'src/app.js', old_string: '3000', new_string: '8080' };
const COMMAND = 'echo made > made.txt && cat made.txt';
const DIFF = ['--- a/src/app.js', '+++ b/src/app.js', '-export const port = 3000;', '+export const port = 8080;'];

/** One tool call on the first step, then an answer naming the tool's output. */
function model(toolName: string, input: unknown): ScriptedModel {
  return new ScriptedModel((call): ScriptedTurn => {
    const last = call.prompt.at(-1)!;
    if (last.role !== 'tool') return { toolCalls: [{ toolName, input }] };
    const part = (last.content as Array<{ type: string; output?: { value?: unknown } }>).find((p) => p.type === 'tool-result');
    const value = part?.output?.value;
    return { text: `done: ${typeof value === 'string' ? value : JSON.stringify(value)}` };
  });
}

const open: Array<{ server: RunningServer; rt: Runtime; dir: string }> = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.server.close();
    await o.rt.close();
    rmSync(o.dir, { recursive: true, force: true });
  }
});

/** A project folder with corvid.yaml, served with scripted models for `coder` (edit) and `dev` (bash). */
async function start() {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-tool-approvals-'));
  mkdirSync(join(dir, 'project', 'src'), { recursive: true });
  writeFileSync(join(dir, 'project', 'src', 'app.js'), 'export const port = 3000;\n');
  writeFileSync(join(dir, 'corvid.yaml'), CONFIG);
  const rt = await loadRuntime({ cwd: dir, env: {}, dotenv: false });
  (rt.agent('coder') as Agent).setModel(model('edit_file', EDIT));
  (rt.agent('dev') as Agent).setModel(model('bash', { command: COMMAND }));
  const { server, url } = await startServer([], { runtime: rt });
  open.push({ server, rt, dir });
  const file = () => readFileSync(join(dir, 'project', 'src', 'app.js'), 'utf8');
  const made = () => join(dir, 'project', 'made.txt');
  return { url, file, made };
}

const post = (url: string, path: string, body: unknown) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

function expectDiff(prompt: string): void {
  for (const line of DIFF) expect(prompt).toContain(line);
}

describe('require_approval for built-in tools over the chat API', () => {
  it('JSON: an edit pauses showing its diff (also in GET approvals); approving applies it, the result names the path', async () => {
    const { url, file } = await start();
    const res = await chat(url, 'coder', { message: 'Use port 8080' });
    expect(res.status).toBe(202);
    const paused = await res.json();
    expect(paused.pendingApprovals).toEqual([expect.objectContaining({ toolName: 'edit_file', input: EDIT })]);
    expectDiff(paused.pendingApprovals[0].prompt);
    const listed = await (await fetch(`${url}/api/v1/approvals?sessionId=${paused.sessionId}`)).json();
    expectDiff(listed.approvals[0].prompt);
    expect(file()).toBe('export const port = 3000;\n');

    const approved = await post(url, `/api/v1/approvals/${paused.pendingApprovals[0].approvalId}`, { approved: true });
    expect(approved.status).toBe(200);
    const answer = (await approved.json()).answer as string;
    expect(answer).toContain('"path":"src/app.js"');
    expect(answer).toContain('+export const port = 8080;');
    expect(file()).toBe('export const port = 8080;\n');
  });

  it('JSON: denying an edit leaves the file unchanged and tells the model why', async () => {
    const { url, file } = await start();
    const paused = await (await chat(url, 'coder', { message: 'Use port 8080' })).json();
    const denied = await post(url, `/api/v1/approvals/${paused.pendingApprovals[0].approvalId}`, {
      approved: false,
      reason: 'the port is fixed',
    });
    expect(denied.status).toBe(200);
    expect((await denied.json()).answer).toContain('the port is fixed');
    expect(file()).toBe('export const port = 3000;\n');
  });

  it('JSON: a command pauses showing `$ command`; approving runs it and the result carries the command and exit code', async () => {
    const { url, made } = await start();
    const paused = await (await chat(url, 'dev', { message: 'Make a file' })).json();
    expect(paused.pendingApprovals).toEqual([expect.objectContaining({ toolName: 'bash', input: { command: COMMAND } })]);
    expect(paused.pendingApprovals[0].prompt).toContain(`$ ${COMMAND}`);
    expect(existsSync(made())).toBe(false);

    const approved = await (await post(url, `/api/v1/approvals/${paused.pendingApprovals[0].approvalId}`, { approved: true })).json();
    expect(approved.status).toBe('completed');
    expect(approved.answer).toContain(`"command":${JSON.stringify(COMMAND)}`);
    expect(approved.answer).toContain('"exitCode":0');
    expect(approved.answer).toContain('"stdout":"made\\n"');
    expect(readFileSync(made(), 'utf8')).toBe('made\n');
  });

  it('SSE: approval_required shows the diff / the command; the resumed streams carry path, command and exit code in tool_call / tool_result', async () => {
    const { url, file, made } = await start();
    const edit = parseSse(await (await chat(url, 'coder', { message: 'Use port 8080', stream: true })).text());
    const askEdit = edit.find((e) => e.event === 'approval_required')!.data;
    expect(askEdit).toMatchObject({ toolName: 'edit_file', input: EDIT });
    expectDiff(askEdit.prompt);
    expect(edit.find((e) => e.event === 'tool_call')!.data).toMatchObject({ toolName: 'edit_file', input: { path: 'src/app.js' } });
    expect(file()).toBe('export const port = 3000;\n');
    const editRun = parseSse(await (await post(url, `/api/v1/approvals/${askEdit.approvalId}`, { approved: true, stream: true })).text());
    expect(editRun.find((e) => e.event === 'tool_result')!.data).toMatchObject({
      toolName: 'edit_file',
      isError: false,
      output: { path: 'src/app.js', replacements: 1, diff: expect.stringContaining('+export const port = 8080;') },
    });
    expect(editRun.at(-1)).toMatchObject({ event: 'done', data: { status: 'completed' } });
    expect(file()).toBe('export const port = 8080;\n');

    const shell = parseSse(await (await chat(url, 'dev', { message: 'Make a file', stream: true })).text());
    const askShell = shell.find((e) => e.event === 'approval_required')!.data;
    expect(askShell.prompt).toContain(`$ ${COMMAND}`);
    expect(shell.find((e) => e.event === 'tool_call')!.data).toMatchObject({ toolName: 'bash', input: { command: COMMAND } });
    const shellRun = parseSse(await (await post(url, `/api/v1/approvals/${askShell.approvalId}`, { approved: true, stream: true })).text());
    expect(shellRun.find((e) => e.event === 'tool_result')!.data).toMatchObject({
      toolName: 'bash',
      isError: false,
      output: { command: COMMAND, exitCode: 0, stdout: 'made\n' },
    });
    expect(readFileSync(made(), 'utf8')).toBe('made\n');
  });

  it('WebSocket: inline approval_required shows the diff / the command; approving applies them, denying leaves the file', async () => {
    const { url, file, made } = await start();
    /** Sends `message` to `agent`, answers the one approval with `approved`, returns every message up to `done`. */
    async function turn(agent: string, message: string, approved: boolean): Promise<any[]> {
      const ws = new WebSocket(`${url.replace('http', 'ws')}/api/v1/agents/${agent}/ws`);
      const messages: any[] = [];
      const done = new Promise<void>((resolve) =>
        ws.on('message', (d) => {
          const m = JSON.parse(String(d));
          messages.push(m);
          if (m.type === 'approval_required')
            ws.send(JSON.stringify({ type: 'approval', approvalId: m.approvalId, approved, ...(approved ? {} : { reason: 'not now' }) }));
          if (m.type === 'done' || m.type === 'error') resolve();
        }),
      );
      await new Promise((r) => ws.once('open', r));
      ws.send(JSON.stringify({ type: 'message', message }));
      await done;
      ws.close();
      return messages;
    }

    const denied = await turn('coder', 'Use port 8080', false);
    expectDiff(denied.find((m) => m.type === 'approval_required').prompt);
    expect(denied.at(-1)).toMatchObject({ type: 'done', status: 'completed', answer: expect.stringContaining('not now') });
    expect(file()).toBe('export const port = 3000;\n');

    const edited = await turn('coder', 'Use port 8080', true);
    expectDiff(edited.find((m) => m.type === 'approval_required').prompt);
    expect(edited.find((m) => m.type === 'tool_result')).toMatchObject({ toolName: 'edit_file', output: { path: 'src/app.js' } });
    expect(file()).toBe('export const port = 8080;\n');

    const ran = await turn('dev', 'Make a file', true);
    expect(ran.find((m) => m.type === 'approval_required').prompt).toContain(`$ ${COMMAND}`);
    expect(ran.find((m) => m.type === 'tool_result')).toMatchObject({ toolName: 'bash', output: { command: COMMAND, exitCode: 0 } });
    expect(readFileSync(made(), 'utf8')).toBe('made\n');
  });
});
