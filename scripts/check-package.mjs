#!/usr/bin/env node
// Checks the package as npm users get it: packs it (`npm pack`, which builds), installs the
// tarball into a fresh project with only its dependencies (no optional peers), and there
//   - checks what the tarball holds (dist, README.md, LICENSE, docs; no sources or tests),
//   - type-checks a file importing every entry point, and the README's TypeScript quick start,
//     with `skipLibCheck: false`,
//   - imports the entry points that need no optional peer,
//   - loads `corvid code`'s bundled terminal UI (Ink and React inside, nothing else installed).
// Needs the npm registry (or a warm npm cache) for the dependencies, TypeScript and @types/node.
// Run by .ci/run; by hand: node scripts/check-package.mjs [--keep]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const tsVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'typescript', 'package.json'), 'utf8')).version;
const keep = process.argv.includes('--keep');
const work = mkdtempSync(join(tmpdir(), 'corvid-package-'));
const failures = [];
const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const step = (text) => console.log(`== ${text}`);

try {
  step('npm pack');
  const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', work], root));
  const files = packed.files.map((f) => f.path);
  for (const must of [
    'package.json',
    'README.md',
    'LICENSE',
    'dist/index.js',
    'dist/index.d.ts',
    'dist/cli/main.js',
    'dist/studio/index.html',
    'dist/code/tui/run-tui.bundle.js',
    'dist/code/tui/run-tui.bundle.licenses.txt',
    'docs/configuration.md',
  ]) {
    if (!files.includes(must)) failures.push(`the package lacks ${must}`);
  }
  // The Studio's bundle (content-hashed names), which `corvid serve` serves at /studio.
  for (const ext of ['js', 'css'])
    if (!files.some((f) => new RegExp(`^dist/studio/assets/studio-[A-Za-z0-9]+\\.${ext}$`).test(f)))
      failures.push(`the package lacks the Studio's ${ext} (dist/studio/assets/studio-<hash>.${ext}): run npm run build`);
  for (const f of files) if (/^(src|test|examples|bench|scripts)\//.test(f)) failures.push(`the package ships ${f}`);
  console.log(`   ${packed.filename}: ${files.length} files, ${Math.round(packed.size / 1024)} kB`);

  step('install into a project without the optional peers');
  const project = join(work, 'consumer');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
  // --ignore-scripts: no native build of better-sqlite3 (nothing here opens a database).
  npm(
    [
      'install',
      join(work, packed.filename),
      `typescript@${tsVersion}`,
      '@types/node@20',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
    ],
    project,
  );
  const optional = Object.keys(pkg.peerDependenciesMeta ?? {}).filter((p) => pkg.peerDependenciesMeta[p].optional);
  const present = optional.filter((p) => existsSync(join(project, 'node_modules', p)));
  if (present.length > 0) failures.push(`optional peers were installed, so the check proves nothing: ${present.join(', ')}`);

  step(`tsc --noEmit --skipLibCheck false (TypeScript ${tsVersion})`);
  const entries = Object.keys(pkg.exports)
    .filter((e) => e !== './package.json')
    .map((e) => (e === '.' ? pkg.name : `${pkg.name}/${e.slice(2)}`));
  const names = entries.map((e, i) => [e, `m${i}`]);
  writeFileSync(
    join(project, 'check.ts'),
    [
      ...names.map(([e, n]) => `import * as ${n} from '${e}';`),
      `import { Agent, tool } from '${pkg.name}';`,
      `import { z } from 'zod';`,
      `const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b });`,
      `export const agent: Agent = new Agent({ name: 'calc', model: 'openai:gpt-4.1-mini', tools: [add] });`,
      `export const modules = [${names.map(([, n]) => n).join(', ')}];`,
      '',
    ].join('\n'),
  );
  // The README's TypeScript quick start, as a user pastes it (with @types/node, as the README says).
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const quickStart = /## Quick start: code\n+```ts\n([\s\S]*?)```/.exec(readme);
  if (!quickStart) failures.push('README.md has no ```ts block under "## Quick start: code"');
  writeFileSync(join(project, 'readme-quick-start.ts'), `${quickStart?.[1] ?? ''}export {};\n`);
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: ['node'],
        },
        files: ['check.ts', 'readme-quick-start.ts'],
      },
      null,
      2,
    ),
  );
  try {
    execFileSync(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], {
      cwd: project,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    console.log(`   ${entries.length} entry points type-check: ${entries.join(', ')}`);
  } catch (err) {
    failures.push(`type errors in the published declarations:\n${err.stdout}${err.stderr}`);
  }

  step('import the entry points that need no optional peer');
  // corvid/server and corvid/a2a need hono / @a2a-js/sdk at import; `corvid serve` says which to install.
  for (const entry of entries.filter((e) => !/\/(server|a2a)$/.test(e))) {
    try {
      execFileSync(process.execPath, ['--input-type=module', '-e', `await import('${entry}')`], {
        cwd: project,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (err) {
      failures.push(`import('${entry}') failed:\n${err.stderr}`);
    }
  }

  step("load corvid code's terminal UI bundle");
  const bundle = join(project, 'node_modules', pkg.name, 'dist', 'code', 'tui', 'run-tui.bundle.js');
  try {
    execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `await (await import(${JSON.stringify(pathToFileURL(bundle).href)})).preloadTui()`],
      {
        cwd: project,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    console.log('   the bundle loads Ink, React and the UI with no other package installed');
  } catch (err) {
    failures.push(`the terminal UI bundle failed to load:\n${err.stderr}`);
  }
} catch (err) {
  failures.push(`${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
} finally {
  if (keep) console.log(`   kept: ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(`check-package: ${failures.length} problem(s)\n${failures.map((f) => `- ${f}`).join('\n')}`);
  process.exit(1);
}
console.log('check-package: ok');
