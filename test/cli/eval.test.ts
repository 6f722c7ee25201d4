import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { DOMParser } from 'linkedom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RecordedRequest, startFakeLlmServer } from '../support/fake-llm-server.js';
import { assertBuilt, cliEnv, fakeModel, ROOT, runCli, stripAnsi, tempDir, writeConfig } from './cli-harness.js';

const tmp = tempDir('corvid-eval-');
beforeAll(() => assertBuilt());
afterAll(() => tmp.cleanup());

const TOOLS = join(ROOT, 'examples', 'tools-module', 'tools.mjs');

/** The suite: two cases, k = 2, four scorers; `answer` and `exact` vary between the tests. */
function suite(options: { answerPattern?: string; exactAllK?: boolean } = {}): string {
  return `name: calc
agent: calc
k: 2
cassette: cassettes/calc.json
cases:
  - id: sum
    input: What is 2 + 3?
    expected: "5"
    expected_tool_calls: [{ tool: add, args: { a: 2, b: 3 } }]
  - id: peru
    input: What is the capital of Peru?
    expected: Lima
    expected_tool_calls: []
scorers:
  - { type: exact, threshold: 0.5${options.exactAllK ? ', all_k: true' : ''} }
  - { type: regex, name: answer, pattern: '${options.answerPattern ?? '^5$|Lima'}' }
  - { type: tool_calls, name: tools, mode: in_order, ignore_args: [] }
  - { type: llm_judge, name: judge, model: fake, criteria: The answer is correct., threshold: 0.8 }
`;
}

const userText = (req: RecordedRequest): string => JSON.stringify(req.body.messages.at(-1));

describe('corvid eval (a real child process, the fake model server, then its cassette)', () => {
  it('records once, replays without the server, gates on means and all_k, diffs the baseline, writes JUnit and Markdown', async () => {
    let peruAnswers = 0;
    const server = await startFakeLlmServer((req) => {
      if (JSON.stringify(req.body.messages[0]).includes('impartial judge')) return { text: '{"score": 0.9, "reason": "correct"}' };
      if (req.body.messages.at(-1).role === 'tool') return { text: '5' };
      if (userText(req).includes('2 + 3')) return { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] };
      // Peru: right the first time, too wordy the second (exact fails on one run of two).
      return { text: peruAnswers++ % 2 === 0 ? 'Lima' : 'Lima, of course.' };
    });
    const dir = tmp.dir;
    writeConfig(
      dir,
      `models:\n${fakeModel(server.url)}tools:\n  math:\n    module: ${TOOLS}\nagents:\n  calc:\n    model: fake\n    tools: [math.add]\n`,
    );
    writeFileSync(join(dir, 'suite.yaml'), suite());
    const evalCli = (...args: string[]) => runCli(['eval', 'suite.yaml', ...args], { cwd: dir, env: cliEnv(dir), timeoutMs: 60_000 });

    // 1. Record against the fake server; the results become the baseline.
    const recorded = await evalCli('--record', '--baseline', 'baseline.json', '--update-baseline');
    expect(recorded.stderr).not.toContain('error');
    expect(recorded.code).toBe(0);
    // 2 cases × k = 2: sum takes 2 model calls a run, peru 1, and each run has 1 judge call.
    expect(server.requests).toHaveLength(2 * (2 + 1) + 2 * (1 + 1));
    expect(stripAnsi(recorded.stderr)).toContain('✓ sum  exact 1.00 (2/2)  answer 1.00 (2/2)  tools 1.00 (2/2)  judge 0.90 (2/2)');
    expect(stripAnsi(recorded.stderr)).toContain('✗ peru  exact 0.50 (1/2)');
    expect(stripAnsi(recorded.stdout)).toContain('✓ exact  mean 0.75 ≥ 0.50');
    expect(stripAnsi(recorded.stdout)).toContain('Passed: 4 gate(s)');
    expect(existsSync(join(dir, 'cassettes', 'calc.json'))).toBe(true);
    const baseline = JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8'));
    expect(baseline).toMatchObject({ corvidEval: 1, suite: 'calc', agent: 'calc', k: 2, pass: true });
    expect(readdirSync(join(dir, '.corvid', 'evals')).filter((f) => /^calc-.*\.json$/.test(f))).toHaveLength(1);

    // 2. The server is gone: the same suite replays from the cassette, with the same scores and no change.
    await server.close();
    const replayed = await evalCli('--replay', '--baseline', 'baseline.json', '--report', 'report.md', '--junit', 'junit.xml');
    expect(replayed.code).toBe(0);
    expect(stripAnsi(replayed.stdout)).toContain('Changes against baseline.json: none');
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain('No score changed.');

    // 3. all_k: the mean still passes, but peru did not pass both runs: gate fails, exit code 1.
    writeFileSync(join(dir, 'suite.yaml'), suite({ exactAllK: true }));
    const allK = await evalCli('--replay', '--junit', 'junit.xml');
    expect(allK.code).toBe(1);
    expect(stripAnsi(allK.stdout)).toContain('✗ exact  mean 0.75 ≥ 0.50, all_k: 1 case(s) passed every run of 2');
    expect(stripAnsi(allK.stdout)).toContain('Failed: 1 of 4 gate(s)');
    const doc = new DOMParser().parseFromString(readFileSync(join(dir, 'junit.xml'), 'utf8'), 'text/xml');
    const testsuite = doc.querySelector('testsuite')!;
    expect(testsuite.getAttribute('name')).toBe('calc');
    const cases = [...doc.querySelectorAll('testcase')];
    expect(cases.map((c) => c.getAttribute('name'))).toContain('gate · exact');
    const failed = cases.filter((c) => c.querySelector('failure') !== null).map((c) => c.getAttribute('name'));
    expect(failed).toEqual(['peru · exact', 'gate · exact']);
    expect(testsuite.getAttribute('failures')).toBe('2');
    expect(testsuite.getAttribute('tests')).toBe(String(2 * 4 + 4));

    // 4. A changed scorer regresses a case: the terminal and the Markdown report show the diff.
    writeFileSync(join(dir, 'suite.yaml'), suite({ answerPattern: 'Lima' }));
    const regressed = await evalCli('--replay', '--baseline', 'baseline.json', '--report', 'report.md', '--k', '1');
    expect(regressed.code).toBe(1);
    expect(stripAnsi(regressed.stdout)).toMatch(/regressed +sum · answer {2}1\.00 → 0\.00 \(-1\.00\)/);
    const report = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(report).toContain('## Changes against the baseline');
    expect(report).toContain('| sum | answer | regressed | 1.00 → 0.00 (-1.00) |');
    expect(report).toContain('| answer | 0.50 | 1.00 | – | **fail**');
    // With k = 1 peru replays its first recording ("Lima"): exact improves.
    expect(report).toContain('| peru | exact | improved | 0.50 → 1.00 (+0.50) |');

    // 5. A score that drops but still passes its gate: exit 0, unless --fail-on-regression, which names case · scorer.
    writeFileSync(join(dir, 'suite.yaml'), suite());
    expect((await evalCli('--replay', '--k', '1', '--baseline', 'k1.json', '--update-baseline')).code).toBe(0);
    const dropped = await evalCli('--replay', '--baseline', 'k1.json');
    expect(dropped.code).toBe(0);
    expect(stripAnsi(dropped.stdout)).toMatch(/regressed +peru · exact {2}1\.00 → 0\.50/);
    const gated = await evalCli('--replay', '--baseline', 'k1.json', '--fail-on-regression', '--update-baseline');
    expect(gated.code).toBe(1);
    expect(stripAnsi(gated.stderr)).toContain(
      'Failed: 1 regression(s) against k1.json: peru · exact (1.00 → 0.50); the baseline is not updated',
    );
    expect(JSON.parse(readFileSync(join(dir, 'k1.json'), 'utf8')).k).toBe(1);
  }, 180_000);

  it('bad usage and a broken suite are clear errors', async () => {
    const dir = join(tmp.dir);
    writeFileSync(join(dir, 'broken.yaml'), 'cases:\n  - input: hi\nscorers:\n  - { type: nope }\n');
    const broken = await runCli(['eval', 'broken.yaml'], { cwd: dir, env: cliEnv(dir) });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(
      'error: broken.yaml: scorers.0.type: scorer type must be one of: exact, regex, json_schema, tool_calls, budget, llm_judge',
    );
    const noBaseline = await runCli(['eval', 'broken.yaml', '--update-baseline'], { cwd: dir, env: cliEnv(dir) });
    expect(noBaseline.code).toBe(2);
    expect(noBaseline.stderr).toContain('--update-baseline needs --baseline <file>');
    const noCompare = await runCli(['eval', 'broken.yaml', '--fail-on-regression'], { cwd: dir, env: cliEnv(dir) });
    expect(noCompare.code).toBe(2);
    expect(noCompare.stderr).toContain('--fail-on-regression needs --baseline <file>');
    const missing = await runCli(['eval'], { cwd: dir, env: cliEnv(dir) });
    expect(missing.code).toBe(2);
  });
});
