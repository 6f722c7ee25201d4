#!/usr/bin/env node
// The terminal UI of `corvid code` (src/code/tui): rendering a streamed 200 KB markdown answer, and spawn to first
// frame of runTui beside `node -e 0`. From the repo root, after `npm run build` (it measures the UI bundle that the
// package ships, dist/code/tui/run-tui.bundle.js; after `tsc` alone, the unbundled dist/code/tui/run-tui.js):
//
//   node bench/code-render.mjs             (streaming once, first frame median of 7 spawns)
//   node bench/code-render.mjs --demo      the UI on a scripted session in this terminal (a realistic task; try it in tmux)
//
// The UI runs against the scripted session of test/code/tui/fake-session.ts (turned into JS with esbuild). Streaming:
// the answer arrives in 64-byte deltas, a frame is awaited after every KB; CPU time per KB must stay flat as the
// transcript grows (finished blocks are printed once by <Static>; only the unfinished tail re-renders).
// Exits 1 when a target is missed: last 20 KB ≤ 2× the first 20 KB per KB; spawn to first frame < 600 ms.
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);

/** The fake session and demo script as JS modules in a temp folder. */
async function loadFakes() {
  const outdir = mkdtempSync(join(os.tmpdir(), 'corvid-code-render-'));
  const dir = join(ROOT, 'test', 'code', 'tui');
  await build({
    entryPoints: [join(dir, 'fake-session.ts'), join(dir, 'demo-script.ts')],
    outdir,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  const fake = await import(pathToFileURL(join(outdir, 'fake-session.js')).href);
  const demo = await import(pathToFileURL(join(outdir, 'demo-script.js')).href);
  return { ...fake, ...demo };
}

const bundlePath = join(ROOT, 'dist', 'code', 'tui', 'run-tui.bundle.js');
const runTuiPath = pathToFileURL(existsSync(bundlePath) ? bundlePath : join(ROOT, 'dist', 'code', 'tui', 'run-tui.js')).href;

function fakeTerminal(columns = 80, rows = 24) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin });
  let bytes = 0;
  const stdout = Object.assign(new EventEmitter(), {
    columns,
    rows,
    isTTY: true,
    write(chunk) {
      bytes += chunk.length;
      stdout.emit('written', chunk);
      return true;
    },
  });
  return { stdin, stdout, bytes: () => bytes };
}

/** ~200 KB of markdown like a long answer: paragraphs, lists and code blocks. */
function answer(kb) {
  const parts = [];
  let size = 0;
  for (let i = 0; size < kb * 1024; i++) {
    const part =
      i % 3 === 0
        ? `## Step ${i}\n\nThe function \`parse${i}\` reads **each line** and keeps the state of the parser between calls, so a long input costs linear time.\n\n`
        : i % 3 === 1
          ? `- item ${i} with \`code\`\n- second item, *emphasis*\n- third item\n\n`
          : '```ts\n' + Array.from({ length: 8 }, (_, j) => `const v${j} = compute(${i}, ${j}); // note ${j}`).join('\n') + '\n```\n\n';
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}

async function streaming({ FakeCodeSession }) {
  const { runTui } = await import(runTuiPath);
  const text = answer(200);
  const term = fakeTerminal();
  let frames = 0;
  let onFrame;
  const nextFrame = () => new Promise((resolve) => (onFrame = resolve));
  const perKb = [];
  const script = async (ctx) => {
    ctx.agent({ type: 'step_start', step: 1, maxSteps: 5 });
    for (let kb = 0; kb * 1024 < text.length; kb++) {
      const cpu = process.cpuUsage();
      const t = performance.now();
      const chunk = text.slice(kb * 1024, (kb + 1) * 1024);
      for (let i = 0; i < chunk.length; i += 64) ctx.agent({ type: 'text_delta', step: 1, delta: chunk.slice(i, i + 64) });
      await nextFrame();
      const used = process.cpuUsage(cpu);
      perKb.push({ cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - t });
    }
    return 'done';
  };
  const session = new FakeCodeSession({ script });
  const started = performance.now();
  const done = runTui({
    session,
    stdin: term.stdin,
    stdout: term.stdout,
    frameMs: 16,
    patchConsole: false,
    onRender: () => (frames++, onFrame?.()),
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const t0 = performance.now();
  await session.send('write a long answer');
  const total = performance.now() - t0;
  await session.command('/exit');
  await done;
  void started;
  const sum = (xs, k) => xs.reduce((a, x) => a + x[k], 0);
  const first = perKb.slice(0, 20);
  const last = perKb.slice(-20);
  const second = perKb.slice(20, 40);
  return {
    kb: perKb.length,
    totalMs: total,
    cpuMs: sum(perKb, 'cpuMs'),
    firstCpuPerKb: sum(first, 'cpuMs') / first.length,
    lastCpuPerKb: sum(last, 'cpuMs') / last.length,
    secondCpuPerKb: sum(second, 'cpuMs') / second.length,
    frames,
    bytesWritten: term.bytes(),
  };
}

/** Child mode: runTui on a fake session; prints FIRST_FRAME once the prompt is on screen, then exits. */
async function childFirstFrame() {
  const [{ FakeCodeSession }, { runTui }] = await Promise.all([import(process.env.CORVID_FAKE_SESSION), import(runTuiPath)]);
  const term = fakeTerminal();
  term.stdout.on('written', (chunk) => {
    if (String(chunk).includes('Ask, /command')) {
      process.stdout.write(`FIRST_FRAME ${performance.now()}\n`);
      process.exit(0);
    }
  });
  await runTui({ session: new FakeCodeSession({}), stdin: term.stdin, stdout: term.stdout, patchConsole: false });
}

function spawnUntil(argv, env, marker) {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (marker && out.includes(marker)) resolve(performance.now() - t);
    });
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(`child exited ${code}`))));
  });
}

async function firstFrame(runs = 7) {
  const outdir = mkdtempSync(join(os.tmpdir(), 'corvid-code-first-'));
  await build({
    entryPoints: [join(ROOT, 'test', 'code', 'tui', 'fake-session.ts')],
    outdir,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  const env = { CORVID_FAKE_SESSION: pathToFileURL(join(outdir, 'fake-session.js')).href };
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const tui = [];
  const bare = [];
  for (let i = 0; i < runs; i++) {
    bare.push(await spawnUntil(['-e', '0'], {}, undefined));
    tui.push(await spawnUntil([fileURLToPath(import.meta.url), '--child-first-frame'], env, 'FIRST_FRAME'));
  }
  return { tuiMs: median(tui), nodeMs: median(bare) };
}

async function demo() {
  const { FakeCodeSession, demoScript } = await loadFakes();
  const { runTui } = await import(runTuiPath);
  const session = new FakeCodeSession({
    script: demoScript({ delayMs: 500 }),
    paths: ['src/', 'src/sum.ts', 'test/', 'test/sum.test.ts', 'package.json'],
  });
  await runTui({ session, stdin: process.stdin, stdout: process.stdout });
  process.exit(0);
}

if (args.includes('--child-first-frame')) await childFirstFrame();
else if (args.includes('--demo')) await demo();
else {
  const fakes = await loadFakes();
  const s = await streaming(fakes);
  const f = args.includes('--stream-only')
    ? { tuiMs: 0, nodeMs: 0 }
    : await firstFrame(Number(/--runs=(\d+)/.exec(args.join(' '))?.[1] ?? 7));
  const fmt = (n) => n.toFixed(2);
  console.log('| measure | value |\n|---|---|');
  console.log(`| UI module | ${runTuiPath.split('/').pop()} |`);
  console.log(`| streamed answer | ${s.kb} KB in 64-byte deltas, ${s.frames} frames, ${(s.bytesWritten / 1024).toFixed(0)} KB written |`);
  console.log(`| total (wall / CPU) | ${s.totalMs.toFixed(0)} ms / ${s.cpuMs.toFixed(0)} ms |`);
  console.log(`| CPU per KB, first 20 KB | ${fmt(s.firstCpuPerKb)} ms |`);
  console.log(`| CPU per KB, KB 21–40 (after warm-up) | ${fmt(s.secondCpuPerKb)} ms |`);
  console.log(`| CPU per KB, last 20 KB | ${fmt(s.lastCpuPerKb)} ms |`);
  console.log(`| spawn to first frame (median) | ${f.tuiMs.toFixed(0)} ms (node -e 0: ${f.nodeMs.toFixed(0)} ms) |`);
  const ok = s.lastCpuPerKb <= 2 * s.firstCpuPerKb && f.tuiMs < 600;
  if (!ok) console.log('\nA target was missed (last 20 KB ≤ 2× first 20 KB per KB; first frame < 600 ms).');
  process.exit(ok ? 0 : 1);
}
