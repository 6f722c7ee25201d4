/**
 * Approvals inbox: every pending approval the caller may answer, live, answered from here. When the page opens on
 * pending approvals, focus goes to the list: the first card's reason and Approve are the next Tab stops.
 */
import { useEffect, useRef, useState } from 'preact/hooks';

import { api, seg } from '../api-client.js';
import type { Approval, RunInfo } from '../api-types.js';
import { startApprovalFeed } from '../approval-feed.js';
import { reportRejection } from '../report-rejection.js';
import { ApprovalPrompt, ErrorBox, PageHeader, ValueView, When } from '../ui.js';
import { href } from '../use-route.js';

export function ApprovalsPage() {
  const [approvals, setApprovals] = useState<Approval[]>();
  const [state, setState] = useState<{ kind: string; error?: Error }>({ kind: 'connecting' });
  const [answered, setAnswered] = useState<Array<{ approval: Approval; approved: boolean; result: string }>>([]);
  useEffect(() => startApprovalFeed({ onList: setApprovals, onState: (kind, error) => setState({ kind, error }) }), []);
  const list = useRef<HTMLUListElement>(null);
  const focused = useRef(false);
  useEffect(() => {
    if (focused.current || !approvals?.length || !list.current) return;
    focused.current = true;
    // Only when nothing else has the focus (the page just opened): never pull it away from where the user is.
    const active = document.activeElement;
    if (active === null || active === document.body || active.id === 'main') list.current.focus();
  }, [approvals]);
  const answer = async (approval: Approval, approved: boolean, reason: string) => {
    try {
      const r = await api<{ status: string; answer?: string; runId?: string }>(`/approvals/${seg(approval.approvalId)}`, {
        body: { approved, ...(reason && { reason }) },
      });
      setApprovals((list) => list?.filter((a) => a.approvalId !== approval.approvalId));
      const show = (result: string) =>
        setAnswered((list) => [{ approval, approved, result }, ...list.filter((x) => x.approval.approvalId !== approval.approvalId)]);
      show(`${r.status}${r.answer ? `: ${r.answer}` : ''}`);
      // A background run is queued again: a worker resumes it; its outcome is shown once it ends.
      if (r.status === 'queued') show(await queuedOutcome(r.runId ?? approval.runId));
    } catch (err) {
      setState({ kind: 'error', error: err as Error });
    }
  };
  return (
    <section>
      <PageHeader title="Approvals">
        <span class={`badge badge-${state.kind}`} role="status">
          {state.kind === 'live' ? 'live' : state.kind === 'polling' ? 'updating every 5 s' : state.kind}
        </span>
      </PageHeader>
      {state.error && (state.kind === 'error' || approvals === undefined) ? <ErrorBox error={state.error} what="Approvals" /> : null}
      {approvals === undefined ? null : approvals.length === 0 ? (
        <p class="muted">Nothing waits for an answer.</p>
      ) : (
        <ul class="cards" ref={list} tabIndex={-1} aria-label={`${approvals.length} pending approval${approvals.length === 1 ? '' : 's'}`}>
          {approvals.map((a) => (
            <ApprovalCard key={a.approvalId} approval={a} onAnswer={answer} />
          ))}
        </ul>
      )}
      {answered.length > 0 ? (
        <>
          <h2>Answered here</h2>
          <ul>
            {answered.map(({ approval, approved, result }) => (
              <li key={approval.approvalId}>
                {approved ? 'Approved' : 'Denied'} <code>{approval.toolName}</code> ({approval.approvalId}) — run {result}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/** How a run queued again by an answer ended (waiting up to a minute at a time), as `status: answer`. */
async function queuedOutcome(runId: string): Promise<string> {
  for (let i = 0; i < 10; i++) {
    const run = await api<{ status: string; result?: { text?: string }; error?: { message: string } }>(`/runs/${seg(runId)}?wait=60`);
    if (run.status !== 'queued' && run.status !== 'running') {
      const detail = run.result?.text ?? run.error?.message;
      return `${run.status}${detail ? `: ${detail}` : ''}`;
    }
  }
  return 'queued';
}

/** The agent of each run, fetched once per run for the cards that name it. */
const runAgents = new Map<string, Promise<string | undefined>>();

function useRunAgent(runId: string): string | undefined {
  const [agent, setAgent] = useState<string>();
  useEffect(() => {
    let agentOf = runAgents.get(runId);
    if (!agentOf) {
      agentOf = api<RunInfo>(`/runs/${seg(runId)}`).then(
        (run) => run.agent,
        () => undefined,
      );
      runAgents.set(runId, agentOf);
    }
    let live = true;
    void agentOf.then((a) => live && setAgent(a)).catch(reportRejection("loading a run's agent"));
    return () => {
      live = false;
    };
  }, [runId]);
  return agent;
}

function ApprovalCard({
  approval,
  onAnswer,
}: {
  approval: Approval;
  onAnswer: (a: Approval, approved: boolean, reason: string) => Promise<void>;
}) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const go = (approved: boolean) =>
    void (
      setBusy(true),
      onAnswer(approval, approved, reason)
        .finally(() => setBusy(false))
        .catch(reportRejection('answering an approval'))
    );
  const reasonId = `reason-${approval.approvalId}`;
  const agent = useRunAgent(approval.runId);
  return (
    <li class="card approval">
      <ApprovalPrompt prompt={approval.prompt} as="h2" />
      <div class="approval-actions">
        <label for={reasonId}>Reason (optional)</label>
        <input id={reasonId} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
        <button type="button" class="primary" disabled={busy} onClick={() => go(true)}>
          Approve
        </button>
        <button type="button" class="danger" disabled={busy} onClick={() => go(false)}>
          Deny
        </button>
      </div>
      <p class="muted small">
        {agent ? (
          <>
            agent <a href={href('agents', [agent])}>{agent}</a> ·{' '}
          </>
        ) : null}
        <code>{approval.toolName}</code> · run <a href={href('runs', [approval.runId])}>{approval.runId}</a>
        {approval.sessionId ? (
          <>
            {' '}
            · session <a href={href('sessions', [approval.sessionId])}>{approval.sessionId}</a>
          </>
        ) : null}{' '}
        · <When iso={approval.createdAt} />
      </p>
      <details>
        <summary>Arguments</summary>
        <ValueView value={approval.input} />
      </details>
    </li>
  );
}
