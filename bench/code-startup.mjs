#!/usr/bin/env node
// `corvid code` spawn to prompt in a real terminal: tmux starts `node dist/cli/main.js code` in a temporary git
// project (a corvid.yaml model that is never called at startup) and the bench polls `tmux capture-pane` every
// 10 ms until the input box's placeholder is on the screen. Beside it, the same measure for `node -e` printing one
// word (what tmux, the shell and the polling cost) and `node -e 0` spawned directly. From the repo root, after
// `npm run build` (the UI is the bundle it makes); needs tmux:
//
//   node bench/code-startup.mjs [--runs=7] [--root=<checkout>] [--base=<checkout>]
//
// --root measures another build; --base also measures a second build (e.g. a copy of an earlier commit's dist/)
// in alternation with the first. Runs alternate between the commands (the machine's speed drifts) and the medians
// are printed, with the CPU time of corvid's main thread when the prompt appeared (from /proc: steadier than the
// wall time when other work loads the machine).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const ROOT = resolve(opt('root', fileURLToPath(new URL('..', import.meta.url))));
const RUNS = Number(opt('runs', '7'));
const BASE = opt('base', undefined) && resolve(opt('base'));
const PROMPT = 'Ask, /command, !shell, @file';

const tmp = mkdtempSync(join(os.tmpdir(), 'corvid-code-startup-'));
const project = join(tmp, 'project');
const home = join(tmp, 'home');
mkdirSync(join(project, 'src'), { recursive: true });
mkdirSync(home);
writeFileSync(join(project, 'src', 'math.js'), 'export const add = (a, b) => a + b;\n');
writeFileSync(
  join(project, 'corvid.yaml'),
  'models:\n  fake:\n    provider: openai-compatible\n    base_url: http://127.0.0.1:9/v1\n    model: test\ndefaults:\n  model: fake\n',
);
execFileSync('git', ['init', '-q'], { cwd: project });

const socket = join(tmp, 'tmux.sock');
const conf = join(tmp, 'tmux.conf');
writeFileSync(conf, 'set -g status off\nset -g remain-on-exit on\nset -g escape-time 0\n');
const tmux = (...a) => execFileSync('tmux', ['-S', socket, ...a], { encoding: 'utf8' });
const q = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
const env = { PATH: process.env.PATH, HOME: home, CORVID_HOME: join(home, '.corvid'), LANG: 'C.UTF-8', TERM: 'xterm-256color' };
const line = (argv) =>
  `cd ${q(project)} && exec env -i ${Object.entries(env)
    .map(([k, v]) => q(`${k}=${v}`))
    .join(' ')} ${argv.map(q).join(' ')}`;

/** CPU time (user + system, ms) of the main thread of process `pid` so far (Linux; NaN elsewhere). */
function mainThreadCpu(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms
  } catch {
    return NaN;
  }
}

/** ms from asking tmux to run `argv` to `marker` on the screen; the program's main-thread CPU then in `cpu`. */
async function toScreen(argv, marker, first, cpu) {
  const t0 = performance.now();
  if (first) tmux('-f', conf, 'new-session', '-d', '-s', 'b', '-x', '80', '-y', '24', line(argv));
  else tmux('respawn-pane', '-k', '-t', 'b', line(argv));
  const pid = Number(tmux('display-message', '-p', '-t', 'b', '#{pane_pid}').trim());
  for (;;) {
    if (tmux('capture-pane', '-p', '-t', 'b').includes(marker)) {
      const ms = performance.now() - t0;
      cpu?.push(mainThreadCpu(pid));
      return ms;
    }
    if (performance.now() - t0 > 60_000) throw new Error(`${argv.join(' ')}: "${marker}" not on screen after 60 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function nodeE0() {
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  return performance.now() - t0;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cli = join(ROOT, 'dist', 'cli', 'main.js');
const baseCli = BASE && join(BASE, 'dist', 'cli', 'main.js');
const rows = { code: [], base: [], marker: [], e0: [], codeCpu: [], baseCpu: [] };
try {
  await toScreen([process.execPath, '-e', 'process.stdout.write("READY\\n"); setInterval(() => {}, 1000)'], 'READY', true); // warm-up
  await toScreen([process.execPath, cli, 'code'], PROMPT, false); // warm-up (disk cache, the session database)
  for (let i = 0; i < RUNS; i++) {
    rows.marker.push(
      await toScreen([process.execPath, '-e', 'process.stdout.write("READY\\n"); setInterval(() => {}, 1000)'], 'READY', false),
    );
    rows.code.push(await toScreen([process.execPath, cli, 'code'], PROMPT, false, rows.codeCpu));
    if (baseCli) rows.base.push(await toScreen([process.execPath, baseCli, 'code'], PROMPT, false, rows.baseCpu));
    rows.e0.push(nodeE0());
  }
} finally {
  try {
    tmux('kill-server');
  } catch {
    // gone
  }
  rmSync(tmp, { recursive: true, force: true });
}
const fmt = (xs) => `median ${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
console.log(
  `root ${ROOT}, ${RUNS} runs, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(`corvid code, spawn to prompt in tmux     ${fmt(rows.code)}`);
console.log(`  main-thread CPU at the prompt          ${fmt(rows.codeCpu)}`);
if (BASE) console.log(`base ${BASE}, spawn to prompt       ${fmt(rows.base)}`);
if (BASE) console.log(`  main-thread CPU at the prompt          ${fmt(rows.baseCpu)}`);
console.log(`node -e printing a word, to screen       ${fmt(rows.marker)}`);
console.log(`node -e 0, spawn to exit                 ${fmt(rows.e0)}`);
