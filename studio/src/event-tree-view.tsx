/**
 * The event tree of a turn as a windowed list: only the last rows are in the page (a long run of thousands of
 * events stays fast), earlier ones come with "Show earlier". Each row is one node: a run with its agent path,
 * a step (text as markdown, reasoning collapsible, usage), a tool call (arguments and result expandable, diffs
 * coloured), an approval with Approve / Deny, a one-line note.
 */
import { memo } from 'preact/compat';
import { useMemo, useState } from 'preact/hooks';

import {
  type ApprovalNode,
  type EventTree,
  flattenTree,
  formatMs,
  type NoteNode,
  type RunNode,
  type StepNode,
  type ToolNode,
  type TreeRow,
  windowRows,
} from './event-tree.js';
import { ApprovalPrompt, Markdown, UsageText, ValueView } from './ui.js';

/** Rows in the page at once; more come in steps of this size. */
export const WINDOW = 200;

/** Answers an approval of the tree. */
export type AnswerApproval = (approvalId: string, approved: boolean, reason?: string) => void;

export function EventTreeView({ tree, version, onAnswer }: { tree: EventTree; version: number; onAnswer?: AnswerApproval }) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [size, setSize] = useState(WINDOW);
  // The tree is mutated in place: `version` says when it changed.
  const rows = useMemo(() => flattenTree(tree, collapsed), [tree, version, collapsed]);
  const view = windowRows(rows, size);
  const toggle = (id: string) =>
    setCollapsed((old) => {
      const next = new Set(old);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <div class="event-tree">
      {view.hiddenBefore > 0 ? (
        <button type="button" class="link" onClick={() => setSize((s) => s + WINDOW)}>
          Show {Math.min(WINDOW, view.hiddenBefore)} earlier of {view.hiddenBefore} hidden rows
        </button>
      ) : null}
      <ol class="tree-rows">
        {view.rows.map((row) => (
          <Row
            key={row.node.id}
            node={row.node}
            depth={row.depth}
            collapsed={row.collapsed}
            hasChildren={row.hasChildren}
            version={rowVersion(row)}
            onToggle={toggle}
            onAnswer={onAnswer}
          />
        ))}
      </ol>
    </div>
  );
}

/** What makes a row re-render: the parts of its node that change while the run goes on. */
function rowVersion(row: TreeRow): string {
  const n = row.node;
  const base = `${row.collapsed}`;
  switch (n.kind) {
    case 'step':
      return `${base}${n.text.length}:${n.reasoning.length}:${n.usage ? 1 : 0}`;
    case 'tool':
      return `${base}${n.output === undefined ? 0 : 1}:${n.progress ?? ''}`;
    case 'run':
      return `${base}${n.status ?? ''}`;
    case 'approval':
      return n.status;
    case 'note':
      return base;
  }
}

interface RowProps extends TreeRow {
  version: string;
  onToggle: (id: string) => void;
  onAnswer?: AnswerApproval;
}

/** Rows re-render only when their node changed (callbacks are stable in effect: they only use state setters). */
const sameRow = (a: RowProps, b: RowProps) =>
  a.node === b.node && a.version === b.version && a.depth === b.depth && a.collapsed === b.collapsed && a.hasChildren === b.hasChildren;

const Row = memo(function Row(row: RowProps) {
  const { node, onToggle, onAnswer } = row;
  const toggle = row.hasChildren ? (
    <button
      type="button"
      class="toggle"
      aria-expanded={!row.collapsed}
      aria-label={`${row.collapsed ? 'Expand' : 'Collapse'} ${node.kind}`}
      onClick={() => onToggle(node.id)}
    >
      {row.collapsed ? '▸' : '▾'}
    </button>
  ) : (
    <span class="toggle-space" />
  );
  return (
    <li class={`tree-row row-${node.kind}`} style={{ paddingLeft: `${Math.min(row.depth, 12) * 1.25}rem` }} data-depth={row.depth}>
      {toggle}
      <div class="row-body">{body(node, onAnswer)}</div>
    </li>
  );
}, sameRow);

function body(node: TreeRow['node'], onAnswer?: AnswerApproval) {
  switch (node.kind) {
    case 'run':
      return <RunRow run={node} />;
    case 'step':
      return <StepRow step={node} />;
    case 'tool':
      return <ToolRow tool={node} />;
    case 'approval':
      return <ApprovalRow approval={node} onAnswer={onAnswer} />;
    case 'note':
      return <NoteRow note={node} />;
  }
}

function RunRow({ run }: { run: RunNode }) {
  return (
    <div class="run-line">
      <span class="agent-path">{run.path.join(' › ')}</span>
      {run.resumed ? <span class="badge">resumed</span> : null}
      {run.status ? <span class={`badge badge-${run.status}`}>{run.status}</span> : <span class="badge badge-running">running</span>}
      {run.durationMs !== undefined ? <span class="muted">{formatMs(run.durationMs)}</span> : null}
      <UsageText usage={run.usage} />
    </div>
  );
}

function StepRow({ step }: { step: StepNode }) {
  return (
    <div class="step">
      <div class="step-line muted">
        step {step.step}
        {step.finishReason ? ` · ${step.finishReason}` : ''} <UsageText usage={step.usage} />
      </div>
      {step.reasoning ? (
        <details class="reasoning">
          <summary>Reasoning ({step.reasoning.length} characters)</summary>
          <div class="reasoning-text">{step.reasoning}</div>
        </details>
      ) : null}
      {step.text ? <Markdown text={step.text} /> : null}
    </div>
  );
}

function ToolRow({ tool }: { tool: ToolNode }) {
  const state = tool.output === undefined ? 'running' : tool.isError ? 'failed' : 'completed';
  return (
    <div class="tool">
      <div class="tool-line">
        <span class="tool-name">{tool.toolName}</span>
        <span class={`badge badge-${state}`}>{tool.output === undefined ? 'running' : tool.isError ? 'error' : 'ok'}</span>
        {tool.durationMs !== undefined ? <span class="muted">{formatMs(tool.durationMs)}</span> : null}
        {tool.progress ? <span class="muted">{tool.progress}</span> : null}
      </div>
      <details class="tool-args">
        <summary>Arguments</summary>
        <ValueView value={tool.input} label={`arguments of ${tool.toolName}`} />
      </details>
      {tool.output !== undefined ? (
        <details class="tool-result" open={tool.isError}>
          <summary>{tool.isError ? 'Error' : 'Result'}</summary>
          <ValueView value={tool.output} label={`result of ${tool.toolName}`} />
        </details>
      ) : null}
    </div>
  );
}

function ApprovalRow({ approval, onAnswer }: { approval: ApprovalNode; onAnswer?: AnswerApproval }) {
  const [reason, setReason] = useState('');
  const reasonId = `reason-${approval.approvalId}`;
  return (
    <div class="approval" role="group" aria-label={`approval for ${approval.toolName}`}>
      <div>
        <span class={`badge badge-${approval.status}`}>{approval.status}</span>{' '}
        <ApprovalPrompt prompt={approval.prompt || 'Approval needed'} />
      </div>
      <details>
        <summary>{approval.toolName} arguments</summary>
        <ValueView value={approval.input} />
      </details>
      {approval.status === 'pending' && onAnswer ? (
        <div class="approval-actions">
          <label for={reasonId}>Reason (optional)</label>
          <input id={reasonId} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          <button type="button" class="primary" onClick={() => onAnswer(approval.approvalId, true, reason || undefined)}>
            Approve
          </button>
          <button type="button" class="danger" onClick={() => onAnswer(approval.approvalId, false, reason || undefined)}>
            Deny
          </button>
        </div>
      ) : null}
    </div>
  );
}

function NoteRow({ note }: { note: NoteNode }) {
  return (
    <div class={`note note-${note.tone}`} role={note.tone === 'error' ? 'alert' : undefined}>
      <span class="note-label">{note.label}</span> {note.text}
    </div>
  );
}
