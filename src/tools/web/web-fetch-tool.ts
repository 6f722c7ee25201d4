import { z } from 'zod';

import { tool } from '../../core/tool.js';
import { ConfigError } from '../../errors/config-error.js';
import { decodeText } from '../../http/decode-text.js';
import { guardedFetch, type GuardedResponse } from '../../http/guarded-fetch.js';
import { WebRefusal } from '../../http/web-refusal.js';
import type { Tool } from '../../types/tool.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { pdfToText } from './pdf-to-text.js';
import { type WebSettings, window } from './web-tools-options.js';

const input = z.object({
  url: z.string().describe('The http(s) URL to read'),
  offset: z.number().int().min(0).optional().describe('Character offset to continue a long page from (the nextOffset of an earlier call)'),
});

/** What `web_fetch` returns. */
export interface WebFetchResult {
  /** The URL that answered, after redirects. */
  url: string;
  /** The URL asked for, when redirects led elsewhere. */
  requestedUrl?: string;
  status: number;
  contentType: string;
  title?: string;
  /** Markdown (HTML pages), text (PDF, other text). */
  content: string;
  /** Length of the whole content, when `content` is only part of it. */
  totalChars?: number;
  /** Where the next part starts (pass as `offset`), when something is left. */
  nextOffset?: number;
}

type Kind = 'html' | 'pdf' | 'text';

function kindOf(contentType: string, body: Buffer): Kind | undefined {
  const mime = contentType.split(';')[0].trim().toLowerCase();
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime === 'application/pdf') return 'pdf';
  if (
    mime.startsWith('text/') ||
    /^application\/(json|xml|javascript|ecmascript|x-yaml|yaml|x-ndjson|x-sh|toml)$/.test(mime) ||
    /\+(json|xml)$/.test(mime)
  )
    return 'text';
  if (mime === '' || mime === 'application/octet-stream') {
    const head = body.subarray(0, 512).toString('latin1').trimStart().toLowerCase();
    if (head.startsWith('%pdf-')) return 'pdf';
    if (head.startsWith('<!doctype html') || head.startsWith('<html')) return 'html';
    if (mime === '' && !body.subarray(0, 4096).includes(0)) return 'text';
  }
  return undefined;
}

async function readable(res: GuardedResponse): Promise<{ title?: string; content: string; contentType: string }> {
  const contentType = String(res.headers['content-type'] ?? '');
  const kind = kindOf(contentType, res.body);
  switch (kind) {
    case 'html': {
      const page = await htmlToMarkdown(decodeText(res.body, contentType).text, res.url);
      return { title: page.title, content: page.markdown, contentType };
    }
    case 'pdf': {
      const pdf = await pdfToText(res.body).catch((err: unknown) => {
        if (ConfigError.isInstance(err)) throw err;
        throw new WebRefusal(`Could not read the PDF at ${res.url}: ${(err as Error).message ?? String(err)}`, { cause: err });
      });
      return { title: pdf.title, content: pdf.text, contentType };
    }
    case 'text':
      return { content: decodeText(res.body, contentType).text, contentType };
    case undefined:
      throw new WebRefusal(
        `Cannot read ${res.url}: its content type "${contentType || 'unknown'}" (${res.body.length} bytes) is not HTML, PDF or text`,
      );
    default: {
      const never: never = kind;
      throw new Error(`unknown kind ${String(never)}`);
    }
  }
}

/** The `web_fetch` tool: a URL as readable markdown, through the SSRF guard. */
export function webFetchTool(settings: WebSettings): Tool<z.infer<typeof input>, WebFetchResult> {
  return tool({
    name: 'web_fetch',
    description:
      'Read a web page or document at an http(s) URL. Returns its title and its readable content as markdown (HTML pages), or as text (PDFs, plain text, JSON). Long content is cut; call again with offset to continue.',
    input,
    execute: async ({ url, offset }, ctx) => {
      const res = await guardedFetch(
        {
          url,
          headers: {
            'user-agent': settings.userAgent,
            accept: 'text/html,application/xhtml+xml,application/pdf,text/*;q=0.9,*/*;q=0.5',
            'accept-encoding': 'gzip, deflate, br',
          },
        },
        {
          guard: settings.fetchGuard,
          maxRedirects: settings.maxRedirects,
          maxBytes: settings.maxResponseBytes,
          timeoutMs: settings.timeoutMs,
          signal: ctx.signal,
        },
      );
      if (res.status < 200 || res.status >= 300)
        throw new WebRefusal(`${res.url} answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
      const page = await readable(res);
      const part = window(page.content, offset ?? 0, settings.maxChars);
      return {
        url: res.url,
        ...(res.redirects.length > 0 ? { requestedUrl: url } : {}),
        status: res.status,
        contentType: page.contentType,
        ...(page.title ? { title: page.title } : {}),
        content: part.text,
        ...(part.nextOffset !== undefined || offset ? { totalChars: part.totalChars } : {}),
        ...(part.nextOffset !== undefined ? { nextOffset: part.nextOffset } : {}),
      };
    },
  });
}
