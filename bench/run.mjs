#!/usr/bin/env node
// Corvid benchmarks beside peer frameworks. From the repo root:
//
//   npm run bench                      full run (~10 min on 2 cores)
//   npm run bench -- --quick           smaller counts, no install footprint (~2 min)
//   npm run bench -- --only=step,cold  some scenarios: step, instantiate, cold, install, scale
//   npm run bench -- --frameworks=corvid,ai-sdk-agent
//   npm run bench -- --update-doc      also writes the tables into BENCHMARKS.md
//   npm run bench -- --no-build        measure dist/ as it is (no rebuild when src/ is newer)
//   npm run bench -- --from-json=bench/results/latest.json [--update-doc]   report of a saved run
//
// Each framework runs in its own child process (bench/frameworks/<id>.mjs, see lib/harness.mjs).
// Results: a Markdown report on stdout, bench/results/latest.json and bench/results/latest.md.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

import { measureRunUntilRequest } from './lib/cli-start.mjs';
import { BENCH_DIR, packageVersion, ROOT_DIR, summarize } from './lib/harness.mjs';
import { addRatios, buildReport, computeTargets, updateDoc } from './lib/report.mjs';

const FRAMEWORKS = ['corvid', 'ai-sdk-generate-text', 'ai-sdk-agent', 'openai-agents', 'langgraph', 'langchain'];
const SCENARIOS = ['step', 'instantiate', 'cold', 'install', 'scale'];

/** Environment of every child: tracing and telemetry a peer could take from the environment are off. */
const CHILD_ENV = {
  ...process.env,
  LANGSMITH_TRACING: 'false',
  LANGCHAIN_TRACING_V2: 'false',
  LANGCHAIN_TRACING: 'false',
  OPENAI_AGENTS_DISABLE_TRACING: '1',
  NODE_ENV: 'production',
};
delete CHILD_ENV.LANGSMITH_API_KEY;
delete CHILD_ENV.LANGCHAIN_API_KEY;
delete CHILD_ENV.NODE_OPTIONS;

function parseArgs(argv) {
  const o = {
    quick: false,
    only: SCENARIOS,
    frameworks: FRAMEWORKS,
    runs: 2000,
    repeats: 5,
    warmup: 300,
    agents: 1000,
    maxRepeatMs: 6000,
    coldRuns: 10,
    updateDoc: false,
    build: true,
    json: join(BENCH_DIR, 'results', 'latest.json'),
  };
  const set = {};
  for (const arg of argv) {
    const [k, v] = arg.replace(/^--/, '').split('=');
    switch (k) {
      case 'quick':
        o.quick = true;
        break;
      case 'update-doc':
        o.updateDoc = true;
        break;
      case 'no-build':
        o.build = false;
        break;
      case 'only':
        o.only = v.split(',');
        set.only = true;
        for (const s of o.only) if (!SCENARIOS.includes(s)) throw new Error(`--only: unknown scenario ${s} (${SCENARIOS.join(', ')})`);
        break;
      case 'frameworks':
        o.frameworks = v.split(',');
        for (const f of o.frameworks) if (!FRAMEWORKS.includes(f)) throw new Error(`--frameworks: unknown ${f} (${FRAMEWORKS.join(', ')})`);
        break;
      case 'runs':
      case 'repeats':
      case 'warmup':
      case 'agents':
      case 'cold-runs':
      case 'max-repeat-ms':
        set[k] = Number(v);
        break;
      case 'json':
        o.json = v;
        break;
      case 'from-json':
        o.fromJson = v;
        break;
      case 'help':
        console.log(
          readFileSync(new URL(import.meta.url), 'utf8')
            .split('\n')
            .slice(1, 14)
            .join('\n'),
        );
        process.exit(0);
      // falls through
      default:
        throw new Error(`unknown option ${arg}`);
    }
  }
  if (o.quick) {
    Object.assign(o, { runs: 300, repeats: 3, warmup: 50, maxRepeatMs: 1500, coldRuns: 5 });
    if (!set.only) o.only = SCENARIOS.filter((s) => s !== 'install');
  }
  if (set.runs) o.runs = set.runs;
  if (set.repeats) o.repeats = set.repeats;
  if (set.warmup !== undefined) o.warmup = set.warmup;
  if (set.agents) o.agents = set.agents;
  if (set['cold-runs']) o.coldRuns = set['cold-runs'];
  if (set['max-repeat-ms']) o.maxRepeatMs = set['max-repeat-ms'];
  return o;
}

const log = (...a) => console.error('[bench]', ...a);

function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}\n${(r.stderr || '').slice(-4000)}\n${(r.stdout || '').slice(-2000)}`);
  }
  return r.stdout;
}

function newestMtime(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Builds the root package when dist/ is missing or older than src/; installs bench deps when
 * missing. Returns warnings (a failed build over an existing dist/ is measured with a warning).
 */
function prepare(o) {
  const warnings = [];
  if (!existsSync(join(ROOT_DIR, 'node_modules'))) {
    log('root node_modules missing: npm ci');
    sh('npm', ['ci', '--no-audit', '--no-fund'], { cwd: ROOT_DIR, stdio: ['ignore', 2, 2] });
  }
  const dist = join(ROOT_DIR, 'dist');
  const srcNewest = Math.max(
    newestMtime(join(ROOT_DIR, 'src')),
    statSync(join(ROOT_DIR, 'tsconfig.json')).mtimeMs,
    statSync(join(ROOT_DIR, 'tsconfig.build.json')).mtimeMs,
  );
  if (o.build && (!existsSync(join(dist, 'index.js')) || newestMtime(dist) < srcNewest)) {
    log('dist/ missing or older than src/: npm run build');
    try {
      sh('npm', ['run', 'build'], { cwd: ROOT_DIR, stdio: ['ignore', 2, 2] });
    } catch (err) {
      if (!existsSync(join(dist, 'index.js'))) throw err;
      const w =
        'npm run build failed (see above); measured the dist/ that exists (tsc still emits on type errors). Pass --no-build to skip building.';
      log(`WARNING: ${w}`);
      warnings.push(w);
    }
  }
  const installed = join(BENCH_DIR, 'node_modules', '.package-lock.json');
  if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(join(BENCH_DIR, 'package-lock.json')).mtimeMs) {
    log('bench dependencies missing or outdated: npm ci --prefix bench');
    sh('npm', ['ci', '--prefix', BENCH_DIR, '--no-audit', '--no-fund'], { cwd: ROOT_DIR, stdio: ['ignore', 2, 2] });
  }
  return warnings;
}

function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    npm: sh('npm', ['--version']).trim(),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAvgStart: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

/** Runs one framework scenario in a child process; returns its parsed result or { error }. */
function runChild(framework, scenario, o) {
  const args = ['--expose-gc', join(BENCH_DIR, 'frameworks', `${framework}.mjs`), scenario];
  if (scenario === 'generate' || scenario === 'stream') {
    args.push(
      '--runs',
      String(o.runs),
      '--repeats',
      String(o.repeats),
      '--warmup',
      String(o.warmup),
      '--max-repeat-ms',
      String(o.maxRepeatMs),
    );
  } else if (scenario === 'instantiate') {
    args.push('--agents', String(o.agents), '--repeats', String(o.repeats));
  }
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, {
    cwd: BENCH_DIR,
    env: CHILD_ENV,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 10 * 60_000,
  });
  const seconds = (performance.now() - t0) / 1000;
  const line = (r.stdout || '').split('\n').find((l) => l.startsWith('BENCH_RESULT '));
  if (r.status !== 0 || !line) {
    const why = r.error ? String(r.error) : `exit ${r.status}${r.signal ? ` (${r.signal})` : ''}`;
    return { error: `${framework} ${scenario}: ${why}\n${(r.stderr || '').trim().slice(-3000)}` };
  }
  const result = JSON.parse(line.slice('BENCH_RESULT '.length));
  result.seconds = Math.round(seconds * 10) / 10;
  return result;
}

function fmtStep(s) {
  return s
    ? `${s.usPerStep.median.toFixed(1)} µs/step (${s.usPerStep.min.toFixed(1)}–${s.usPerStep.max.toFixed(1)}), ${s.runs} runs × ${s.repeats}`
    : '';
}

/** A framework child in serve mode: send a phase, await its reply line. */
function startServeChild(framework, mode, o) {
  const args = [
    '--expose-gc',
    join(BENCH_DIR, 'frameworks', `${framework}.mjs`),
    mode,
    '--serve',
    '--runs',
    String(o.runs),
    '--repeats',
    String(o.repeats),
    '--warmup',
    String(o.warmup),
    '--max-repeat-ms',
    String(o.maxRepeatMs),
  ];
  const child = spawn(process.execPath, args, { cwd: BENCH_DIR, env: CHILD_ENV, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr = (stderr + c).slice(-6000)));
  const lines = [];
  let waiter;
  let exited;
  const rl = createInterface({ input: child.stdout });
  rl.on('line', (l) => {
    if (!/^(INFO|READY|REPLY)\b/.test(l)) return; // anything else a framework prints is ignored
    lines.push(l);
    waiter?.();
  });
  child.on('exit', (code, signal) => {
    exited = `exit ${code}${signal ? ` (${signal})` : ''}`;
    waiter?.();
  });
  const next = (prefix, timeoutMs) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error(`${framework} ${mode}: no ${prefix} within ${timeoutMs / 1000}s`));
      }, timeoutMs);
      const check = () => {
        const i = lines.findIndex((l) => l.startsWith(prefix));
        if (i >= 0) {
          clearTimeout(timer);
          waiter = undefined;
          const [l] = lines.splice(i, 1);
          resolve(l.slice(prefix.length).trim());
        } else if (exited) {
          clearTimeout(timer);
          reject(new Error(`${framework} ${mode}: ${exited}\n${stderr.trim().slice(-3000)}`));
        }
      };
      waiter = check;
      check();
    });
  return {
    framework,
    async ready() {
      const info = JSON.parse(await next('INFO', 120_000));
      if (!info.na) await next('READY', 120_000);
      return info;
    },
    async send(cmd) {
      child.stdin.write(`${cmd}\n`);
      return JSON.parse(await next('REPLY', 10 * 60_000));
    },
    kill: () => child.kill(),
  };
}

/**
 * Per-step overhead, one mode at a time: every framework's child starts and waits; each is
 * prepared (verified, warmed up) in turn; then the repeats run round-robin — repeat 1 of every
 * framework, then repeat 2, … — so noise from the rest of the machine falls on all of them alike.
 */
async function benchSteps(o, out) {
  for (const mode of ['generate', 'stream']) {
    const live = [];
    for (const f of o.frameworks) {
      out.step[f] ??= {};
      const c = startServeChild(f, mode, o);
      try {
        const info = await c.ready();
        out.frameworks[f] ??= { label: info.label, versions: info.versions, config: info.config };
        if (info.na) {
          out.step[f][mode] = { na: info.na };
          c.kill();
        } else live.push(c);
      } catch (err) {
        // A framework without this mode answers with a result line instead of READY.
        out.errors.push(err.message);
        log(`FAILED ${err.message}`);
        out.step[f][mode] = { error: err.message.split('\n')[0] };
        c.kill();
      }
    }
    const drop = (c, err) => {
      out.errors.push(err.message);
      log(`FAILED ${err.message}`);
      out.step[c.framework][mode] = { error: err.message.split('\n')[0] };
      live.splice(live.indexOf(c), 1);
      c.kill();
    };
    for (const c of [...live]) {
      log(`step ${mode}: ${c.framework}: verify + warm-up …`);
      try {
        const p = await c.send('prepare');
        log(`  ${p.warmup} warm-up runs; ${p.runs} runs per repeat`);
      } catch (err) {
        drop(c, err);
      }
    }
    for (let r = 0; r < o.repeats; r++) {
      log(`step ${mode}: repeat ${r + 1}/${o.repeats} of ${live.map((c) => c.framework).join(', ')}`);
      for (const c of [...live]) {
        try {
          await c.send('repeat');
        } catch (err) {
          drop(c, err);
        }
      }
    }
    for (const c of [...live]) {
      try {
        const s = await c.send('finish');
        out.step[c.framework][mode] = s;
        log(`step ${mode}: ${c.framework}: ${fmtStep(s)}`);
      } catch (err) {
        drop(c, err);
      }
    }
  }
}

function benchInstantiate(o, out) {
  for (const f of o.frameworks) {
    log(`instantiate: ${f} …`);
    const r = runChild(f, 'instantiate', o);
    if (r.error) {
      out.errors.push(r.error);
      log(`FAILED ${r.error}`);
      out.instantiate[f] = { error: r.error.split('\n')[0] };
      continue;
    }
    out.frameworks[f] ??= { label: r.label, versions: r.versions, config: r.config };
    out.instantiate[f] = r.na ? { na: r.na } : r.instantiate;
    if (!r.na) log(`  ${r.instantiate.usPerAgent.median.toFixed(2)} µs/agent, ${r.instantiate.bytesPerAgent.median.toFixed(0)} B/agent`);
  }
}

function importCode(specifier) {
  return `import(${JSON.stringify(specifier)}).catch((e) => { console.error(e); process.exit(1); })`;
}

/** Wall time of fresh processes (spawn to exit), interleaved round by round; median of `coldRuns`. */
async function benchCold(o, out) {
  const cli = join(ROOT_DIR, 'dist', 'cli', 'main.js');
  const targets = [
    { id: 'node', label: 'node -e 0', args: ['-e', '0'] },
    {
      id: 'corvid',
      label: "import 'corvid'",
      args: ['-e', importCode(pathToFileURL(join(ROOT_DIR, 'dist', 'index.js')).href)],
      corvid: true,
    },
    { id: 'ai', label: "import 'ai'", args: ['-e', importCode('ai')], peer: true },
    { id: 'openai-agents', label: "import '@openai/agents'", args: ['-e', importCode('@openai/agents')], peer: true },
    { id: 'langgraph', label: "import '@langchain/langgraph'", args: ['-e', importCode('@langchain/langgraph')], peer: true },
    {
      id: 'langgraph-prebuilt',
      label: "import '@langchain/langgraph/prebuilt' (createReactAgent)",
      args: ['-e', importCode('@langchain/langgraph/prebuilt')],
    },
    { id: 'langchain', label: "import 'langchain'", args: ['-e', importCode('langchain')], peer: true },
  ];
  if (existsSync(cli)) targets.push({ id: 'corvid-version', label: 'corvid --version', args: [cli, '--version'], corvid: true });
  else out.coldStart.notes.push('corvid --version: n/a (dist/cli/main.js does not exist yet)');
  const help = existsSync(cli) ? (spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' }).stdout ?? '') : '';
  const hasRun = /^\s+run\s/m.test(help);
  if (!hasRun) out.coldStart.notes.push('corvid run -q until the first model request: n/a (the CLI has no run command yet)');
  if (!/^\s+serve\s/m.test(help)) out.coldStart.notes.push('corvid serve until /health answers: n/a (the server does not exist yet)');
  else if (!o.only.includes('scale'))
    out.coldStart.notes.push('corvid serve until /health answers: measured by the scale scenario (--only=scale)');
  const times = Object.fromEntries(targets.map((t) => [t.id, []]));
  const spawnTimed = (t) => {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, t.args, { cwd: BENCH_DIR, env: CHILD_ENV, encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${t.label} failed (exit ${r.status}): ${(r.stderr || '').slice(-2000)}`);
    return { ms, stdout: r.stdout };
  };
  for (const t of targets) spawnTimed(t); // warm the file system cache
  for (let round = 0; round < o.coldRuns; round++) {
    for (const t of targets) times[t.id].push(spawnTimed(t).ms);
  }
  const base = summarize(times.node).median;
  for (const t of targets) {
    const s = summarize(times[t.id]);
    out.coldStart.rows.push({ id: t.id, label: t.label, ms: s, overNodeMs: s.median - base, peer: !!t.peer, corvid: !!t.corvid });
    log(`cold: ${t.label}: ${s.median.toFixed(1)} ms (over node -e 0: ${(s.median - base).toFixed(1)} ms)`);
  }
  if (existsSync(cli)) {
    const v = spawnTimed(targets.at(-1)).stdout.trim();
    out.coldStart.notes.push(`corvid --version printed ${JSON.stringify(v)}`);
  }
  if (hasRun) {
    log('cold: corvid run -q until the first model request …');
    const t = await measureRunUntilRequest(cli, CHILD_ENV, o.coldRuns);
    const node = summarize(t.node);
    const s = summarize(t.run);
    out.coldStart.rows.push({
      id: 'corvid-run',
      label: 'corvid run -q, spawn until the first model request',
      ms: s,
      overNodeMs: s.median - node.median,
      baselineMs: node,
      corvid: true,
    });
    out.coldStart.notes.push(
      `corvid run -q: a config with one openai-compatible model at a local HTTP server (127.0.0.1); timed from spawn until the server receives the request; its "over node -e 0" uses node -e 0 timed the same way, interleaved (median ${node.median.toFixed(1)} ms)`,
    );
    log(`  ${s.median.toFixed(1)} ms (over node -e 0: ${(s.median - node.median).toFixed(1)} ms)`);
  }
}

function duBytes(dir, apparent) {
  const args = ['-s', '-B1'];
  if (apparent) args.push('--apparent-size');
  return Number(sh('du', [...args, dir]).split(/\s+/)[0]);
}

/** Production install of Corvid (npm pack → tarball) and of each peer alone, each in an empty folder. */
function benchInstall(o, out) {
  const tmp = mkdtempSync(join(os.tmpdir(), 'corvid-bench-install-'));
  try {
    log('install: npm pack (root) …');
    const packed = JSON.parse(sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: ROOT_DIR }));
    const tarball = join(tmp, packed[0].filename);
    const v = (p) => `${p}@${packageVersion(p)}`;
    const sets = [
      { id: 'corvid', label: `corvid ${packageVersion('corvid')} (npm pack)`, specs: [tarball], corvid: true },
      { id: 'ai', label: 'ai + zod', specs: [v('ai'), v('zod')], peer: true },
      { id: 'openai-agents', label: '@openai/agents + zod', specs: [v('@openai/agents'), v('zod')], peer: true },
      {
        id: 'langgraph',
        label: '@langchain/langgraph + @langchain/core',
        specs: [v('@langchain/langgraph'), v('@langchain/core')],
        peer: true,
      },
      { id: 'langchain', label: 'langchain + @langchain/core', specs: [v('langchain'), v('@langchain/core')], peer: true },
    ];
    for (const s of sets) {
      const dir = join(tmp, s.id);
      mkdirSync(dir);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `footprint-${s.id}`, version: '1.0.0', private: true }));
      log(`install: ${s.label} …`);
      const t0 = performance.now();
      sh('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error', ...s.specs], {
        cwd: dir,
        env: { ...process.env, NODE_ENV: 'production' },
      });
      const seconds = (performance.now() - t0) / 1000;
      const nm = join(dir, 'node_modules');
      const lock = JSON.parse(readFileSync(join(nm, '.package-lock.json'), 'utf8'));
      const entries = Object.entries(lock.packages).filter(([k, p]) => k.includes('node_modules/') && !p.link);
      const packages = entries.length;
      // The largest packages (apparent size, nested node_modules counted with their parent's own entry).
      const sizes = entries
        .filter(([k]) => k.split('node_modules/').length === 2)
        .map(([k]) => ({ name: k.slice('node_modules/'.length), bytes: duBytes(join(dir, k), true) }))
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 5);
      const installScripts = entries.filter(([, p]) => p.hasInstallScript).map(([k]) => k.split('node_modules/').pop());
      const row = {
        id: s.id,
        label: s.label,
        specs: s.specs.map((x) => (x === tarball ? packed[0].filename : x)),
        diskBytes: duBytes(nm, false),
        apparentBytes: duBytes(nm, true),
        packages,
        peer: !!s.peer,
        corvid: !!s.corvid,
        installSeconds: Math.round(seconds * 10) / 10,
        largest: sizes,
        installScripts,
      };
      if (s.corvid) row.tarballBytes = packed[0].size;
      out.install.rows.push(row);
      log(`  ${(row.diskBytes / 1e6).toFixed(1)} MB on disk, ${packages} packages`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.fromJson) {
    // Report only: rebuild the Markdown (and BENCHMARKS.md with --update-doc) from a saved run.
    const saved = JSON.parse(readFileSync(o.fromJson, 'utf8'));
    addRatios(saved);
    saved.targets = computeTargets(saved);
    const md = buildReport(saved);
    console.log(md);
    if (o.updateDoc) updateDoc(join(ROOT_DIR, 'BENCHMARKS.md'), md);
    return;
  }
  const started = Date.now();
  const warnings = prepare(o);
  const out = {
    warnings,
    date: new Date().toISOString(),
    machine: machine(),
    options: {
      quick: o.quick,
      only: o.only,
      frameworks: o.frameworks,
      runs: o.runs,
      repeats: o.repeats,
      warmup: o.warmup,
      agents: o.agents,
      maxRepeatMs: o.maxRepeatMs,
      coldRuns: o.coldRuns,
    },
    frameworks: {},
    step: {},
    instantiate: {},
    coldStart: { rows: [], notes: [] },
    install: { rows: [] },
    memoryAtScale: { na: 'not run (scenario scale)' },
    errors: [],
  };
  log(
    `machine: ${out.machine.cpu}, ${out.machine.cores} cores, ${out.machine.memoryGiB} GiB, Node ${out.machine.node}; load ${out.machine.loadAvgStart.join(' ')}`,
  );
  const guard = (name, fn) => {
    try {
      fn();
    } catch (err) {
      out.errors.push(`${name}: ${err.stack ?? err}`);
      log(`FAILED ${name}: ${err.message}`);
    }
  };
  const guardAsync = async (name, fn) => {
    try {
      await fn();
    } catch (err) {
      out.errors.push(`${name}: ${err.stack ?? err}`);
      log(`FAILED ${name}: ${err.message}`);
    }
  };
  if (o.only.includes('step')) await guardAsync('step', () => benchSteps(o, out));
  if (o.only.includes('instantiate')) guard('instantiate', () => benchInstantiate(o, out));
  if (o.only.includes('cold')) await guardAsync('cold', () => benchCold(o, out));
  if (o.only.includes('install')) guard('install', () => benchInstall(o, out));
  if (o.only.includes('scale')) guard('scale', () => benchScale(o, out));
  out.machine.loadAvgEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);
  out.seconds = Math.round((Date.now() - started) / 100) / 10;
  addRatios(out);
  out.targets = computeTargets(out);
  const md = buildReport(out);
  mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
  writeFileSync(o.json, JSON.stringify(out, null, 2) + '\n');
  writeFileSync(join(BENCH_DIR, 'results', 'latest.md'), md);
  console.log(md);
  log(`wrote ${o.json} and bench/results/latest.md in ${out.seconds}s`);
  if (o.updateDoc) {
    updateDoc(join(ROOT_DIR, 'BENCHMARKS.md'), md);
    log('updated BENCHMARKS.md');
  }
  if (out.errors.length) {
    console.error(`\n${out.errors.length} failure(s):\n${out.errors.join('\n\n')}`);
    process.exitCode = 1;
  }
}

await main();

/** Memory at scale and `corvid serve` cold start: bench/scale.mjs in its own process (10 agents, 100,000 SQLite sessions). */
function benchScale(o, out) {
  log('scale: 10 agents, ' + (o.quick ? '10,000' : '100,000') + ' stored sessions, corvid serve');
  const r = spawnSync(
    process.execPath,
    [join(BENCH_DIR, 'scale.mjs'), '--json', `--sessions=${o.quick ? 10_000 : 100_000}`, `--chats=${o.quick ? 100 : 500}`],
    {
      encoding: 'utf8',
      env: CHILD_ENV,
      maxBuffer: 1 << 24,
    },
  );
  if (r.status !== 0) throw new Error(`bench/scale.mjs failed: ${r.stderr || r.stdout}`);
  out.memoryAtScale = JSON.parse(r.stdout.slice(r.stdout.indexOf('{')));
  const m = out.memoryAtScale;
  out.coldStart.notes.push(
    `corvid serve until /health answers: ${Math.round(m.serveHealthMs)} ms, median of 5 (node -e 0 timed alike: ${Math.round(m.nodeBaselineMs)} ms), 10 agents and ${m.sessions.toLocaleString('en-US')} stored sessions (scale scenario)`,
  );
}
