#!/usr/bin/env node
// Bundles `corvid code`'s full-screen UI (src/code/tui/run-tui.ts with Ink, React, marked, highlight.js and
// their dependencies) into one minified ES module, dist/code/tui/run-tui.bundle.js, with the licences of the
// bundled packages beside it (run-tui.bundle.licenses.txt). The UI then needs no installed package, and Node
// reads one file instead of ~600 modules, so the prompt appears sooner. Fails when the bundle cannot be built,
// when a bundled package's licence is not a permissive one, or when a patched pattern is gone.
// Usage: node scripts/build-code-tui.mjs [--out <dir>]
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outFlag = process.argv.indexOf('--out');
const outDir = outFlag > 0 ? resolve(process.argv[outFlag + 1]) : join(root, 'dist', 'code', 'tui');
const outFile = join(outDir, 'run-tui.bundle.js');
const noticesFile = join(outDir, 'run-tui.bundle.licenses.txt');

/** Licences a bundled package may have (the bundle ships inside Corvid's MIT package). */
const PERMISSIVE = new Set(['MIT', 'ISC', 'BSD-2-Clause', 'BSD-3-Clause', 'Apache-2.0', '0BSD']);

/**
 * Ink imports its React DevTools bridge only when DEV=true; leave that import to run time (it fails with Ink's
 * own hint unless react-devtools-core is installed) instead of bundling the bridge.
 */
const inkDevtools = {
  name: 'ink-devtools',
  setup(b) {
    b.onResolve({ filter: /^\.\/devtools\.js$/ }, (args) =>
      /[\\/]ink[\\/]/.test(args.importer) ? { path: 'react-devtools-core', external: true } : undefined,
    );
  },
};

/**
 * yoga-layout (Ink's layout engine) is an Emscripten build for browsers: it reads its inline wasm with
 * `fetch(dataUrl)`, and Node's first `fetch` loads undici (~100 ms of start-up). The same build decodes the
 * inline base64 itself when `fetch` is absent; make it always take that path.
 */
const YOGA_FETCH = 'function ya(){return w||"function"!=typeof fetch?';
const yogaWithoutFetch = {
  name: 'yoga-without-fetch',
  setup(b) {
    b.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (source.split(YOGA_FETCH).length !== 2)
        throw new Error(`${args.path} changed: "${YOGA_FETCH}" is not in it once; update scripts/build-code-tui.mjs`);
      return { contents: source.replace(YOGA_FETCH, 'function ya(){return w||!0?'), loader: 'js' };
    });
  },
};

mkdirSync(outDir, { recursive: true });
const result = await build({
  entryPoints: [join(root, 'src', 'code', 'tui', 'run-tui.ts')],
  outfile: outFile,
  bundle: true,
  minify: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  metafile: true,
  legalComments: 'none', // the licences are in run-tui.bundle.licenses.txt
  logLevel: 'warning',
  // React's production build (the development one is several times slower to load and to render).
  define: { 'process.env.NODE_ENV': '"production"' },
  // Bundled CommonJS packages (React, signal-exit…) `require` Node's built-in modules.
  banner: { js: "import { createRequire as __corvidRequire } from 'node:module'; const require = __corvidRequire(import.meta.url);" },
  plugins: [inkDevtools, yogaWithoutFetch],
});

/** The package directory holding `file` (the nearest package.json with a name), or undefined for Corvid's own files. */
function packageDir(file) {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const name = parts[at + 1].startsWith('@') ? parts.slice(at + 1, at + 3) : [parts[at + 1]];
  return join('/', ...parts.slice(0, at + 1), ...name);
}

const output = result.metafile.outputs[relative(process.cwd(), outFile)] ?? Object.values(result.metafile.outputs)[0];
const dirs = new Set();
for (const [input, info] of Object.entries(output.inputs)) {
  if (info.bytesInOutput === 0) continue;
  const dir = packageDir(resolve(process.cwd(), input));
  if (dir) dirs.add(dir);
}
const notices = [];
const problems = [];
for (const dir of [...dirs].sort()) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const license = typeof pkg.license === 'string' ? pkg.license : pkg.license?.type;
  if (!PERMISSIVE.has(license)) problems.push(`${pkg.name}@${pkg.version} has the licence "${license}"`);
  const files = readdirSync(dir).filter((f) => /^(licen[cs]e|copying|notice)/i.test(f));
  const text =
    files.length > 0
      ? files.map((f) => readFileSync(join(dir, f), 'utf8').trim()).join('\n\n')
      : `${license} (the package has no licence file)`;
  notices.push(`${pkg.name}@${pkg.version} (${license})\n\n${text}\n`);
}
if (problems.length > 0) {
  console.error(`build-code-tui: a bundled package is not permissively licensed:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  process.exit(1);
}
writeFileSync(
  noticesFile,
  `corvid code's terminal UI (run-tui.bundle.js) includes these packages, under these licences.\n\n${notices.join(`\n${'-'.repeat(72)}\n\n`)}`,
);
if (!existsSync(outFile)) throw new Error(`build-code-tui: esbuild wrote no ${outFile}`);
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
console.error(
  `code tui: ${relative(root, outFile)} ${kb(readFileSync(outFile).length)}, ${dirs.size} packages → ${relative(root, noticesFile)}`,
);
