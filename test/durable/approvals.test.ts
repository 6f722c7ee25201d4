import { afterEach, describe, expect, it } from 'vitest';

import { Agent, type AgentEvent, tool } from '../../src/index.js';
import { openStore } from '../../src/storage/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { promptText, storeAt, TARGETS } from './support.js';

/** A `delete_file` tool that needs approval and a `list` tool that does not, counting their executions. */
function fileTools() {
  const ran = { delete: [] as string[], list: 0 };
  const del = tool<{ path: string }>({
    name: 'delete_file',
    description: 'Delete a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    requireApproval: 'Delete {path}?',
    execute: ({ path }) => {
      ran.delete.push(path);
      return `deleted ${path}`;
    },
  });
  const list = tool({
    name: 'list',
    description: 'List files',
    parameters: { type: 'object', properties: {} },
    execute: () => {
      ran.list++;
      return ['a.txt', 'b.txt'];
    },
  });
  return { ran, tools: [del, list] };
}

const askBoth = {
  toolCalls: [
    { toolName: 'delete_file', input: { path: 'a.txt' }, toolCallId: 'c_del' },
    { toolName: 'list', input: {}, toolCallId: 'c_list' },
  ],
};

for (const target of TARGETS) {
  describe.skipIf(Boolean(target.skip))(`approvals on ${target.name}`, () => {
    let cleanup: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });

    it('pause the run, persist the request, and an approval given elsewhere lets resume() finish it', async () => {
      const at = await storeAt(target);
      cleanup = at.close;
      const first = fileTools();
      const events: AgentEvent[] = [];
      const agent = new Agent({ name: 'files', model: new ScriptedModel([askBoth]), tools: first.tools, store: await at.open() });
      const paused = await agent.run('delete a.txt', { session: 'ap1', onEvent: (e) => events.push(e) });

      expect(paused.status).toBe('paused');
      expect(paused.text).toBe('');
      expect(paused.pendingApprovals).toEqual([
        {
          approvalId: expect.stringMatching(/^apr_/),
          toolCallId: 'c_del',
          toolName: 'delete_file',
          input: { path: 'a.txt' },
          prompt: 'Delete a.txt?',
        },
      ]);
      expect(first.ran).toEqual({ delete: [], list: 1 });
      expect(events.map((e) => e.type).slice(-2)).toEqual(['approval_required', 'run_end']);
      expect(events.at(-2)).toMatchObject({
        type: 'approval_required',
        approvalId: paused.pendingApprovals![0].approvalId,
        prompt: 'Delete a.txt?',
      });
      expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'paused' });

      // Another connection (as another process would) sees the pending approval and answers it.
      const other = await at.open();
      const pending = await other.approvals.listPending({ sessionId: 'ap1' });
      expect(pending.map((a) => [a.toolName, a.prompt, a.runId])).toEqual([['delete_file', 'Delete a.txt?', paused.runId]]);
      expect((await other.checkpoints.getRun(paused.runId))?.status).toBe('paused');
      await other.approvals.answer(pending[0].id, { approved: true, reason: 'fine' });

      const second = fileTools();
      const model = new ScriptedModel([{ text: 'Deleted a.txt.' }]);
      const again = new Agent({ name: 'files', model, tools: second.tools, store: other });
      const resumedEvents: AgentEvent[] = [];
      const done = await again.resume(paused.runId, { onEvent: (e) => resumedEvents.push(e) });
      expect(done).toMatchObject({ runId: paused.runId, status: 'completed', text: 'Deleted a.txt.', sessionId: 'ap1' });
      expect(second.ran).toEqual({ delete: ['a.txt'], list: 0 });
      expect(resumedEvents[0]).toMatchObject({ type: 'run_start', runId: paused.runId, resumed: true, input: 'delete a.txt' });
      expect(
        resumedEvents
          .filter((e) => e.type === 'tool_result')
          .map((e) => e.type === 'tool_result' && [e.toolName, e.output])
          .sort(),
      ).toEqual([
        ['delete_file', 'deleted a.txt'],
        ['list', ['a.txt', 'b.txt']],
      ]);
      expect(promptText(await other.sessions.messages('ap1'))).toEqual([
        'user: delete a.txt',
        'assistant: call delete_file({"path":"a.txt"}) call list({})',
        'tool: result delete_file {"type":"text","value":"deleted a.txt"} result list {"type":"json","value":["a.txt","b.txt"]}',
        'assistant: Deleted a.txt.',
      ]);
      expect((await other.checkpoints.getRun(paused.runId))?.status).toBe('completed');
    });

    it('a denial reaches the model as the tool error, with the reason', async () => {
      const at = await storeAt(target);
      cleanup = at.close;
      const store = await at.open();
      const t = fileTools();
      const model = new ScriptedModel([askBoth, { text: 'OK, I kept a.txt.' }]);
      const agent = new Agent({ name: 'files', model, tools: t.tools, store });
      const paused = await agent.run('delete a.txt', { durable: true });
      expect(paused.status).toBe('paused');
      await store.approvals.answer(paused.pendingApprovals![0].approvalId, { approved: false, reason: 'a.txt is the audit log' });
      const done = await agent.resume(paused.runId);
      expect(done.text).toBe('OK, I kept a.txt.');
      expect(t.ran.delete).toEqual([]);
      expect(promptText(model.calls[1].prompt)).toContain(
        'tool: result delete_file {"type":"error-text","value":"The user denied this call of \\"delete_file\\": a.txt is the audit log"} result list {"type":"json","value":["a.txt","b.txt"]}',
      );
    });

    it('a stored answer wins over an inline onApproval handler when the run resumes', async () => {
      const at = await storeAt(target);
      cleanup = at.close;
      const store = await at.open();
      const t = fileTools();
      const model = new ScriptedModel([askBoth, { text: 'Kept it.' }]);
      const agent = new Agent({ name: 'files', model, tools: t.tools, store });
      const paused = await agent.run('delete a.txt', { session: 'ap4' });
      await store.approvals.answer(paused.pendingApprovals![0].approvalId, { approved: false, reason: 'not today' });
      const asked: string[] = [];
      const done = await agent.resume(paused.runId, { onApproval: (r) => (asked.push(r.prompt), { approved: true }) });
      expect(done.text).toBe('Kept it.');
      expect(asked).toEqual([]);
      expect(t.ran.delete).toEqual([]);
      expect(promptText(model.calls[1].prompt).join('\n')).toContain('not today');
    });

    it('resuming before an answer pauses again on the same approval', async () => {
      const at = await storeAt(target);
      cleanup = at.close;
      const store = await at.open();
      const agent = new Agent({ name: 'files', model: new ScriptedModel([askBoth]), tools: fileTools().tools, store });
      const paused = await agent.run('delete a.txt', { session: 'ap3' });
      const again = await agent.resume(paused.runId);
      expect(again.status).toBe('paused');
      expect(again.pendingApprovals![0].approvalId).toBe(paused.pendingApprovals![0].approvalId);
      expect(await store.approvals.listPending({ runId: paused.runId })).toHaveLength(1);
    });
  });
}

describe('approvals in process and without a store', () => {
  it('onApproval decides inline without pausing; a denial reason reaches the model', async () => {
    const t = fileTools();
    const asked: string[] = [];
    const model = new ScriptedModel([askBoth, { toolCalls: [{ toolName: 'delete_file', input: { path: 'b.txt' } }] }, { text: 'done' }]);
    const agent = new Agent({ name: 'files', model, tools: t.tools });
    const r = await agent.run('clean up', {
      onApproval: async (req) => {
        asked.push(req.prompt);
        return req.input && (req.input as { path: string }).path === 'a.txt' ? { approved: false, reason: 'keep it' } : { approved: true };
      },
    });
    expect(r.status).toBe('completed');
    expect(asked).toEqual(['Delete a.txt?', 'Delete b.txt?']);
    expect(t.ran.delete).toEqual(['b.txt']);
    expect(promptText(model.calls[1].prompt).at(-1)).toContain('denied this call of \\"delete_file\\": keep it');
  });

  it('without a store and without onApproval the run fails instead of running the tool', async () => {
    const t = fileTools();
    const agent = new Agent({ name: 'files', model: new ScriptedModel([askBoth]), tools: t.tools });
    await expect(agent.run('delete')).rejects.toMatchObject({
      code: 'tool_execution_failed',
      message: expect.stringContaining("needs a human's approval"),
    });
    expect(t.ran.delete).toEqual([]);
  });

  it('requireApproval as a function asks only when it says so; agent-level requireApproval covers tools defined elsewhere', async () => {
    const ran: number[] = [];
    const pay = tool<{ amount: number }>({
      name: 'pay',
      description: 'Pay',
      parameters: { type: 'object', properties: { amount: { type: 'number' } } },
      requireApproval: ({ amount }) => (amount > 100 ? `Pay ${amount}?` : false),
      execute: ({ amount }) => ran.push(amount),
    });
    const asked: string[] = [];
    const model = new ScriptedModel([
      {
        toolCalls: [
          { toolName: 'pay', input: { amount: 5 } },
          { toolName: 'pay', input: { amount: 500 } },
        ],
      },
      { text: 'paid' },
    ]);
    await new Agent({ name: 'p', model, tools: [pay] }).run('pay', { onApproval: (r) => (asked.push(r.prompt), { approved: true }) });
    expect(asked).toEqual(['Pay 500?']);
    expect(ran.sort()).toEqual([5, 500]);

    const plain = tool({ name: 'wipe', description: 'Wipe', parameters: { type: 'object' }, execute: () => 'wiped' });
    const asked2: string[] = [];
    const m2 = new ScriptedModel([{ toolCalls: [{ toolName: 'wipe', input: {} }] }, { text: 'ok' }]);
    await new Agent({ name: 'w', model: m2, tools: [plain], requireApproval: { wipe: 'Wipe everything?' } }).run('wipe', {
      onApproval: (r) => (asked2.push(r.prompt), { approved: false }),
    });
    expect(asked2).toEqual(['Wipe everything?']);
  });
});

describe('resume: bad input', () => {
  it('an unknown run id, or a completed run, is a clear error', async () => {
    const store = await openStore({ driver: 'memory' });
    const agent = new Agent({ name: 'a', model: new ScriptedModel([{ text: 'x' }]), store });
    await expect(agent.resume('run_nope')).rejects.toMatchObject({
      name: 'DurableRunError',
      code: 'not_found',
      message: expect.stringContaining('Unknown run "run_nope"'),
    });
    const r = await agent.run('hi', { session: 's' });
    await expect(agent.resume(r.runId)).rejects.toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('already completed'),
    });
    const other = new Agent({ name: 'b', model: new ScriptedModel([askBoth]), tools: fileTools().tools, store });
    const paused = await other.run('x', { session: 's2' });
    await expect(agent.resume(paused.runId)).rejects.toThrow(/belongs to agent "b", not "a"/);
    await store.close();
  });
});

describe('approvals after a handoff', () => {
  it('a handoff target that pauses is resumed through the first agent, continuing with the target', async () => {
    const store = await openStore({ driver: 'memory' });
    const t = fileTools();
    const specialistModel = new ScriptedModel([askBoth, { text: 'Specialist: a.txt deleted.' }]);
    const specialist = new Agent({ name: 'specialist', model: specialistModel, tools: t.tools });
    const front = new Agent({
      name: 'front',
      model: new ScriptedModel([{ toolCalls: [{ toolName: 'transfer_to_specialist', input: {} }] }]),
      handoffs: [specialist],
      store,
    });
    const events: AgentEvent[] = [];
    const paused = await front.run('please delete a.txt', { session: 'ho', onEvent: (e) => events.push(e) });
    expect(paused.status).toBe('paused');
    expect(events.filter((e) => e.type === 'approval_required').map((e) => e.path)).toEqual([['front', 'specialist']]);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'paused', path: ['front'] });
    expect(await store.sessions.getActiveAgent('ho')).toBe('specialist');

    await store.approvals.answer(paused.pendingApprovals![0].approvalId, { approved: true });
    const done = await front.resume(paused.runId);
    expect(done).toMatchObject({ runId: paused.runId, text: 'Specialist: a.txt deleted.', agent: 'specialist' });
    expect(t.ran).toEqual({ delete: ['a.txt'], list: 1 });
    expect(promptText(await store.sessions.messages('ho')).map((l) => l.split(' ')[0])).toEqual([
      'user:',
      'assistant:',
      'tool:',
      'assistant:',
      'tool:',
      'assistant:',
    ]);
    await store.close();
  });
});
