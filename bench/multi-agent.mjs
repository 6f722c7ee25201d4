#!/usr/bin/env node
// Multi-agent overhead: what Corvid itself costs per model step when agents run agents, with
// zero-latency scripted models (ScriptedModel, record: false) so only the framework is measured.
//
//   npm run build && node --expose-gc bench/multi-agent.mjs [--runs N] [--repeats N] [--json]
//
// Scenarios (each verified once before timing):
//   single       one agent, one tool call then an answer (2 steps): the baseline
//   dag-10       an Orchestrator running a 10-task DAG (4 roots → 3 → 2 → 1), one step per task
//   delegate-3   boss → manager → worker through agent tools, 3 deep (5 steps)
//   handoff-3    triage → billing → refunds through handoffs on one conversation (3 steps)
//   parallel-4   a ParallelAgent with 4 branches (4 steps)
// Both run() and stream() are timed; results are µs per model step (min and median of repeats).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..', 'dist');
const { Agent, Orchestrator, ParallelAgent, tool } = await import(pathToFileURL(join(root, 'index.js')).href);
const { ScriptedModel } = await import(pathToFileURL(join(root, 'testing', 'index.js')).href);

const args = process.argv.slice(2);
const flag = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const RUNS = flag('runs', 1000);
const REPEATS = flag('repeats', 7);
const JSON_OUT = args.includes('--json');

const model = (turn) => new ScriptedModel(turn, { record: false });
const text = (t) => () => ({ text: t });
/** Calls `toolName` on even calls, answers on odd ones (a two-step agent, run after run). */
const callThenAnswer = (toolName, input) => (_call, i) => (i % 2 === 0 ? { toolCalls: [{ toolName, input }] } : { text: 'done' });

const add = tool({
  name: 'add',
  description: 'Add',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
  execute: ({ a, b }) => a + b,
});

function single() {
  const agent = new Agent({ name: 'calc', instructions: 'You add.', model: model(callThenAnswer('add', { a: 1, b: 2 })), tools: [add] });
  return { steps: 2, agent, check: (r) => r.text === 'done' };
}

function dag10() {
  const worker = (name) => new Agent({ name, instructions: `You are ${name}.`, model: model(text(`${name} result`)) });
  const tasks = [
    ...[0, 1, 2, 3].map((i) => ({ id: `root${i}`, agent: worker(`root${i}`) })),
    { id: 'mid0', agent: worker('mid0'), dependsOn: ['root0', 'root1'] },
    { id: 'mid1', agent: worker('mid1'), dependsOn: ['root1', 'root2'] },
    { id: 'mid2', agent: worker('mid2'), dependsOn: ['root2', 'root3'] },
    { id: 'late0', agent: worker('late0'), dependsOn: ['mid0', 'mid1'] },
    { id: 'late1', agent: worker('late1'), dependsOn: ['mid1', 'mid2'] },
    { id: 'final', agent: worker('final'), dependsOn: ['late0', 'late1'], input: 'Combine: {output.late0} / {output.late1}' },
  ];
  const agent = new Orchestrator({ name: 'dag', tasks, maxParallel: 4 });
  return {
    steps: 10,
    agent,
    check: (r) => r.text === 'final result' && r.subRuns.length === 10 && Object.keys(r.usageByAgent).length === 10,
  };
}

function delegate3() {
  const worker = new Agent({ name: 'worker', instructions: 'You do the work.', model: model(text('worked')) });
  const manager = new Agent({
    name: 'manager',
    instructions: 'You manage.',
    model: model(callThenAnswer('ask_worker', { message: 'do it' })),
    tools: [worker.asTool()],
  });
  const agent = new Agent({
    name: 'boss',
    instructions: 'You lead.',
    model: model(callThenAnswer('ask_manager', { message: 'get it done' })),
    tools: [manager.asTool()],
  });
  return { steps: 5, agent, check: (r) => r.text === 'done' && Object.keys(r.usageByAgent).length === 3 };
}

function handoff3() {
  const refunds = new Agent({ name: 'refunds', instructions: 'You refund.', model: model(text('refunded')) });
  const billing = new Agent({
    name: 'billing',
    instructions: 'You bill.',
    model: model(() => ({ toolCalls: [{ toolName: 'transfer_to_refunds', input: {} }] })),
    handoffs: [refunds],
  });
  const agent = new Agent({
    name: 'triage',
    instructions: 'You route.',
    model: model(() => ({ toolCalls: [{ toolName: 'transfer_to_billing', input: {} }] })),
    handoffs: [billing],
  });
  return { steps: 3, agent, check: (r) => r.text === 'refunded' && r.activeAgent === 'refunds' };
}

function parallel4() {
  const branches = ['a', 'b', 'c', 'd'].map((n) => new Agent({ name: n, instructions: `You are ${n}.`, model: model(text(n)) }));
  const agent = new ParallelAgent({ name: 'fan', subAgents: branches });
  return { steps: 4, agent, check: (r) => r.subRuns.length === 4 };
}

const SCENARIOS = { single, 'dag-10': dag10, 'delegate-3': delegate3, 'handoff-3': handoff3, 'parallel-4': parallel4 };

async function runOnce(agent, mode) {
  if (mode === 'run') return agent.run('go');
  const s = agent.stream('go');
  for await (const _ of s) void _;
  return s.result;
}

/** Times every scenario and mode, interleaved per repeat so load changes hit them alike. */
async function measureAll() {
  const cases = [];
  for (const [name, make] of Object.entries(SCENARIOS)) {
    for (const mode of ['run', 'stream']) {
      const { steps, agent, check } = make();
      const verified = await runOnce(agent, mode);
      if (!check(verified)) throw new Error(`VERIFICATION FAILED: ${name} (${mode}) returned ${JSON.stringify(verified.text)}`);
      for (let i = 0; i < Math.min(200, RUNS); i++) await runOnce(agent, mode);
      cases.push({ name, mode, steps, agent, samples: [] });
    }
  }
  for (let r = 0; r < REPEATS; r++) {
    for (const c of cases) {
      globalThis.gc?.();
      const t = performance.now();
      for (let i = 0; i < RUNS; i++) await runOnce(c.agent, c.mode);
      c.samples.push(((performance.now() - t) * 1000) / (RUNS * c.steps));
    }
  }
  return cases.map((c) => {
    const s = [...c.samples].sort((a, b) => a - b);
    return { scenario: c.name, mode: c.mode, stepsPerRun: c.steps, usPerStep: { min: s[0], median: s[s.length >> 1] } };
  });
}

const results = await measureAll();

if (JSON_OUT) console.log(JSON.stringify({ node: process.version, runs: RUNS, repeats: REPEATS, results }, null, 2));
else {
  console.log(
    `Corvid multi-agent overhead, µs per model step (node ${process.version}, ${RUNS} runs × ${REPEATS} repeats; zero-latency ScriptedModel)\n`,
  );
  console.log('| scenario | steps/run | run() min | run() median | run() over single (min) | stream() min | stream() median |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  const base = results.find((x) => x.scenario === 'single' && x.mode === 'run').usPerStep.min;
  for (const name of Object.keys(SCENARIOS)) {
    const r = results.find((x) => x.scenario === name && x.mode === 'run');
    const s = results.find((x) => x.scenario === name && x.mode === 'stream');
    const f = (v) => v.toFixed(2);
    const over = name === 'single' ? '—' : `${r.usPerStep.min - base >= 0 ? '+' : ''}${f(r.usPerStep.min - base)}`;
    console.log(
      `| ${name} | ${r.stepsPerRun} | ${f(r.usPerStep.min)} | ${f(r.usPerStep.median)} | ${over} | ${f(s.usPerStep.min)} | ${f(s.usPerStep.median)} |`,
    );
  }
}
