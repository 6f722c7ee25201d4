/**
 * Links in README.md and docs/*.md work for someone who installed the package from npm: relative
 * links point only at files the package ships (package.json "files"), anchors exist, and links to
 * the rest of the repository are absolute GitHub links to files that exist here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, normalize, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ROOT } from '../cli/cli-harness.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  files: string[];
  repository?: { url?: string };
  homepage?: string;
  bugs?: { url?: string };
};
const REPO = 'https://github.com/corvid-ai/corvid';
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Files npm puts in the package: package.json "files", plus what npm always adds. */
function shipped(path: string): boolean {
  return ['package.json', 'README.md', 'LICENSE'].includes(path) || pkg.files.some((f) => path === f || path.startsWith(`${f}/`));
}

/** Markdown link targets outside code blocks and code spans. */
function links(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

/** GitHub's heading anchors of a Markdown file. */
function anchors(file: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = m[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .trim()
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

describe('documentation links', () => {
  it('package.json names the repository, homepage and issue tracker', () => {
    expect(pkg.repository?.url).toBe(`git+${REPO}.git`);
    expect(pkg.homepage).toBe(`${REPO}#readme`);
    expect(pkg.bugs?.url).toBe(`${REPO}/issues`);
  });

  it.each(DOCS)('%s: relative links point at shipped files and existing anchors', (doc) => {
    const problems: string[] = [];
    for (const target of links(readFileSync(join(ROOT, doc), 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path, anchor] = target.split('#');
      const file = path === '' ? doc : normalize(join(doc, '..', path));
      if (!shipped(file)) problems.push(`${target}: ${file} is not in the npm package; link to ${REPO}/blob/main/${file}`);
      else if (!existsSync(join(ROOT, file))) problems.push(`${target}: ${file} does not exist`);
      else if (anchor && file.endsWith('.md') && !anchors(join(ROOT, file)).has(anchor))
        problems.push(`${target}: no heading #${anchor} in ${file}`);
    }
    expect(problems).toEqual([]);
  });

  it.each(DOCS)('%s: links into the repository point at files that exist', (doc) => {
    const problems: string[] = [];
    for (const target of links(readFileSync(join(ROOT, doc), 'utf8'))) {
      if (!target.startsWith(`${REPO}/`)) continue;
      const m = new RegExp(`^${REPO}/(blob|tree)/main/([^#]+)(?:#(.*))?$`).exec(target);
      if (!m) {
        if (!/^https:\/\/github\.com\/corvid-ai\/corvid\/(issues|pulls|releases)\b/.test(target) && target !== `${REPO}#readme`)
          problems.push(`${target}: not a blob/tree link on main`);
        continue;
      }
      const [, kind, path, anchor] = m;
      const full = join(ROOT, decodeURIComponent(path));
      if (!existsSync(full)) problems.push(`${target}: ${path} does not exist`);
      else if ((kind === 'tree') !== statSync(full).isDirectory())
        problems.push(`${target}: use /${statSync(full).isDirectory() ? 'tree' : 'blob'}/ for ${path}`);
      else if (anchor && path.endsWith('.md') && !anchors(full).has(anchor)) problems.push(`${target}: no heading #${anchor} in ${path}`);
      if (shipped(relative(ROOT, full))) problems.push(`${target}: ${path} is in the package; link to it relatively`);
    }
    expect(problems).toEqual([]);
  });
});
