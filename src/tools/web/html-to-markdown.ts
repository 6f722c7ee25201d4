import { loadPeer } from '../../errors/load-peer.js';

/** A page turned into markdown. */
export interface ReadablePage {
  title?: string;
  markdown: string;
}

type Html = {
  parseHTML: typeof import('linkedom').parseHTML;
  Readability: typeof import('@mozilla/readability').Readability;
  Turndown: typeof import('turndown');
};

let loaded: Promise<Html> | undefined;

function loadHtml(): Promise<Html> {
  loaded ??= (async () => {
    const what = 'web_fetch (HTML pages)';
    const [linkedom, readability, turndown] = await Promise.all([
      loadPeer({ packages: 'linkedom', feature: what, load: () => import('linkedom') }),
      loadPeer({ packages: '@mozilla/readability', feature: what, load: () => import('@mozilla/readability') }),
      loadPeer({ packages: 'turndown', feature: what, load: () => import('turndown') }),
    ]);
    return {
      parseHTML: linkedom.parseHTML,
      Readability: readability.Readability,
      Turndown: (turndown as { default: Html['Turndown'] }).default ?? turndown,
    };
  })().catch((err: unknown) => {
    loaded = undefined;
    throw err;
  });
  return loaded;
}

/**
 * The readable part of an HTML page as markdown: links and images made absolute against the
 * page URL, Mozilla Readability picks the article (the whole body when it finds none), and
 * Turndown writes markdown (ATX headings, fenced code).
 */
export async function htmlToMarkdown(html: string, pageUrl: string): Promise<ReadablePage> {
  const { parseHTML, Readability, Turndown } = await loadHtml();
  const { document } = parseHTML(html);
  absolutize(document, pageUrl);
  const pageTitle = document.querySelector('title')?.textContent?.trim() || undefined;
  const fallbackHtml = document.body?.innerHTML ?? html;
  let article: { title?: string | null; content?: string | null } | null;
  try {
    article = new Readability(document as unknown as Document, { charThreshold: 100 }).parse();
  } catch {
    article = null; // a page Readability cannot handle: the whole body is converted
  }
  const turndown = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(['script', 'style', 'noscript', 'template', 'iframe'] as never);
  const markdown = turndown.turndown(article?.content || fallbackHtml).trim();
  return { title: article?.title?.trim() || pageTitle, markdown };
}

function absolutize(
  document: {
    querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string | null; setAttribute(n: string, v: string): void }>;
  },
  base: string,
): void {
  for (const [selector, attr] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const el of Array.from(document.querySelectorAll(selector))) {
      const value = el.getAttribute(attr);
      if (!value || value.startsWith('#')) continue;
      try {
        el.setAttribute(attr, new URL(value, base).href);
      } catch {
        // Leave what cannot be resolved as it is.
      }
    }
  }
}
