#!/usr/bin/env node
// Builds Corvid Studio (studio/) into dist/studio/: one bundled, minified, content-hashed JS file and one CSS
// file, and index.html pointing at them. Prints the gzip size of the JS and fails above the budget.
// Usage: node scripts/build-studio.mjs [--out <dir>]
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

import { build } from 'esbuild';

/** The most JavaScript the Studio may ship, gzip-compressed. */
export const JS_BUDGET_BYTES = 250 * 1024;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outFlag = process.argv.indexOf('--out');
const outDir = outFlag > 0 ? resolve(process.argv[outFlag + 1]) : join(root, 'dist', 'studio');
const assetsDir = join(outDir, 'assets');

rmSync(outDir, { recursive: true, force: true });
mkdirSync(assetsDir, { recursive: true });

const result = await build({
  entryPoints: [join(root, 'studio', 'src', 'main.tsx')],
  outdir: assetsDir,
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
  entryNames: 'studio-[hash]',
  assetNames: '[name]-[hash]',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: join(root, 'studio', 'tsconfig.json'),
  metafile: true,
  legalComments: 'linked',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
});

const outputs = Object.keys(result.metafile.outputs).map((file) => resolve(root, file));
const js = outputs.filter((file) => file.endsWith('.js'));
const css = outputs.filter((file) => file.endsWith('.css'));
if (js.length !== 1 || css.length !== 1)
  throw new Error(`expected one JS and one CSS file, got ${outputs.map((f) => basename(f)).join(', ')}`);

const html = readFileSync(join(root, 'studio', 'index.html'), 'utf8')
  .replace('__JS__', `./assets/${basename(js[0])}`)
  .replace('__CSS__', `./assets/${basename(css[0])}`);
writeFileSync(join(outDir, 'index.html'), html);
copyFileSync(join(root, 'studio', 'favicon.svg'), join(outDir, 'favicon.svg'));

// Compressed copies beside each text file; the server sends the one the browser accepts.
for (const file of [join(outDir, 'index.html'), join(outDir, 'favicon.svg'), ...readdirSync(assetsDir).map((f) => join(assetsDir, f))]) {
  if (!/\.(html|js|css|svg|map|txt|json)$/.test(file)) continue;
  const bytes = readFileSync(file);
  writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
}

const size = (file) => {
  const bytes = readFileSync(file);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const jsSize = size(js[0]);
const cssSize = size(css[0]);
console.error(
  `studio: ${basename(js[0])} ${kb(jsSize.raw)} (${kb(jsSize.gzip)} gzip), ${basename(css[0])} ${kb(cssSize.raw)} (${kb(cssSize.gzip)} gzip) → ${outDir}`,
);
if (jsSize.gzip > JS_BUDGET_BYTES) {
  console.error(`studio: the JavaScript is ${kb(jsSize.gzip)} gzip, over the budget of ${kb(JS_BUDGET_BYTES)}`);
  process.exit(1);
}
