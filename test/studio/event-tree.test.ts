import { describe, expect, it } from 'vitest';

import {
  type AgentEvent,
  applyEvent,
  buildTree,
  createTree,
  flattenTree,
  pendingApprovals,
  resolveApproval,
  type RunNode,
  type StepNode,
  type ToolNode,
  turnUsage,
  windowRows,
} from '../../studio/src/event-tree.js';

const usage = (input: number, output: number) => ({
  inputTokens: input,
  outputTokens: output,
  reasoningTokens: 0,
  cachedInputTokens: 0,
  totalTokens: input + output,
});
const base = (agent: string, runId: string, path: string[]) => ({ agent, runId, path });
const top = base('coordinator', 'run_1', ['coordinator']);
const nested = base('researcher', 'run_2', ['coordinator', 'researcher']);

/** A turn: the coordinator reasons, calls the researcher as an agent tool (which calls a search tool), answers. */
const turn: AgentEvent[] = [
  { ...top, type: 'run_start', input: 'find it' },
  { ...top, type: 'step_start', step: 1, maxSteps: 10 },
  { ...top, type: 'reasoning_delta', step: 1, delta: 'I should ' },
  { ...top, type: 'reasoning_delta', step: 1, delta: 'ask.' },
  { ...top, type: 'tool_call', step: 1, toolCallId: 'c1', toolName: 'researcher', input: { question: 'where?' } },
  { ...nested, type: 'run_start', input: 'where?' },
  { ...nested, type: 'step_start', step: 1, maxSteps: 5 },
  { ...nested, type: 'tool_call', step: 1, toolCallId: 'c1', toolName: 'search', input: { q: 'where' } },
  { ...nested, type: 'tool_result', step: 1, toolCallId: 'c1', toolName: 'search', output: ['a'], isError: false, durationMs: 12 },
  { ...nested, type: 'step_end', step: 1, text: 'Found a.', reasoning: '', finishReason: 'stop', usage: usage(5, 2) },
  { ...nested, type: 'run_end', status: 'completed', steps: 1, usage: usage(5, 2), durationMs: 30 },
  { ...top, type: 'tool_result', step: 1, toolCallId: 'c1', toolName: 'researcher', output: 'Found a.', isError: false, durationMs: 40 },
  { ...top, type: 'step_end', step: 1, text: '', reasoning: 'I should ask.', finishReason: 'tool-calls', usage: usage(10, 3) },
  { ...top, type: 'step_start', step: 2, maxSteps: 10 },
  { ...top, type: 'text_delta', step: 2, delta: 'It is ' },
  { ...top, type: 'text_delta', step: 2, delta: 'a.' },
  { ...top, type: 'step_end', step: 2, text: 'It is a.', reasoning: '', finishReason: 'stop', usage: usage(20, 4) },
  { ...top, type: 'answer', text: 'It is a.' },
  { ...top, type: 'run_end', status: 'completed', steps: 2, usage: usage(35, 9), durationMs: 90 },
];

describe('event tree', () => {
  it('nests a sub-agent run under the tool call that started it, with its own steps and tools', () => {
    const tree = buildTree(turn);
    expect(tree.roots).toHaveLength(1);
    const run = tree.roots[0] as RunNode;
    expect(run).toMatchObject({ kind: 'run', agent: 'coordinator', depth: 0, status: 'completed', durationMs: 90 });
    const [step1, step2] = run.children as StepNode[];
    expect(step1).toMatchObject({ step: 1, reasoning: 'I should ask.', text: '', usage: usage(10, 3), depth: 1 });
    expect(step2).toMatchObject({ step: 2, text: 'It is a.', finishReason: 'stop' });
    const call = step1.children[0] as ToolNode;
    expect(call).toMatchObject({ toolName: 'researcher', output: 'Found a.', durationMs: 40, depth: 2 });
    const sub = call.children[0] as RunNode;
    expect(sub).toMatchObject({ kind: 'run', agent: 'researcher', path: ['coordinator', 'researcher'], depth: 3, status: 'completed' });
    const subTool = (sub.children[0] as StepNode).children[0] as ToolNode;
    // The same toolCallId in two runs stays two calls.
    expect(subTool).toMatchObject({ toolName: 'search', output: ['a'], depth: 5 });
    expect(tree.answer).toBe('It is a.');
  });

  it('streams text and reasoning deltas into the step before step_end arrives', () => {
    const tree = buildTree(turn.slice(0, 4));
    const step = (tree.roots[0] as RunNode).children[0] as StepNode;
    expect(step.reasoning).toBe('I should ask.');
    expect(tree.eventCount).toBe(4);
  });

  it('flattens depth first and hides the children of collapsed nodes', () => {
    const tree = buildTree(turn);
    const rows = flattenTree(tree);
    expect(rows.map((r) => `${r.depth}:${r.node.kind}`)).toEqual(['0:run', '1:step', '2:tool', '3:run', '4:step', '5:tool', '1:step']);
    const call = rows[2].node;
    const collapsed = flattenTree(tree, new Set([call.id]));
    expect(collapsed.map((r) => r.node.kind)).toEqual(['run', 'step', 'tool', 'step']);
    expect(collapsed[2]).toMatchObject({ collapsed: true, hasChildren: true });
  });

  it('reports the usage of the turn from the top run, or the steps while it runs', () => {
    expect(turnUsage(buildTree(turn))).toEqual(usage(35, 9));
    expect(turnUsage(buildTree(turn.slice(0, 13)))).toEqual(usage(10, 3));
    expect(turnUsage(buildTree(turn.slice(0, 3)))).toBeUndefined();
  });

  it('puts an approval under its tool call and resumes the paused run in the same node', () => {
    const tree = buildTree([
      { ...top, type: 'run_start', input: 'delete a' },
      { ...top, type: 'step_start', step: 1, maxSteps: 5 },
      { ...top, type: 'tool_call', step: 1, toolCallId: 'd1', toolName: 'delete_file', input: { path: 'a' } },
      {
        ...top,
        type: 'approval_required',
        approvalId: 'apr_1',
        toolCallId: 'd1',
        toolName: 'delete_file',
        input: { path: 'a' },
        prompt: 'Delete a?',
      },
      { ...top, type: 'run_end', status: 'paused', steps: 1, usage: usage(3, 1), durationMs: 5 },
    ]);
    expect(pendingApprovals(tree).map((a) => a.prompt)).toEqual(['Delete a?']);
    expect(resolveApproval(tree, 'apr_1', true)).toBe(true);
    expect(resolveApproval(tree, 'apr_nope', true)).toBe(false);
    expect(pendingApprovals(tree)).toEqual([]);
    applyEvent(tree, { ...top, type: 'run_start', input: 'delete a', resumed: true });
    applyEvent(tree, { ...top, type: 'tool_call', step: 1, toolCallId: 'd1', toolName: 'delete_file', input: { path: 'a' } });
    applyEvent(tree, {
      ...top,
      type: 'tool_result',
      step: 1,
      toolCallId: 'd1',
      toolName: 'delete_file',
      output: 'deleted',
      isError: false,
      durationMs: 2,
    });
    applyEvent(tree, { ...top, type: 'run_end', status: 'completed', steps: 2, usage: usage(6, 2), durationMs: 9 });
    expect(tree.roots).toHaveLength(1);
    const run = tree.roots[0] as RunNode;
    expect(run).toMatchObject({ resumed: true, status: 'completed' });
    const step = run.children[0] as StepNode;
    expect(step.children).toHaveLength(1);
    const tool = step.children[0] as ToolNode;
    expect(tool.output).toBe('deleted');
    expect(tool.children[0]).toMatchObject({ kind: 'approval', status: 'approved' });
  });

  it('shows handoffs, workflow tasks, retries and errors as notes of the step or run', () => {
    const tree = buildTree([
      { ...top, type: 'run_start', input: 'x' },
      { ...top, type: 'step_start', step: 1, maxSteps: 5 },
      { ...top, type: 'retry', step: 1, attempt: 1, delayMs: 1500, error: { name: 'E', code: 'rate_limited', message: 'slow down' } },
      { ...top, type: 'handoff', from: 'coordinator', to: 'billing', toolCallId: 'h1' },
      { ...top, type: 'task_end', workflow: 'orchestrator', task: 'fetch', target: 'fetcher', status: 'failed', durationMs: 250 },
      { ...top, type: 'error', error: { name: 'E', code: 'model_error', message: 'boom' } },
    ]);
    const notes = flattenTree(tree)
      .map((r) => r.node)
      .filter((n) => n.kind === 'note');
    expect(notes.map((n) => n.kind === 'note' && [n.tone, n.text])).toEqual([
      ['warning', 'attempt 1 in 1.5 s: rate_limited: slow down'],
      ['info', 'coordinator → billing'],
      ['error', 'fetch (fetcher) failed in 250 ms'],
      ['error', 'model_error: boom'],
    ]);
  });

  it('opens a run implicitly for events of a stream joined late, and records results without their call', () => {
    const tree = createTree();
    applyEvent(tree, {
      ...top,
      type: 'tool_result',
      step: 3,
      toolCallId: 'x',
      toolName: 'read',
      output: 'text',
      isError: true,
      durationMs: 1,
    });
    const rows = flattenTree(tree);
    expect(rows.map((r) => r.node.kind)).toEqual(['run', 'step', 'tool']);
    expect(rows[2].node).toMatchObject({ toolName: 'read', isError: true, output: 'text' });
  });

  it('builds a 2,000-event run quickly and windows its rows at the live edge', () => {
    const events: AgentEvent[] = [{ ...top, type: 'run_start', input: 'long' }];
    for (let step = 1; events.length < 2000; step++) {
      events.push({ ...top, type: 'step_start', step, maxSteps: 1000 });
      events.push({ ...top, type: 'text_delta', step, delta: `step ${step} ` });
      events.push({ ...top, type: 'tool_call', step, toolCallId: `c${step}`, toolName: 'work', input: { step } });
      events.push({
        ...top,
        type: 'tool_result',
        step,
        toolCallId: `c${step}`,
        toolName: 'work',
        output: step,
        isError: false,
        durationMs: 1,
      });
      events.push({ ...top, type: 'step_end', step, text: `step ${step}`, reasoning: '', finishReason: 'tool-calls', usage: usage(1, 1) });
    }
    const started = performance.now();
    const tree = buildTree(events);
    const rows = flattenTree(tree);
    expect(performance.now() - started).toBeLessThan(500);
    expect(tree.eventCount).toBe(events.length);
    expect(rows).toHaveLength(1 + 400 * 2);
    const view = windowRows(rows, 200);
    expect(view.rows).toHaveLength(200);
    expect(view.hiddenBefore).toBe(601);
    expect(view.rows.at(-1)).toBe(rows.at(-1));
    expect(windowRows(rows, 200, 100)).toMatchObject({ hiddenBefore: 501, hiddenAfter: 100 });
  });
});
