/**
 * The event tree of a chat turn: the run events of the server's SSE stream (the `AgentEvent` union of
 * `agent.stream()`) folded into nested nodes — runs, their steps, the tool calls of each step, nested agent
 * runs under the call that started them — and flattened into rows for a windowed list. Pure data: no DOM.
 */
import type { AgentEvent, EventError } from '../../src/types/events.js';
import type { Usage } from '../../src/types/usage.js';

export type { AgentEvent, EventError, Usage };

/** A tool call and, once it came, its result. */
export interface ToolNode {
  kind: 'tool';
  id: string;
  depth: number;
  toolCallId: string;
  toolName: string;
  input: unknown;
  output?: unknown;
  isError?: boolean;
  durationMs?: number;
  /** Last MCP progress message of the call. */
  progress?: string;
  children: TreeNode[];
}

/** One model step of a run: its text, reasoning, tool calls and usage. */
export interface StepNode {
  kind: 'step';
  id: string;
  depth: number;
  agent: string;
  step: number;
  text: string;
  reasoning: string;
  finishReason?: string;
  usage?: Usage;
  children: TreeNode[];
}

/** A run: the top-level one of the turn, or a nested agent (agent tool, handoff target, workflow part). */
export interface RunNode {
  kind: 'run';
  id: string;
  depth: number;
  runId: string;
  agent: string;
  path: readonly string[];
  input: string;
  resumed: boolean;
  status?: 'completed' | 'failed' | 'aborted' | 'paused';
  usage?: Usage;
  durationMs?: number;
  steps?: number;
  children: TreeNode[];
}

/** A tool call waiting for a person's answer. */
export interface ApprovalNode {
  kind: 'approval';
  id: string;
  depth: number;
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
  prompt: string;
  status: 'pending' | 'approved' | 'denied';
}

/** A one-line event: handoff, workflow task, route, retry, warning, compaction, error, answer. */
export interface NoteNode {
  kind: 'note';
  id: string;
  depth: number;
  tone: 'info' | 'warning' | 'error';
  label: string;
  text: string;
}

export type TreeNode = RunNode | StepNode | ToolNode | ApprovalNode | NoteNode;

/** The tree of one turn, built incrementally by {@link applyEvent}. */
export interface EventTree {
  roots: TreeNode[];
  /** Bumped by every applied event, so views can memoise on it. */
  version: number;
  /** The final answer of the turn, once the `answer` event came. */
  answer?: string;
  /** Events applied so far. */
  eventCount: number;
  runs: Map<string, RunNode>;
  /** Latest run opened at each agent path (joined with `/`). */
  runsByPath: Map<string, RunNode>;
  tools: Map<string, ToolNode>;
  approvals: Map<string, ApprovalNode>;
  nextId: number;
}

/** An empty tree. */
export function createTree(): EventTree {
  return {
    roots: [],
    version: 0,
    eventCount: 0,
    runs: new Map(),
    runsByPath: new Map(),
    tools: new Map(),
    approvals: new Map(),
    nextId: 0,
  };
}

/** Builds the tree of a list of events. */
export function buildTree(events: readonly AgentEvent[]): EventTree {
  const tree = createTree();
  for (const event of events) applyEvent(tree, event);
  return tree;
}

const pathKey = (path: readonly string[]): string => path.join('/');
const newId = (tree: EventTree, prefix: string): string => `${prefix}${tree.nextId++}`;

/** Where a new nested run goes: under the parent run's open tool call, else its last step, else the run. */
function parentContainer(tree: EventTree, path: readonly string[]): { children: TreeNode[]; depth: number } {
  const parent = path.length > 1 ? tree.runsByPath.get(pathKey(path.slice(0, -1))) : undefined;
  if (!parent) return { children: tree.roots, depth: -1 };
  const step = lastOf(parent.children, 'step');
  if (!step) return parent;
  for (let i = step.children.length - 1; i >= 0; i--) {
    const child = step.children[i];
    if (child.kind === 'tool' && child.output === undefined) return child;
  }
  return step;
}

function lastOf<K extends TreeNode['kind']>(nodes: TreeNode[], kind: K): Extract<TreeNode, { kind: K }> | undefined {
  for (let i = nodes.length - 1; i >= 0; i--) if (nodes[i].kind === kind) return nodes[i] as Extract<TreeNode, { kind: K }>;
  return undefined;
}

function runOf(tree: EventTree, event: AgentEvent): RunNode {
  const known = tree.runs.get(event.runId);
  if (known) return known;
  // An event of a run whose run_start was not seen (a stream joined late): open the run implicitly.
  return openRun(tree, { runId: event.runId, agent: event.agent, path: event.path, input: '', resumed: false });
}

function openRun(
  tree: EventTree,
  opts: { runId: string; agent: string; path: readonly string[]; input: string; resumed: boolean },
): RunNode {
  const container = parentContainer(tree, opts.path);
  const run: RunNode = { kind: 'run', id: newId(tree, 'r'), depth: container.depth + 1, children: [], ...opts };
  container.children.push(run);
  tree.runs.set(opts.runId, run);
  tree.runsByPath.set(pathKey(opts.path), run);
  return run;
}

function stepOf(tree: EventTree, run: RunNode, step: number, agent: string): StepNode {
  const last = lastOf(run.children, 'step');
  if (last && last.step === step) return last;
  const node: StepNode = { kind: 'step', id: newId(tree, 's'), depth: run.depth + 1, agent, step, text: '', reasoning: '', children: [] };
  run.children.push(node);
  return node;
}

function note(tree: EventTree, parent: { children: TreeNode[]; depth: number }, tone: NoteNode['tone'], label: string, text: string): void {
  parent.children.push({ kind: 'note', id: newId(tree, 'n'), depth: parent.depth + 1, tone, label, text });
}

/** Where a one-line event of a run goes: its current step when it has one, else the run. */
function noteParent(tree: EventTree, event: AgentEvent): { children: TreeNode[]; depth: number } {
  const run = runOf(tree, event);
  return lastOf(run.children, 'step') ?? run;
}

/** `code: message` of an event error. */
export function errorText(error: EventError): string {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}

/** Applies one event to the tree (in place) and bumps its version. Unknown event types are ignored. */
export function applyEvent(tree: EventTree, event: AgentEvent): EventTree {
  tree.version++;
  tree.eventCount++;
  applyRunEvent(tree, event) || applyStepEvent(tree, event) || applyNoteEvent(tree, event);
  return tree;
}

function applyRunEvent(tree: EventTree, event: AgentEvent): boolean {
  switch (event.type) {
    case 'run_start': {
      const known = tree.runs.get(event.runId);
      if (known) known.resumed = known.resumed || event.resumed === true;
      else openRun(tree, { runId: event.runId, agent: event.agent, path: event.path, input: event.input, resumed: event.resumed === true });
      if (known) tree.runsByPath.set(pathKey(event.path), known);
      return true;
    }
    case 'run_end': {
      const run = runOf(tree, event);
      Object.assign(run, { status: event.status, usage: event.usage, durationMs: event.durationMs, steps: event.steps });
      return true;
    }
    case 'answer':
      tree.answer = event.text;
      return true;
    case 'error':
      note(tree, noteParent(tree, event), 'error', 'error', errorText(event.error));
      return true;
    default:
      return false;
  }
}

function applyStepEvent(tree: EventTree, event: AgentEvent): boolean {
  switch (event.type) {
    case 'step_start':
      stepOf(tree, runOf(tree, event), event.step, event.agent);
      return true;
    case 'text_delta':
      stepOf(tree, runOf(tree, event), event.step, event.agent).text += event.delta;
      return true;
    case 'reasoning_delta':
      stepOf(tree, runOf(tree, event), event.step, event.agent).reasoning += event.delta;
      return true;
    case 'step_end': {
      const step = stepOf(tree, runOf(tree, event), event.step, event.agent);
      Object.assign(step, { text: event.text || step.text, reasoning: event.reasoning || step.reasoning });
      Object.assign(step, { finishReason: event.finishReason, usage: event.usage });
      return true;
    }
    case 'tool_call': {
      // A resumed run announces the calls it answers again: keep one node per call.
      const known = tree.tools.get(`${event.runId}:${event.toolCallId}`);
      if (known) return ((known.input = event.input), true);
      const step = stepOf(tree, runOf(tree, event), event.step, event.agent);
      const tool: ToolNode = {
        kind: 'tool',
        id: newId(tree, 't'),
        depth: step.depth + 1,
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        input: event.input,
        children: [],
      };
      step.children.push(tool);
      tree.tools.set(`${event.runId}:${event.toolCallId}`, tool);
      return true;
    }
    case 'tool_result': {
      const key = `${event.runId}:${event.toolCallId}`;
      if (!tree.tools.has(key)) {
        const { runId, agent, path, step, toolCallId, toolName } = event;
        applyStepEvent(tree, { type: 'tool_call', runId, agent, path, step, toolCallId, toolName, input: undefined });
      }
      Object.assign(tree.tools.get(key)!, { output: event.output, isError: event.isError, durationMs: event.durationMs });
      return true;
    }
    case 'approval_required': {
      const parent = tree.tools.get(`${event.runId}:${event.toolCallId}`) ?? noteParent(tree, event);
      const node: ApprovalNode = {
        kind: 'approval',
        id: newId(tree, 'a'),
        depth: parent.depth + 1,
        approvalId: event.approvalId,
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        input: event.input,
        prompt: event.prompt,
        status: 'pending',
      };
      parent.children.push(node);
      tree.approvals.set(event.approvalId, node);
      return true;
    }
    default:
      return false;
  }
}

function applyNoteEvent(tree: EventTree, event: AgentEvent): boolean {
  const parent = () => noteParent(tree, event);
  switch (event.type) {
    case 'handoff':
      note(tree, parent(), 'info', 'handoff', `${event.from} → ${event.to}`);
      return true;
    case 'task_start':
      note(tree, parent(), 'info', `${event.workflow} task`, taskText(event.task, event.target, event.iteration, 'started'));
      return true;
    case 'task_end': {
      const text = taskText(event.task, event.target, event.iteration, `${event.status} in ${formatMs(event.durationMs)}`);
      note(tree, parent(), event.status === 'failed' ? 'error' : 'info', `${event.workflow} task`, text);
      return true;
    }
    case 'route':
      note(tree, parent(), 'info', 'route', `${event.route} → ${event.target} (by ${event.matchedBy})`);
      return true;
    case 'retry':
      note(tree, parent(), 'warning', 'retry', `attempt ${event.attempt} in ${formatMs(event.delayMs)}: ${errorText(event.error)}`);
      return true;
    case 'warning':
      note(tree, parent(), 'warning', 'warning', `${event.model}: ${event.message}`);
      return true;
    case 'context_compacted':
      note(
        tree,
        parent(),
        'info',
        'context',
        `${event.strategy}: ${event.removedMessages} messages, ${event.tokensBefore} → ${event.tokensAfter} tokens`,
      );
      return true;
    case 'mcp_notification': {
      const tool = event.toolCallId ? tree.tools.get(`${event.runId}:${event.toolCallId}`) : undefined;
      const text = event.kind === 'progress' ? progressText(event.progress, event.total, event.message) : (event.message ?? '');
      if (tool && event.kind === 'progress') tool.progress = text;
      else note(tree, parent(), 'info', `mcp ${event.server}`, text);
      return true;
    }
    default:
      return false;
  }
}

function taskText(task: string, target: string, iteration: number | undefined, what: string): string {
  const name = task === target ? task : `${task} (${target})`;
  return `${name}${iteration ? ` #${iteration}` : ''} ${what}`;
}

function progressText(progress: number | undefined, total: number | undefined, message: string | undefined): string {
  const figure = progress === undefined ? '' : total ? `${Math.round((progress / total) * 100)}%` : String(progress);
  return [figure, message].filter(Boolean).join(' ');
}

/** A duration for people: `850 ms`, `2.4 s`, `3 min 5 s`. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Marks an approval of the tree answered. Returns false when the tree has no such approval. */
export function resolveApproval(tree: EventTree, approvalId: string, approved: boolean): boolean {
  const node = tree.approvals.get(approvalId);
  if (!node) return false;
  node.status = approved ? 'approved' : 'denied';
  tree.version++;
  return true;
}

/** A row of the flattened tree. */
export interface TreeRow {
  node: TreeNode;
  depth: number;
  /** The node has children and they are hidden. */
  collapsed: boolean;
  hasChildren: boolean;
}

/**
 * The tree as rows in display order, depth first. Children of nodes whose id is in `collapsed` are left out.
 */
export function flattenTree(tree: EventTree, collapsed: ReadonlySet<string> = new Set()): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (nodes: readonly TreeNode[]) => {
    for (const node of nodes) {
      const children = 'children' in node ? node.children : [];
      const isCollapsed = collapsed.has(node.id);
      rows.push({ node, depth: node.depth, collapsed: isCollapsed && children.length > 0, hasChildren: children.length > 0 });
      if (!isCollapsed) walk(children);
    }
  };
  walk(tree.roots);
  return rows;
}

/** The rows to render for a window of at most `size` rows ending at the last row (the live edge), moved back by `offset`. */
export function windowRows<T>(
  rows: readonly T[],
  size: number,
  offset = 0,
): { rows: readonly T[]; hiddenBefore: number; hiddenAfter: number } {
  const end = Math.max(0, rows.length - offset);
  const start = Math.max(0, end - size);
  return { rows: rows.slice(start, end), hiddenBefore: start, hiddenAfter: rows.length - end };
}

/** Usage of the whole turn: the top-level run's (it includes nested runs), else the sum of the steps seen so far. */
export function turnUsage(tree: EventTree): Usage | undefined {
  const top = tree.roots.filter((n): n is RunNode => n.kind === 'run');
  const ended = top.filter((run) => run.usage);
  if (ended.length > 0) return ended.reduce((sum, run) => addUsage(sum, run.usage!), zeroUsage());
  const steps = top.flatMap((run) => run.children.filter((c): c is StepNode => c.kind === 'step' && c.usage !== undefined));
  return steps.length > 0 ? steps.reduce((sum, step) => addUsage(sum, step.usage!), zeroUsage()) : undefined;
}

function zeroUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, totalTokens: 0 };
}

function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

/** The approvals of the tree still waiting for an answer. */
export function pendingApprovals(tree: EventTree): ApprovalNode[] {
  return [...tree.approvals.values()].filter((a) => a.status === 'pending');
}
