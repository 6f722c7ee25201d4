/**
 * The approval prompt: what the tool is about to do (a coloured diff for edits, the command for the shell) and the
 * answers y / n (then a reason) / a (always this tool) / p (always this command prefix) / v (a preview taller
 * than the box: print it whole above, to read before answering).
 */
import { Box, Text } from 'ink';
import { createElement as h, type ReactNode } from 'react';

import type { CodeApproval } from '../code-session-types.js';
import { style } from './ansi.js';
import { colorDiff, looksLikeDiff } from './diff-ansi.js';
import { lastRows } from './live-view.js';

/** Props of `ApprovalBox`. */
export interface ApprovalBoxProps {
  approval: CodeApproval;
  width: number;
  /** Rows the preview may use (longer previews keep their head and tail). */
  maxRows: number;
  /** Set after `n`: the reason being typed. */
  reason?: string;
  /** Approvals waiting behind this one. */
  queued: number;
}

/** The keys an approval accepts, as shown. */
export function approvalKeys(approval: CodeApproval, elided = false): string {
  const keys = [`${style('bold', 'y')} yes`, `${style('bold', 'n')} no`, `${style('bold', 'a')} always ${approval.toolName}`];
  if (approval.prefix) keys.push(`${style('bold', 'p')} always \`${approval.prefix}\``);
  if (elided) keys.push(`${style('bold', 'v')} view all`);
  return keys.join(style('gray', ' · '));
}

/** The prompt under a plan (printed above it): carry it out in the mode the session goes back to, or in auto-edit, or keep planning. */
function PlanBox(p: ApprovalBoxProps): ReactNode {
  const b = (k: string): string => style('bold', k);
  const keys = [`${b('y')} yes, carry it out`, `${b('a')} yes, in auto-edit`, `${b('n')} no, keep planning`].join(style('gray', ' · '));
  const footer =
    p.reason === undefined
      ? keys
      : `${style('bold', 'What should change')} ${style('gray', '(Enter sends, empty for none)')}: ${p.reason}${style('inverse', ' ')}`;
  return h(
    Box,
    { borderStyle: 'round', borderColor: 'cyan', paddingX: 1, width: p.width, flexDirection: 'column' },
    h(Text, null, `${style('cyan', '?')} ${style('bold', 'Approve this plan?')} ${style('gray', '(the plan is above)')}`),
    h(Text, null, footer),
  );
}

/** The prompt box. */
export function ApprovalBox(p: ApprovalBoxProps): ReactNode {
  if (p.approval.kind === 'plan') return PlanBox(p);
  const a = p.approval;
  const diff = looksLikeDiff(a.preview);
  const maxLines = Math.max(4, p.maxRows);
  const preview = diff
    ? colorDiff(a.preview, { maxLines, more: ' (v shows all)' })
    : lastRows(a.preview, p.width - 4, Math.max(2, p.maxRows));
  const elided = diff ? a.preview.replace(/\n$/, '').split('\n').length > maxLines : preview !== a.preview;
  const title = `${style('yellow', '?')} ${style('bold', `Allow ${a.toolName}?`)}${p.queued ? style('gray', ` (+${p.queued} waiting)`) : ''}`;
  const footer =
    p.reason === undefined
      ? approvalKeys(a, elided)
      : `${style('bold', 'Reason for the model')} ${style('gray', '(Enter sends, empty for none)')}: ${p.reason}${style('inverse', ' ')}`;
  return h(
    Box,
    { borderStyle: 'round', borderColor: 'yellow', paddingX: 1, width: p.width, flexDirection: 'column' },
    h(Text, null, title),
    h(Text, null, diff ? preview : style('cyan', preview)),
    h(Text, null, footer),
  );
}
