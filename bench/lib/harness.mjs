// The measuring code shared by every framework's child process. A framework file calls
// `runFramework(adapter)`; this reads the scenario from argv, verifies the adapter does the task
// for real, measures, and prints one line `BENCH_RESULT <json>` on stdout.
//
//   node --expose-gc bench/frameworks/<name>.mjs <scenario> [--runs N] [--repeats N] [--warmup N] [--agents N] [--max-repeat-ms MS] [--serve]
//
// --serve (generate/stream): print INFO and READY, then run the phases prepare / repeat / finish
// as the parent sends them on stdin, one `REPLY <json>` line each (see stepSession).
//
// Scenarios: info | generate | stream | instantiate
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ANSWER, ANSWER_DELTAS, createState, RESULTS, STEPS, TOOL_NAME } from './task.mjs';

export const BENCH_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT_DIR = join(BENCH_DIR, '..');

/** Version of an installed package (Corvid: the repo root's package.json). */
export function packageVersion(name) {
  const file = name === 'corvid' ? join(ROOT_DIR, 'package.json') : join(BENCH_DIR, 'node_modules', name, 'package.json');
  return JSON.parse(readFileSync(file, 'utf8')).version;
}

function parseArgs(argv) {
  const opts = { scenario: argv[0], runs: 2000, repeats: 5, warmup: 300, agents: 1000, maxRepeatMs: 6000, serve: false };
  for (let i = 1; i < argv.length; i++) {
    if (argv[i] === '--serve') {
      opts.serve = true;
      continue;
    }
    const m = /^--(runs|repeats|warmup|agents|maxRepeatMs)$/.exec(argv[i].replace('--max-repeat-ms', '--maxRepeatMs'));
    if (!m) throw new Error(`unknown argument ${argv[i]}`);
    opts[m[1]] = Number(argv[++i]);
  }
  return opts;
}

function fail(message) {
  throw new Error(`VERIFICATION FAILED: ${message}`);
}

export function summarize(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { min: s[0], median, max: s[s.length - 1], samples: values };
}

function gc() {
  if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
  globalThis.gc();
  globalThis.gc();
}

/** One run checked in depth: tools ran 3 times, the model saw the tool + results, the answer arrived. */
async function verifyOnce(mode, fn, state) {
  const calls0 = state.modelCalls;
  const tools0 = state.toolRuns;
  state.verify = true;
  state.seenTools = undefined;
  state.seenResults = undefined;
  let out;
  try {
    out = await fn();
  } finally {
    state.verify = false;
  }
  const calls = state.modelCalls - calls0;
  const tools = state.toolRuns - tools0;
  if (calls !== STEPS) fail(`${mode}: expected ${STEPS} model calls in one run, got ${calls}`);
  if (tools !== 3) fail(`${mode}: expected the add tool to run 3 times, it ran ${tools} times`);
  const seen = state.seenTools;
  if (!seen || seen.length !== 1 || seen[0].name !== TOOL_NAME)
    fail(`${mode}: the model was not sent the add tool: ${JSON.stringify(seen)}`);
  const props = seen[0].schema?.properties ?? {};
  if (props.a?.type !== 'number' || props.b?.type !== 'number')
    fail(`${mode}: the add tool's JSON Schema is wrong: ${JSON.stringify(seen[0].schema)}`);
  if (JSON.stringify(state.seenResults) !== JSON.stringify(RESULTS)) {
    fail(`${mode}: the last model call should see tool results ${JSON.stringify(RESULTS)}, saw ${JSON.stringify(state.seenResults)}`);
  }
  checkOutput(mode, out);
}

function checkOutput(mode, out) {
  if (mode === 'generate') {
    if (out !== ANSWER) fail(`generate: expected the answer ${JSON.stringify(ANSWER)}, got ${JSON.stringify(out)}`);
    return;
  }
  if (!out || out.text !== ANSWER) fail(`stream: expected the final answer ${JSON.stringify(ANSWER)}, got ${JSON.stringify(out?.text)}`);
  if (out.streamed !== ANSWER || out.deltas !== ANSWER_DELTAS.length) {
    fail(
      `stream: expected ${ANSWER_DELTAS.length} text deltas making ${JSON.stringify(ANSWER)}, got ${out.deltas} making ${JSON.stringify(out.streamed)}`,
    );
  }
}

/**
 * The per-step measurement of one framework and mode, in three phases so that the parent can
 * interleave the repeats of all frameworks (round-robin) and spread machine noise evenly:
 * prepare() verifies, warms up and sizes the repeats; repeat() times one repeat; finish()
 * verifies again, times the model alone and summarises.
 */
function stepSession(mode, fn, floorFn, state, opts) {
  let runs;
  let warmup = 0;
  const elapsed = [];
  return {
    async prepare() {
      for (let i = 0; i < 3; i++) await verifyOnce(mode, fn, state);
      // Warm-up: `warmup` runs, cut short after a third of a repeat's time budget (at least 20 runs).
      const warmStart = performance.now();
      while (warmup < opts.warmup && (warmup < 20 || performance.now() - warmStart < opts.maxRepeatMs / 3)) {
        checkOutput(mode, await fn());
        warmup++;
      }
      // Runs per repeat: `runs`, fewer for a framework so slow that a repeat would exceed maxRepeatMs.
      const calib = Math.min(30, opts.runs);
      const c0 = performance.now();
      for (let i = 0; i < calib; i++) checkOutput(mode, await fn());
      const msPerRun = (performance.now() - c0) / calib;
      runs = Math.max(Math.min(opts.runs, 50), Math.min(opts.runs, Math.floor(opts.maxRepeatMs / msPerRun)));
      return { runs, warmup };
    },
    async repeat() {
      gc();
      const calls0 = state.modelCalls;
      const tools0 = state.toolRuns;
      const t0 = performance.now();
      for (let i = 0; i < runs; i++) checkOutput(mode, await fn());
      const ms = performance.now() - t0;
      if (state.modelCalls - calls0 !== STEPS * runs) fail(`${mode}: ${state.modelCalls - calls0} model calls in ${runs} runs`);
      if (state.toolRuns - tools0 !== 3 * runs) fail(`${mode}: ${state.toolRuns - tools0} tool runs in ${runs} runs`);
      elapsed.push(ms);
      gc(); // leave no garbage for idle-time GC work while the other frameworks' repeats run
      return { ms };
    },
    async finish() {
      await verifyOnce(mode, fn, state);
      // The scripted model alone (4 calls, streams read to the end): the floor under every figure.
      let floor;
      if (floorFn) {
        for (let i = 0; i < 200; i++) await floorFn();
        const f = [];
        for (let r = 0; r < elapsed.length; r++) {
          gc();
          const t0 = performance.now();
          for (let i = 0; i < runs; i++) await floorFn();
          f.push(((performance.now() - t0) * 1000) / (runs * STEPS));
        }
        floor = summarize(f);
      }
      return {
        runs,
        runsRequested: opts.runs,
        repeats: elapsed.length,
        warmup,
        stepsPerRun: STEPS,
        runsPerSec: summarize(elapsed.map((ms) => (runs / ms) * 1000)),
        usPerStep: summarize(elapsed.map((ms) => (ms * 1000) / (runs * STEPS))),
        modelUsPerStep: floor,
      };
    },
  };
}

/** Serve mode: phases on command from the parent (one line on stdin each), one reply line each. */
async function serveSession(session) {
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: process.stdin });
  process.stdout.write('READY\n');
  for await (const line of rl) {
    const cmd = line.trim();
    if (!['prepare', 'repeat', 'finish'].includes(cmd)) throw new Error(`unknown command ${cmd}`);
    const reply = await session[cmd]();
    process.stdout.write(`REPLY ${JSON.stringify(reply)}\n`);
    if (cmd === 'finish') break;
  }
  rl.close();
}

async function measureInstantiation(create, opts) {
  const n = opts.agents;
  // Warm-up: the constructors' code paths get compiled before they are timed.
  let keep = [];
  for (let i = 0; i < Math.min(200, n); i++) keep.push(create(`warm_${i}`));
  keep = null;
  const perAgentUs = [];
  const perAgentBytes = [];
  let agents;
  for (let r = 0; r < opts.repeats; r++) {
    gc();
    const before = process.memoryUsage().heapUsed;
    agents = new Array(n);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) agents[i] = create(`agent_${i}`);
    const ms = performance.now() - t0;
    gc();
    const after = process.memoryUsage().heapUsed;
    // `agents` is still in use here, so the heap figure above includes all of them.
    if (agents.some((a) => a == null || typeof a.then === 'function'))
      fail('instantiate: the agent factory must return agents synchronously');
    perAgentUs.push((ms * 1000) / n);
    perAgentBytes.push((after - before) / n);
    agents.fill(null); // released before the next repeat's baseline (a stale stack slot could keep the array alive)
    agents = null;
  }
  return { agents: n, repeats: opts.repeats, usPerAgent: summarize(perAgentUs), bytesPerAgent: summarize(perAgentBytes) };
}

/**
 * Entry point of a framework child process.
 * adapter: { id, label, packages: string[], config: string,
 *            setup(state) => { generate?, stream?, createAgent? } }
 *   generate(): Promise<string>                 one non-streaming run, resolves with the final text
 *   stream(): Promise<{ text, streamed, deltas }> one streaming run consumed fully: final text,
 *                                               the concatenated text deltas and their count
 *   createAgent(name): agent                   one agent with the add tool
 *   model: { generate(), stream() }            the scripted model alone: the 4 calls of one run
 *                                               (streams read to the end), to show its share
 */
export async function runFramework(adapter) {
  const opts = parseArgs(process.argv.slice(2));
  const state = createState();
  const impl = await adapter.setup(state);
  const result = {
    id: adapter.id,
    label: adapter.label,
    versions: Object.fromEntries(adapter.packages.map((p) => [p, packageVersion(p)])),
    config: adapter.config,
    scenario: opts.scenario,
  };
  switch (opts.scenario) {
    case 'info':
      result.supports = { generate: !!impl.generate, stream: !!impl.stream, instantiate: !!impl.createAgent };
      break;
    case 'generate':
    case 'stream': {
      const fn = impl[opts.scenario];
      if (!fn) {
        result.na = `no ${opts.scenario} mode`;
        if (opts.serve) {
          process.stdout.write(`INFO ${JSON.stringify(result)}\n`);
          return;
        }
        break;
      }
      const session = stepSession(opts.scenario, fn, impl.model?.[opts.scenario], state, opts);
      if (opts.serve) {
        process.stdout.write(`INFO ${JSON.stringify(result)}\n`);
        await serveSession(session);
        return;
      }
      await session.prepare();
      for (let r = 0; r < opts.repeats; r++) await session.repeat();
      result.step = await session.finish();
      break;
    }
    case 'instantiate':
      if (!impl.createAgent) result.na = 'no agent object to instantiate';
      else result.instantiate = await measureInstantiation(impl.createAgent, opts);
      break;
    default:
      throw new Error(`unknown scenario ${opts.scenario}`);
  }
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
}
