/** Runs: the list with a status filter, resume, and one run's pending approvals and timeline waterfall. */
import { useState } from 'preact/hooks';

import { api, query, seg } from '../api-client.js';
import type { RunInfo, RunStatus, RunTimeline } from '../api-types.js';
import { RunTimelineView } from '../run-timeline.js';
import { Badge, ErrorBox, LoadView, PageHeader, useLoad, When } from '../ui.js';
import { href, navigate } from '../use-route.js';

const STATUSES: RunStatus[] = ['running', 'paused', 'completed', 'failed', 'cancelled', 'interrupted'];
const RESUMABLE = new Set<RunStatus>(['running', 'failed', 'interrupted']);

export function RunsPage({ id, status }: { id?: string; status?: string }) {
  return id ? <RunView id={id} /> : <RunList status={status} />;
}

function useResume(onDone: () => void) {
  const [busy, setBusy] = useState<string>();
  const [result, setResult] = useState<{ runId: string; text: string }>();
  const [error, setError] = useState<Error>();
  const resume = (runId: string) => {
    setBusy(runId);
    setError(undefined);
    api<{ status: string; answer?: string }>(`/runs/${seg(runId)}/resume`, { method: 'POST' })
      .then((r) => setResult({ runId, text: `${r.status}${r.answer ? `: ${r.answer}` : ''}` }), setError)
      .finally(() => (setBusy(undefined), onDone()));
  };
  return { busy, result, error, resume };
}

function RunList({ status }: { status?: string }) {
  const loaded = useLoad(() => api<{ runs: RunInfo[] }>(`/runs${query({ status, limit: 100 })}`), [status]);
  const { busy, result, error, resume } = useResume(loaded.reload);
  return (
    <section>
      <PageHeader title="Runs">
        <label for="run-status">Status</label>
        <select
          id="run-status"
          value={status ?? ''}
          onChange={(e) => navigate(href('runs', [], { status: e.currentTarget.value || undefined }))}
        >
          <option value="">all</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <button type="button" onClick={loaded.reload}>
          Refresh
        </button>
      </PageHeader>
      {error ? <ErrorBox error={error} /> : null}
      {result ? (
        <p role="status">
          Run <code>{result.runId}</code> resumed: {result.text}
        </p>
      ) : null}
      <LoadView loaded={loaded} what="Runs">
        {({ runs }) =>
          runs.length === 0 ? (
            <p class="muted">No runs{status ? ` with status ${status}` : ''}.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Run</th>
                    <th scope="col">Agent</th>
                    <th scope="col">Status</th>
                    <th scope="col">Updated</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {runs.map((run) => (
                    <RunRow key={run.runId} run={run} busy={busy === run.runId} onResume={resume} />
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </LoadView>
    </section>
  );
}

function RunView({ id }: { id: string }) {
  const loaded = useLoad(() => api<RunInfo>(`/runs/${seg(id)}`), [id]);
  const timeline = useLoad(() => api<RunTimeline>(`/runs/${seg(id)}/timeline`), [id, loaded.data?.updatedAt]);
  const { busy, result, error, resume } = useResume(loaded.reload);
  return (
    <section>
      <PageHeader title={`Run ${id}`}>
        <a class="button" href={href('runs')}>
          All runs
        </a>
        {loaded.data && RESUMABLE.has(loaded.data.status) ? (
          <button type="button" class="primary" disabled={busy !== undefined} onClick={() => resume(id)}>
            {busy ? 'Resuming…' : 'Resume'}
          </button>
        ) : null}
      </PageHeader>
      {error ? <ErrorBox error={error} /> : null}
      {result ? <p role="status">Resumed: {result.text}</p> : null}
      <LoadView loaded={loaded} what="Run">
        {(run) => (
          <>
            <dl class="facts">
              <dt>Agent</dt>
              <dd>{run.agent}</dd>
              <dt>Status</dt>
              <dd>
                <Badge text={run.status} />
              </dd>
              <dt>Session</dt>
              <dd>{run.sessionId ? <a href={href('sessions', [run.sessionId])}>{run.sessionId}</a> : '—'}</dd>
              <dt>Checkpoints</dt>
              <dd>{run.checkpoints}</dd>
              <dt>Started</dt>
              <dd>
                <When iso={run.createdAt} />
              </dd>
            </dl>
            {run.pendingApprovals?.length ? (
              <p>
                {run.pendingApprovals.length} approval(s) waiting: <a href={href('approvals')}>answer them in the inbox</a>.
              </p>
            ) : null}
          </>
        )}
      </LoadView>
      <h2>Timeline</h2>
      <LoadView loaded={timeline} what="Run timelines">
        {(t) => <RunTimelineView timeline={t} />}
      </LoadView>
    </section>
  );
}

function RunRow({ run, busy, onResume }: { run: RunInfo; busy: boolean; onResume: (runId: string) => void }) {
  return (
    <tr>
      <td>
        <a href={href('runs', [run.runId])}>{run.runId}</a>
      </td>
      <td>{run.agent}</td>
      <td>
        <Badge text={run.status} />
      </td>
      <td>
        <When iso={run.updatedAt} />
      </td>
      <td>
        {RESUMABLE.has(run.status) ? (
          <button type="button" disabled={busy} onClick={() => onResume(run.runId)} aria-label={`Resume ${run.runId}`}>
            {busy ? 'Resuming…' : 'Resume'}
          </button>
        ) : null}
      </td>
    </tr>
  );
}
