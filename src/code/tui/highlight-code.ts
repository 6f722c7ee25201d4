/**
 * Syntax highlighting of code blocks: highlight.js (its `common` language set) to ANSI colours. highlight.js loads in
 * the background after the first frame (`loadHighlighter`); until then, and for unknown languages, code is
 * rendered plain.
 */
import { type AnsiStyle, style } from './ansi.js';

interface Hljs {
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string };
  getLanguage(name: string): unknown;
}

let hljs: Hljs | undefined;
let loading: Promise<void> | undefined;

/** Loads highlight.js once; later code blocks are coloured. Never rejects (without it, code stays plain). */
export function loadHighlighter(): Promise<void> {
  loading ??= import('highlight.js/lib/common').then(
    (mod) => {
      hljs = (mod.default ?? mod) as unknown as Hljs;
    },
    () => undefined,
  );
  return loading;
}

/** The colour of each highlight.js scope the UI shows (others stay plain). */
const SCOPE_STYLES: Record<string, AnsiStyle> = {
  keyword: 'magenta',
  built_in: 'cyan',
  type: 'cyan',
  literal: 'blue',
  number: 'yellow',
  string: 'green',
  regexp: 'red',
  comment: 'gray',
  doctag: 'gray',
  meta: 'gray',
  title: 'blue',
  'title.function': 'blue',
  'title.class': 'cyan',
  attr: 'yellow',
  attribute: 'yellow',
  variable: 'red',
  'variable.language': 'magenta',
  params: 'yellow',
  property: 'blue',
  subst: 'red',
  symbol: 'yellow',
  selector: 'magenta',
  'selector-tag': 'magenta',
  tag: 'red',
  name: 'red',
  section: 'bold',
  addition: 'green',
  deletion: 'red',
};

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };
const decode = (s: string): string => s.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (e) => ENTITIES[e] ?? e);

/** `code` in ANSI colours for `language` (plain when highlight.js is not loaded or does not know it). */
export function highlightCode(code: string, language: string | undefined): string {
  const lang = language?.trim().split(/\s+/)[0]?.toLowerCase();
  if (!hljs || !lang || !hljs.getLanguage(lang)) return code;
  let html: string;
  try {
    html = hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
  } catch {
    return code;
  }
  return htmlToAnsi(html);
}

/** Converts highlight.js's `<span class="hljs-…">` output to ANSI (nested spans: the innermost styled scope wins). */
export function htmlToAnsi(html: string): string {
  const stack: (AnsiStyle | undefined)[] = [];
  let out = '';
  const re = /<span class="([^"]*)">|<\/span>|([^<]+)/g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    if (m[1] !== undefined) {
      const scope = m[1]
        .split(' ')
        .map((c) => c.replace(/^hljs-/, '').replace(/_+$/, ''))
        .join('.');
      stack.push(SCOPE_STYLES[scope] ?? SCOPE_STYLES[scope.split('.')[0]] ?? stack[stack.length - 1]);
    } else if (m[2] !== undefined) {
      const text = decode(m[2]);
      const current = stack[stack.length - 1];
      out += current
        ? text
            .split('\n')
            .map((line) => style(current, line))
            .join('\n')
        : text;
    } else stack.pop();
  }
  return out;
}
