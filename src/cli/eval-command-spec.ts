import type { CommandSpec } from './command-specs.js';

/** The spec of `corvid eval`; `globalHelp` is the global options' help text. */
export function evalCommandSpec(globalHelp: string): CommandSpec {
  return {
    name: 'eval',
    summary: 'Run an eval suite: score an agent on a dataset, gate, diff a baseline',
    options: {
      k: { type: 'string' },
      agent: { type: 'string', short: 'a' },
      baseline: { type: 'string' },
      'update-baseline': { type: 'boolean' },
      'fail-on-regression': { type: 'boolean' },
      junit: { type: 'string' },
      report: { type: 'string' },
      json: { type: 'boolean' },
      cassette: { type: 'string' },
      record: { type: 'boolean' },
      replay: { type: 'boolean' },
    },
    maxPositionals: 1,
    help: `Usage: corvid eval <suite.yaml> [options]

Runs every case of the suite k times against its agent, scores each run with the suite's
scorers and checks the gates: a scorer's mean score must reach its threshold, and with all_k
every case must pass in every run. Prints each case's scores, the gates and the changes
against a baseline; saves the results in .corvid/evals/<suite>-<time>.json (docs/evals.md).

Options:
      --k <n>              Runs per case (overrides the suite's k)
  -a, --agent <name>       Agent to evaluate (overrides the suite's agent)
      --baseline <file>    Compare with these saved results (per case and scorer)
      --update-baseline    Write this run's results to the --baseline file
      --fail-on-regression Exit 1 when a case's score for a scorer went down against --baseline
      --junit <file>       Write a JUnit XML report (for CI test views)
      --report <file>      Write a Markdown report (gates, cases, changes against the baseline)
      --json               Print the results as JSON on stdout
      --cassette <file>    Cassette of the model calls (overrides the suite's cassette:)
      --record             Record the cassette anew (calls go to the model)
      --replay             Replay only: no call reaches a model (CI without API keys)

${globalHelp}
  (-c names the agent's config instead of the suite's config:)

Exit codes: 0 every gate passed, 1 a gate failed (or, with --fail-on-regression, a score
regressed) or the suite could not run, 2 bad usage.

Examples:
  corvid eval evals/support.yaml --k 3 --junit eval-results.xml --report eval-report.md
  corvid eval evals/support.yaml --baseline evals/baseline.json --update-baseline
  corvid eval evals/support.yaml --replay   # from the suite's cassette, no API key needed`,
  };
}
