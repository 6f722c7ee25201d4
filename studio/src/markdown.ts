/**
 * Markdown of answers and messages, as HTML: `marked` with highlight.js (core and a few languages) for code
 * blocks. Raw HTML in the text is shown as text, links only go to http(s), mailto and in-page targets, and
 * images become links (the Studio loads nothing from other origins).
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import diff from 'highlight.js/lib/languages/diff';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdownLang from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import typescript from 'highlight.js/lib/languages/typescript';
import yaml from 'highlight.js/lib/languages/yaml';
import { Marked } from 'marked';

const LANGUAGES = { bash, diff, javascript, json, markdown: markdownLang, python, typescript, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['js', 'jsx', 'mjs'], { languageName: 'javascript' });
hljs.registerAliases(['sh', 'shell', 'zsh'], { languageName: 'bash' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });
hljs.registerAliases(['md'], { languageName: 'markdown' });
hljs.registerAliases(['patch'], { languageName: 'diff' });

/** `&`, `<`, `>`, `"` and `'` as entities. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const SAFE_HREF = /^(https?:|mailto:|#|\/(?!\/))/i;

/** Source as highlighted HTML (escaped plain text for unknown languages). */
export function highlight(code: string, language?: string): string {
  if (language && hljs.getLanguage(language)) return hljs.highlight(code, { language }).value;
  return escapeHtml(code);
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    html({ text }) {
      return escapeHtml(text);
    },
    code({ text, lang }) {
      const language = (lang ?? '').trim().split(/\s+/)[0];
      const known = language && hljs.getLanguage(language) ? language : '';
      return `<pre class="code"><code class="hljs${known ? ` language-${escapeHtml(known)}` : ''}">${highlight(text, known)}</code></pre>`;
    },
    link({ href, title, tokens }) {
      const label = this.parser.parseInline(tokens);
      if (!SAFE_HREF.test(href)) return label;
      const t = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(href)}"${t} rel="noopener noreferrer" target="_blank">${label}</a>`;
    },
    image({ href, text }) {
      if (!SAFE_HREF.test(href)) return escapeHtml(text);
      return `<a href="${escapeHtml(href)}" rel="noopener noreferrer" target="_blank">${escapeHtml(text || href)}</a>`;
    },
  },
});

/** Markdown as safe HTML. */
export function renderMarkdown(text: string): string {
  return marked.parse(text, { async: false });
}
