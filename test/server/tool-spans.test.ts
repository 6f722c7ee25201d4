/**
 * Tool spans show what a built-in tool touched: the file path, the shell command and its exit
 * code, the URL fetched — bounded, and never a secret (the Slack token, auth headers, tokens in
 * URLs). Real tools run by real agent runs; their events go through `RunTracer` into an in-memory
 * span exporter. An approved call's span, recorded by the resumed run, carries its result too.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Agent, type AgentEvent } from '../../src/index.js';
import { RunTracer } from '../../src/server/observability/run-tracer.js';
import { openStore } from '../../src/storage/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { fileTools, shellTool, slackTools, webTools } from '../../src/tools/index.js';
import { type FakeSlack, startFakeSlack } from '../tools/slack/fake-slack-server.js';

const SLACK_TOKEN = 'xoxb-1111-2222-SECRETsecretSECRET';
const BEARER = 'Bearer sekrit-header-value';
const QUERY_TOKEN = 'query-token-value-123';

let dir = '';
let slack: FakeSlack;
let web: Server;
let webUrl = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'corvid-tool-spans-'));
  slack = await startFakeSlack(SLACK_TOKEN);
  web = createServer((req, res) =>
    res.writeHead(req.url?.startsWith('/missing') ? 404 : 200, { 'content-type': 'text/plain' }).end(`you asked ${req.url}`),
  );
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
  webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await slack.close();
  web.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A tracer exporting to memory, and a RunTracer per run feeding it. */
function spans() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('test');
  return {
    onEvent: () => {
      const rt = new RunTracer(tracer, () => 'scripted');
      return (e: AgentEvent) => rt.event(e);
    },
    tool: (name: string): ReadableSpan[] => exporter.getFinishedSpans().filter((s) => s.name === `tool.call ${name}`),
    all: () => exporter.getFinishedSpans(),
  };
}

const tools = () => [
  ...fileTools({ root: dir }),
  shellTool({ cwd: dir, isolation: 'none', timeoutMs: 10_000 }),
  ...webTools({ allowHosts: ['127.0.0.1'] }),
  ...slackTools({ token: SLACK_TOKEN, slackApiUrl: slack.apiUrl }),
];

describe('tool spans', () => {
  it('carry the path, the command and exit code, the URL, method and status — and no secret', async () => {
    writeFileSync(join(dir, 'app.js'), 'export const port = 3000;\n');
    const t = spans();
    const model = new ScriptedModel([
      {
        toolCalls: [
          { toolName: 'edit_file', input: { path: 'app.js', old_string: '3000', new_string: '8080' }, toolCallId: 'c_edit' },
          { toolName: 'bash', input: { command: 'echo hi; exit 3' }, toolCallId: 'c_bash' },
          {
            toolName: 'http_request',
            input: {
              url: `${webUrl}/items?api_key=${QUERY_TOKEN}&q=1`,
              method: 'POST',
              headers: { authorization: BEARER },
              json: { a: 1 },
            },
            toolCallId: 'c_http',
          },
          { toolName: 'slack_post_message', input: { channel: 'C01GENERAL', text: 'deployed' }, toolCallId: 'c_slack' },
        ],
      },
      { text: 'Done.' },
    ]);
    const agent = new Agent({ name: 'ops', model, tools: tools() });
    const r = await agent.run('Ship it', { onEvent: t.onEvent() });
    expect(r.status).toBe('completed');

    const [edit] = t.tool('edit_file');
    expect(edit.attributes).toMatchObject({ 'corvid.tool.path': 'app.js', 'corvid.tool_call_id': 'c_edit' });
    const [bash] = t.tool('bash');
    expect(bash.attributes).toMatchObject({ 'corvid.tool.command': 'echo hi; exit 3', 'corvid.tool.exit_code': 3, 'corvid.tool.cwd': dir });
    const [http] = t.tool('http_request');
    expect(http.attributes).toMatchObject({
      'corvid.tool.url': `${webUrl}/items?api_key=REDACTED&q=1`,
      'corvid.tool.http_method': 'POST',
      'corvid.tool.http_status': 200,
    });
    expect(t.tool('slack_post_message')).toHaveLength(1);

    const recorded = JSON.stringify(t.all().map((s) => [s.attributes, s.events, s.status]));
    for (const secret of [SLACK_TOKEN, 'sekrit', QUERY_TOKEN]) expect(recorded).not.toContain(secret);
  });

  it('hide user info and tokens of URLs (also in error messages), and cut long commands to 1024 characters', async () => {
    const t = spans();
    const long = `echo ${'x'.repeat(3000)}`;
    const model = new ScriptedModel([
      {
        toolCalls: [
          { toolName: 'web_fetch', input: { url: `http://user:hunter2@127.0.0.1:1/x#access_token=${QUERY_TOKEN}` }, toolCallId: 'c_fetch' },
          { toolName: 'bash', input: { command: long }, toolCallId: 'c_long' },
          { toolName: 'web_fetch', input: { url: `${webUrl}/missing?token=${QUERY_TOKEN}` }, toolCallId: 'c_404' },
        ],
      },
      { text: 'Done.' },
    ]);
    await new Agent({ name: 'ops', model, tools: tools() }).run('Go', { onEvent: t.onEvent() });
    const [fetchSpan, missing] = t.tool('web_fetch');
    expect(fetchSpan.attributes['corvid.tool.url']).toBe('http://127.0.0.1:1/x');
    // The error the model reads names the URL; the span's status names it without the token.
    expect(missing.status.message).toBe(`Tool "web_fetch" failed: ${webUrl}/missing?token=REDACTED answered HTTP 404 Not Found`);
    const [bash] = t.tool('bash');
    const command = bash.attributes['corvid.tool.command'] as string;
    expect(command).toHaveLength(1024);
    expect(command.endsWith('…')).toBe(true);
    expect(bash.attributes['corvid.tool.exit_code']).toBe(0);
    expect(JSON.stringify(t.all().map((s) => [s.attributes, s.status]))).not.toMatch(/hunter2|query-token/);
  });

  it('an approved call is traced by the resumed run, with its result', async () => {
    const store = await openStore({ driver: 'sqlite', path: join(dir, 'runs.db') });
    try {
      const t = spans();
      const call = { toolCalls: [{ toolName: 'bash', input: { command: 'echo approved' }, toolCallId: 'c_ok' }] };
      const model = new ScriptedModel([call, { text: 'Ran it.' }]);
      const agent = new Agent({ name: 'ops', model, tools: [shellTool({ cwd: dir, isolation: 'none', requireApproval: true })], store });
      const paused = await agent.run('Run it', { session: 's1', onEvent: t.onEvent() });
      expect(paused.status).toBe('paused');
      await store.approvals.answer(paused.pendingApprovals![0].approvalId, { approved: true });
      const done = await agent.resume(paused.runId, { onEvent: t.onEvent() });
      expect(done.status).toBe('completed');

      const [asked, ran] = t.tool('bash');
      expect(asked.attributes).toMatchObject({ 'corvid.tool.command': 'echo approved' });
      expect(ran.attributes).toMatchObject({
        'corvid.tool.command': 'echo approved',
        'corvid.tool.exit_code': 0,
        'corvid.tool_call_id': 'c_ok',
      });
      const resumedRun = t.all().filter((s) => s.name === 'agent.run ops')[1];
      expect(ran.parentSpanContext?.spanId).toBe(resumedRun.spanContext().spanId);
    } finally {
      await store.close();
    }
  });
});
