/**
 * One saved eval run: what ran, its gates, a table of cases × scorers (mean score and runs passed), the failed runs
 * with their reasons, and the changes since the previous run of its suite (regressions first, highlighted).
 */
import type { EvalCaseResult, EvalChange, EvalGate, EvalRunDetail } from './api-types.js';
import { Ago, CopyId } from './record-label.js';
import { Badge, When } from './ui.js';
import { href } from './use-route.js';

const score = (n: number | undefined): string => (n === undefined ? '–' : n.toFixed(2));

/** Regressions first, then new, removed and improved ones; unchanged rows are only counted. */
const CHANGE_ORDER: Record<EvalChange['change'], number> = { regressed: 0, new: 1, removed: 2, improved: 3, unchanged: 4 };

/** `passed` / `failed` as a badge. */
export function PassBadge({ pass }: { pass: boolean }) {
  return <Badge text={pass ? 'passed' : 'failed'} tone={pass ? 'pass' : 'fail'} />;
}

export function EvalRunView({ run }: { run: EvalRunDetail }) {
  const r = run.results;
  return (
    <>
      <dl class="facts">
        <dt>Suite</dt>
        <dd>{r.suite}</dd>
        <dt>Agent</dt>
        <dd>
          <a href={href('agents', [r.agent])}>{r.agent}</a>
        </dd>
        <dt>Result</dt>
        <dd>
          <PassBadge pass={r.pass} /> {r.gates.filter((g) => g.pass).length} of {r.gates.length} gates passed
        </dd>
        <dt>Started</dt>
        <dd>
          <When iso={r.startedAt} /> ({(r.durationMs / 1000).toFixed(1)} s)
        </dd>
        <dt>Runs per case</dt>
        <dd>k = {r.k}</dd>
        <dt>File</dt>
        <dd>
          <CopyId id={`.corvid/evals/${run.id}.json`} what="results file" />
        </dd>
      </dl>
      <Gates gates={r.gates} />
      <Changes run={run} />
      <CaseTable cases={r.cases} k={r.k} />
      <FailedRuns cases={r.cases} k={r.k} />
    </>
  );
}

function Gates({ gates }: { gates: EvalGate[] }) {
  return (
    <>
      <h2>Gates</h2>
      <div class="table-wrap">
        <table class="stack-table">
          <thead>
            <tr>
              <th scope="col">Scorer</th>
              <th scope="col">Threshold</th>
              <th scope="col">Mean</th>
              <th scope="col">All k</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {gates.map((g) => (
              <tr key={g.scorer}>
                <th scope="row">{g.scorer}</th>
                <td data-label="Threshold">{score(g.threshold)}</td>
                <td data-label="Mean">{score(g.mean)}</td>
                <td data-label="All k">{g.allK ? `required: ${g.casesPassingAllK} case(s) passed every run` : 'not required'}</td>
                <td data-label="Result">
                  <PassBadge pass={g.pass} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Changes({ run }: { run: EvalRunDetail }) {
  if (!run.previous || !run.changes)
    return (
      <>
        <h2>Changes since the previous run</h2>
        <p class="muted">This is the first saved run of this suite: there is nothing to compare with yet.</p>
      </>
    );
  const shown = run.changes.filter((c) => c.change !== 'unchanged').sort((a, b) => CHANGE_ORDER[a.change] - CHANGE_ORDER[b.change]);
  const same = run.changes.length - shown.length;
  return (
    <>
      <h2>Changes since the previous run</h2>
      <p class="muted small">
        Compared with{' '}
        <a href={href('evals', [run.previous.id])}>
          the run of <Ago iso={run.previous.startedAt} />
        </a>
        . {shown.length === 0 ? 'No score changed.' : `${same} case × scorer score(s) unchanged.`}
      </p>
      {shown.length > 0 ? <ChangeTable changes={shown} /> : null}
    </>
  );
}

function ChangeTable({ changes }: { changes: EvalChange[] }) {
  return (
    <div class="table-wrap">
      <table class="stack-table eval-changes">
        <thead>
          <tr>
            <th scope="col">Case</th>
            <th scope="col">Scorer</th>
            <th scope="col">Change</th>
            <th scope="col">Mean score</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((c) => (
            <tr key={`${c.case}\u0000${c.scorer}`} class={`change-${c.change}`} data-change={c.change}>
              <th scope="row">{c.case}</th>
              <td data-label="Scorer">{c.scorer}</td>
              <td data-label="Change">
                <Badge text={c.change} />
              </td>
              <td data-label="Mean score">{changeText(c)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** `0.50 → 0.80 (+0.30)`, `1.00 (new)`, `was 0.50`. */
function changeText(c: EvalChange): string {
  if (c.change === 'new') return `${score(c.after)} (new)`;
  if (c.change === 'removed') return `was ${score(c.before)}`;
  const d = (c.after ?? 0) - (c.before ?? 0);
  return `${score(c.before)} → ${score(c.after)} (${d >= 0 ? '+' : ''}${d.toFixed(2)})`;
}

function CaseTable({ cases, k }: { cases: EvalCaseResult[]; k: number }) {
  const scorers = cases[0]?.scores.map((s) => s.scorer) ?? [];
  return (
    <>
      <h2>Cases</h2>
      <p class="muted small">Per scorer: the mean score over the case's runs, and how many of its {k} run(s) passed.</p>
      <div class="table-wrap">
        <table class="stack-table eval-cases">
          <thead>
            <tr>
              <th scope="col">Case</th>
              {scorers.map((s) => (
                <th key={s} scope="col">
                  {s}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {cases.map((c) => (
              <tr key={c.id}>
                <th scope="row">
                  {c.id}
                  <div class="muted small">{c.input}</div>
                </th>
                {c.scores.map((s) => (
                  <td key={s.scorer} data-label={s.scorer} class={s.passes === s.runs.length ? 'score-pass' : 'score-fail'}>
                    {score(s.mean)} ({s.passes}/{s.runs.length} passed)
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** The runs where a scorer failed (or the run itself failed), each with its answer and the reasons. */
function FailedRuns({ cases, k }: { cases: EvalCaseResult[]; k: number }) {
  const failed = cases.flatMap((c) =>
    Array.from({ length: k }, (_, i) => ({ c, i, misses: c.scores.filter((s) => s.runs[i] && !s.runs[i]!.pass) })).filter(
      (f) => f.misses.length > 0 || c.errors[f.i],
    ),
  );
  return (
    <>
      <h2>Failed runs</h2>
      {failed.length === 0 ? (
        <p class="muted">Every run passed every scorer.</p>
      ) : (
        <ul class="plain failed-runs">
          {failed.map(({ c, i, misses }) => (
            <li key={`${c.id}-${i}`} class="card">
              <strong>{c.id}</strong>{' '}
              <span class="muted">
                run {i + 1} of {k}
              </span>
              {c.errors[i] ? (
                <p class="error-text">The run failed: {c.errors[i]}</p>
              ) : (
                <p class="muted small">Answer: {c.outputs[i] || '(empty)'}</p>
              )}
              <ul>
                {misses.map((s) => (
                  <li key={s.scorer}>
                    <strong>{s.scorer}</strong> {score(s.runs[i]!.score)}
                    {s.runs[i]!.reason ? `: ${s.runs[i]!.reason}` : ''}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
