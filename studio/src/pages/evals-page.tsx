/**
 * Evals: the runs `corvid eval` saved in `.corvid/evals/` (each named by its suite and when it ran, with its gates
 * passed or failed); one run with its gates, cases × scorers, failed runs with their reasons, and the changes since
 * the previous run of its suite.
 */
import { api, seg } from '../api-client.js';
import type { EvalGate, EvalRunDetail, EvalRunSummary } from '../api-types.js';
import { EvalRunView, PassBadge } from '../eval-run-view.js';
import { Ago, RecordLabel } from '../record-label.js';
import { Badge, LoadView, PageHeader, useLoad } from '../ui.js';
import { href } from '../use-route.js';

export function EvalsPage({ id }: { id?: string }) {
  return id ? <EvalRunPage id={id} /> : <EvalRunList />;
}

function EvalRunList() {
  const loaded = useLoad(() => api<{ runs: EvalRunSummary[]; unreadable: Array<{ id: string; message: string }> }>('/evals'), []);
  return (
    <section>
      <PageHeader title="Evals">
        <button type="button" onClick={loaded.reload}>
          Refresh
        </button>
      </PageHeader>
      <LoadView loaded={loaded} what="Evals">
        {({ runs, unreadable }) => (
          <>
            {unreadable.length > 0 ? <UnreadableFiles files={unreadable} /> : null}
            {runs.length === 0 ? (
              <p class="muted">
                No eval runs yet. Run <code>corvid eval suite.yaml</code> in the server's working directory: its results are saved in{' '}
                <code>.corvid/evals/</code> and appear here.
              </p>
            ) : (
              <EvalRunTable runs={runs} />
            )}
          </>
        )}
      </LoadView>
    </section>
  );
}

function UnreadableFiles({ files }: { files: Array<{ id: string; message: string }> }) {
  return (
    <div class="notice" role="status">
      <strong>
        {files.length} {files.length === 1 ? 'file' : 'files'} in .corvid/evals/ could not be read:
      </strong>
      <ul>
        {files.map((f) => (
          <li key={f.id}>
            <code>{f.id}.json</code>: {f.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

function EvalRunTable({ runs }: { runs: EvalRunSummary[] }) {
  return (
    <div class="table-wrap">
      <table class="stack-table evals-table">
        <thead>
          <tr>
            <th scope="col">Eval run</th>
            <th scope="col">Result</th>
            <th scope="col">Gates</th>
            <th scope="col">Runs per case</th>
            <th scope="col">Cases</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <EvalRunRow key={run.id} run={run} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function EvalRunRow({ run }: { run: EvalRunSummary }) {
  return (
    <tr>
      <td>
        <RecordLabel href={href('evals', [run.id])} label={`${run.suite} · ${shortTime(run.startedAt)}`} id={run.id} what="eval run">
          agent {run.agent} · <Ago iso={run.startedAt} /> ·{' '}
        </RecordLabel>
      </td>
      <td data-label="Result">
        <PassBadge pass={run.pass} />
      </td>
      <td data-label="Gates">
        <GateBadges gates={run.gates} />
      </td>
      <td data-label="Runs per case">k = {run.k}</td>
      <td data-label="Cases">{run.cases}</td>
    </tr>
  );
}

/** `2 Dec 2026, 11:32` in the browser's locale. */
function shortTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function GateBadges({ gates }: { gates: EvalGate[] }) {
  return (
    <ul class="gate-badges">
      {gates.map((g) => (
        <li key={g.scorer}>
          <Badge text={`${g.pass ? '✓' : '✗'} ${g.scorer}`} tone={g.pass ? 'pass' : 'fail'} />
        </li>
      ))}
    </ul>
  );
}

function EvalRunPage({ id }: { id: string }) {
  const loaded = useLoad(() => api<EvalRunDetail>(`/evals/${seg(id)}`), [id]);
  const title = loaded.data ? `Eval ${loaded.data.results.suite}` : 'Eval run';
  return (
    <section>
      <PageHeader title={title}>
        <a class="button" href={href('evals')}>
          All eval runs
        </a>
      </PageHeader>
      <LoadView loaded={loaded} what="Evals">
        {(run) => <EvalRunView run={run} />}
      </LoadView>
    </section>
  );
}
