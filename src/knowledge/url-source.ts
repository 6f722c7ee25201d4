import { KnowledgeError } from '../errors/knowledge-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { decodeText } from '../http/decode-text.js';
import { guardedFetch } from '../http/guarded-fetch.js';
import type { HostLookup } from '../http/ssrf-guard.js';
import { htmlToMarkdown, webSettings } from '../tools/web/index.js';
import type { KnowledgeDocument } from '../types/knowledge.js';
import { sha256 } from './hash.js';
import type { KnowledgeSource, SourceListContext } from './knowledge-source.js';
import { pdfPages } from './loaders/pdf-text.js';

/** Options for `urlSource`. */
export interface UrlSourceOptions {
  /** The pages to index (http or https); each is one document whose URI is the URL. */
  urls: string[];
  /** The source's name. Default `url`. */
  name?: string;
  /**
   * Hosts the SSRF guard trusts (names, `*.example.com`, addresses, CIDR blocks), as in `webTools`:
   * a listed host may resolve to a loopback or private address.
   */
  allowHosts?: readonly string[];
  /** Lets the pages be on loopback, private and link-local addresses (a local wiki). Default false. */
  allowPrivate?: boolean;
  /** Largest page, in bytes. Default 10 MB. */
  maxBytes?: number;
  /** Time limit per page, in milliseconds. Default 30,000. */
  timeoutMs?: number;
  /** Extra request headers (e.g. `Authorization`; dropped on a redirect to another origin). */
  headers?: Record<string, string>;
  /** Resolves host names (default: the system resolver). Tests inject a stub. */
  lookup?: HostLookup;
}

/**
 * Web pages fetched through the web tools' SSRF-guarded fetch (every redirect re-checked; loopback,
 * private and metadata addresses refused unless allowed): HTML becomes markdown with the same
 * converter as `web_fetch` (so chunks carry heading paths and cite as `URL#Heading`), PDF becomes
 * text with page numbers, text and markdown are kept. A page that cannot be fetched is reported and
 * its indexed version stays.
 * @example
 * urlSource({ urls: ['https://example.com/handbook'] })
 */
export function urlSource(options: UrlSourceOptions): KnowledgeSource {
  if (!Array.isArray(options?.urls) || options.urls.length === 0)
    throw new ValidationError('urlSource: "urls" must be a non-empty list of URLs');
  for (const url of options.urls) {
    if (typeof url !== 'string' || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
      throw new ValidationError(`urlSource: ${JSON.stringify(url)} is not an http or https URL`);
  }
  const name = options.name ?? 'url';
  const settings = webSettings({
    allowHosts: options.allowHosts,
    allowPrivate: options.allowPrivate,
    timeoutMs: options.timeoutMs,
    maxResponseBytes: options.maxBytes ?? 10 * 1024 * 1024,
    lookup: options.lookup,
  });
  return {
    name,
    count: () => Promise.resolve(options.urls.length),
    async *list(context: SourceListContext): AsyncIterable<KnowledgeDocument> {
      for (const url of options.urls) {
        context.signal?.throwIfAborted();
        try {
          yield await fetchDocument(url, name, settings, options.headers, context.signal);
        } catch (err) {
          context.signal?.throwIfAborted();
          context.report(
            err instanceof KnowledgeError
              ? err
              : new KnowledgeError(`Cannot load ${url}: ${(err as Error).message}`, { kind: 'load', uri: url, cause: err }),
          );
        }
      }
    },
  };
}

async function fetchDocument(
  url: string,
  source: string,
  settings: ReturnType<typeof webSettings>,
  headers: Record<string, string> | undefined,
  signal: AbortSignal | undefined,
): Promise<KnowledgeDocument> {
  const res = await guardedFetch(
    {
      url,
      headers: {
        'user-agent': settings.userAgent,
        accept: 'text/html,text/markdown,text/plain,application/pdf;q=0.9,*/*;q=0.5',
        ...headers,
      },
    },
    {
      guard: settings.fetchGuard,
      maxRedirects: settings.maxRedirects,
      maxBytes: settings.maxResponseBytes,
      timeoutMs: settings.timeoutMs,
      signal,
    },
  );
  if (res.status < 200 || res.status >= 300) {
    throw new KnowledgeError(`Cannot load ${url}: HTTP ${res.status} ${res.statusText}`.trim(), { kind: 'load', uri: url });
  }
  const contentType = String(res.headers['content-type'] ?? '').toLowerCase();
  const metadata: KnowledgeDocument['metadata'] = { url: res.url };
  let text: string;
  let title: string | undefined;
  if (contentType.includes('application/pdf') || (!contentType && /\.pdf$/i.test(new URL(res.url).pathname))) {
    const pdf = await pdfPages(new Uint8Array(res.body));
    text = pdf.text;
    title = pdf.title;
    Object.assign(metadata, { format: 'pdf', pages: pdf.pageLines.length, pageLines: pdf.pageLines.join(',') });
  } else if (contentType.includes('html') || (!contentType && /^\s*</.test(res.body.subarray(0, 200).toString('utf8')))) {
    const page = await htmlToMarkdown(decodeText(res.body, contentType).text, res.url);
    text = page.markdown;
    title = page.title;
    metadata.format = 'markdown'; // chunked by heading
  } else if (/^text\/|json|xml|yaml/.test(contentType) || !contentType) {
    text = decodeText(res.body, contentType).text.replace(/\r\n?/g, '\n');
    metadata.format = contentType.includes('markdown') || /\.md$/i.test(new URL(res.url).pathname) ? 'markdown' : 'text';
    if (metadata.format === 'markdown') title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim();
  } else {
    throw new KnowledgeError(`Cannot load ${url}: its content type ${contentType} is not text, HTML or PDF`, { kind: 'load', uri: url });
  }
  title ??= url;
  metadata.title = title;
  return { uri: url, source, title, text, contentHash: sha256(text), metadata };
}
