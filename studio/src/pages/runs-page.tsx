/**
 * Runs: the list with a status filter and resume (each run named by its agent and the start of its input, the id
 * second); one run with its pending approvals and three views of it: the timeline waterfall, the trace (spans with
 * inputs, outputs, tokens and cost) and a replay of its events.
 */
import { useState } from 'preact/hooks';

import { api, query, seg } from '../api-client.js';
import type { RunInfo, RunStatus, RunTimeline } from '../api-types.js';
import { Ago, CopyId, firstWords, RecordLabel } from '../record-label.js';
import { RunReplay } from '../run-replay.js';
import { RunTimelineView } from '../run-timeline.js';
import { TraceView } from '../trace-view.js';
import { Badge, ErrorBox, LoadView, PageHeader, useLoad, When } from '../ui.js';
import { href, navigate } from '../use-route.js';

const VIEWS = [
  ['timeline', 'Timeline'],
  ['trace', 'Trace'],
  ['replay', 'Replay'],
] as const;
type RunViewName = (typeof VIEWS)[number][0];

const STATUSES: RunStatus[] = ['running', 'paused', 'completed', 'failed', 'cancelled', 'interrupted'];
const RESUMABLE = new Set<RunStatus>(['running', 'failed', 'interrupted']);

export function RunsPage({ id, status, view }: { id?: string; status?: string; view?: string }) {
  const known = VIEWS.find(([name]) => name === view)?.[0] ?? 'timeline';
  return id ? <RunView id={id} view={known} /> : <RunList status={status} />;
}

/** What a run is called: the start of its input, else its agent's run. */
function runLabel(run: Pick<RunInfo, 'agent' | 'input'>): string {
  return firstWords(run.input) ?? `${run.agent} run`;
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
              <table class="stack-table runs-table">
                <thead>
                  <tr>
                    <th scope="col">Run</th>
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

function RunView({ id, view }: { id: string; view: RunViewName }) {
  const loaded = useLoad(() => api<RunInfo>(`/runs/${seg(id)}`), [id]);
  const { busy, result, error, resume } = useResume(loaded.reload);
  const title = loaded.data ? `${loaded.data.agent}: ${runLabel(loaded.data)}` : `Run ${id}`;
  return (
    <section>
      <PageHeader title={title}>
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
              <dt>Run</dt>
              <dd>
                <CopyId id={run.runId} what="run" />
              </dd>
              <dt>Agent</dt>
              <dd>
                <a href={href('agents', [run.agent])}>{run.agent}</a>
              </dd>
              <dt>Status</dt>
              <dd>
                <Badge text={run.status} />
              </dd>
              <dt>Session</dt>
              <dd>
                {run.sessionId ? (
                  <>
                    <a href={href('sessions', [run.sessionId])}>Open the session</a> <CopyId id={run.sessionId} what="session" />
                  </>
                ) : (
                  '—'
                )}
              </dd>
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
      <nav class="tabs" aria-label="Views of the run">
        {VIEWS.map(([name, label]) => (
          <a
            key={name}
            href={href('runs', [id], { view: name === 'timeline' ? undefined : name })}
            aria-current={view === name ? 'page' : undefined}
          >
            {label}
          </a>
        ))}
      </nav>
      {view === 'trace' ? (
        <TraceView runId={id} version={loaded.data?.updatedAt} />
      ) : view === 'replay' ? (
        <RunReplay runId={id} />
      ) : (
        <TimelineSection id={id} version={loaded.data?.updatedAt} />
      )}
    </section>
  );
}

function TimelineSection({ id, version }: { id: string; version?: string }) {
  const timeline = useLoad(() => api<RunTimeline>(`/runs/${seg(id)}/timeline`), [id, version]);
  return (
    <>
      <h2>Timeline</h2>
      <LoadView loaded={timeline} what="Run timelines">
        {(t) => <RunTimelineView timeline={t} />}
      </LoadView>
    </>
  );
}

function RunRow({ run, busy, onResume }: { run: RunInfo; busy: boolean; onResume: (runId: string) => void }) {
  return (
    <tr>
      <td>
        <RecordLabel href={href('runs', [run.runId])} label={runLabel(run)} id={run.runId} what="run">
          <a href={href('agents', [run.agent])}>{run.agent}</a> ·{' '}
        </RecordLabel>
      </td>
      <td data-label="Status">
        <Badge text={run.status} />
      </td>
      <td data-label="Updated">
        <Ago iso={run.updatedAt} />
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
