/**
 * Markdown to ANSI for the transcript: marked's lexer gives the tokens; headings, emphasis, lists, quotes, tables,
 * inline code and fenced code (highlighted by highlight.js) become terminal styles. Links keep their address.
 */
import { lexer, type Token, type Tokens } from 'marked';

import { style } from './ansi.js';
import { highlightCode } from './highlight-code.js';

/** Options of `markdownToAnsi`. */
export interface MarkdownAnsiOptions {
  /** Terminal width: rules and code block frames use it. Default 80. */
  width?: number;
}

/** `markdown` rendered for the terminal (no trailing newline). */
export function markdownToAnsi(markdown: string, options: MarkdownAnsiOptions = {}): string {
  const width = Math.max(20, options.width ?? 80);
  return blocks(lexer(markdown), width).join('\n\n');
}

function blocks(tokens: readonly Token[], width: number): string[] {
  const out: string[] = [];
  for (const token of tokens) {
    const text = block(token, width);
    if (text !== undefined) out.push(text);
  }
  return out;
}

function block(token: Token, width: number): string | undefined {
  const t = token as Tokens.Generic;
  switch (token.type) {
    case 'space':
    case 'def':
      return undefined;
    case 'heading': {
      const h = token as Tokens.Heading;
      const text = inline(h.tokens);
      return h.depth <= 2 ? style('bold', style('underline', text)) : style('bold', text);
    }
    case 'paragraph':
      return inline((token as Tokens.Paragraph).tokens);
    case 'code':
      return codeBlock(token as Tokens.Code);
    case 'list':
      return list(token as Tokens.List, width);
    case 'blockquote':
      return blocks((token as Tokens.Blockquote).tokens, width - 2)
        .join('\n\n')
        .split('\n')
        .map((line) => style('gray', '│ ') + style('italic', line))
        .join('\n');
    case 'hr':
      return style('gray', '─'.repeat(Math.min(width, 80)));
    case 'table':
      return table(token as Tokens.Table);
    case 'html':
      return style('gray', t.raw.trimEnd());
    case 'text':
      return t.tokens ? inline(t.tokens) : t.text;
    default:
      return t.raw?.trimEnd();
  }
}

function codeBlock(token: Tokens.Code): string {
  const label = token.lang ? style('gray', ` ${token.lang}`) : '';
  const body = highlightCode(token.text, token.lang);
  const bar = style('gray', '▏');
  return `${label ? label + '\n' : ''}${body
    .split('\n')
    .map((line) => `${bar} ${line}`)
    .join('\n')}`;
}

function list(token: Tokens.List, width: number): string {
  const start = typeof token.start === 'number' ? token.start : 1;
  return token.items
    .map((item, i) => {
      const bullet = token.ordered ? `${start + i}.` : '•';
      const box = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
      const body = blocks(item.tokens, width - 4).join(item.loose ? '\n\n' : '\n');
      const pad = ' '.repeat(bullet.length + 1);
      return body
        .split('\n')
        .map((line, n) => (n === 0 ? `${style('cyan', bullet)} ${box}${line}` : `${pad}${line}`))
        .join('\n');
    })
    .join('\n');
}

function table(token: Tokens.Table): string {
  const rows = [token.header.map((c) => style('bold', inline(c.tokens))), ...token.rows.map((r) => r.map((c) => inline(c.tokens)))];
  const widths = token.header.map((_, col) => Math.max(...rows.map((r) => visibleLength(r[col] ?? ''))));
  const line = (cells: string[]) => cells.map((c, col) => c + ' '.repeat(Math.max(0, widths[col] - visibleLength(c)))).join('  ');
  const sep = style('gray', widths.map((w) => '─'.repeat(w)).join('  '));
  return [line(rows[0]), sep, ...rows.slice(1).map(line)].join('\n');
}

// eslint-disable-next-line no-control-regex
const visibleLength = (s: string): number => s.replace(/\u001b\[[0-9;]*m/g, '').length;

function inline(tokens: readonly Token[] | undefined): string {
  if (!tokens) return '';
  let out = '';
  for (const token of tokens) {
    const t = token as Tokens.Generic;
    switch (token.type) {
      case 'strong':
        out += style('bold', inline(t.tokens));
        break;
      case 'em':
        out += style('italic', inline(t.tokens));
        break;
      case 'del':
        out += style('strike', inline(t.tokens));
        break;
      case 'codespan':
        out += style('cyan', unescape(t.text));
        break;
      case 'link': {
        const text = inline(t.tokens);
        out += style('blue', style('underline', text)) + (t.href && t.href !== text ? style('gray', ` (${t.href})`) : '');
        break;
      }
      case 'image':
        out += style('gray', `[image: ${t.text}]`);
        break;
      case 'br':
        out += '\n';
        break;
      case 'escape':
      case 'text':
        out += t.tokens ? inline(t.tokens) : unescape(t.text);
        break;
      default:
        out += t.raw;
    }
  }
  return out;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (s: string): string => s.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
