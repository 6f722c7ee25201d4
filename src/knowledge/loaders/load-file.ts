import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';

import { KnowledgeError } from '../../errors/knowledge-error.js';
import { htmlToMarkdown } from '../../tools/web/index.js';
import type { KnowledgeDocument } from '../../types/knowledge.js';
import { sha256 } from '../hash.js';
import { type FileFormat, fileFormat } from './file-formats.js';
import { pdfPages } from './pdf-text.js';
import { csvText, jsonLinesText, jsonText } from './structured-text.js';

/** Files bigger than this are refused unless `maxBytes` says otherwise: 10 MB. */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Options for `loadFile`. */
export interface LoadFileOptions {
  /** The file on disk. */
  path: string;
  /** The document's URI (a path relative to its source root). */
  uri: string;
  /** The source's name. */
  source: string;
  maxBytes?: number;
}

/**
 * Reads a file into a document by its extension: text, markdown, HTML (converted to markdown),
 * PDF (page numbers kept), JSON/JSON Lines/CSV (one paragraph a row), source code (language from
 * the extension). Metadata: `path`, `format`, `title`, `language`, `pages`, `rows`.
 * @throws KnowledgeError (kind `load`) naming the file: unreadable, too big, binary, malformed.
 */
export async function loadFile(options: LoadFileOptions): Promise<KnowledgeDocument> {
  const { path, uri, source } = options;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  const fail = (message: string, cause?: unknown): KnowledgeError =>
    new KnowledgeError(`Cannot load ${uri}: ${message}`, { kind: 'load', uri, cause });
  let data: Buffer;
  try {
    const info = await stat(path);
    if (info.size > maxBytes) throw fail(`${info.size} bytes is over the ${maxBytes}-byte limit`);
    data = await readFile(path);
  } catch (err) {
    if (err instanceof KnowledgeError) throw err;
    throw fail((err as Error).message, err);
  }
  const { format, language } = fileFormat(path);
  let read: Read;
  try {
    read = await readAs(format, data, uri);
  } catch (err) {
    throw fail(`not a valid ${format.toUpperCase()} file (${(err as Error).message})`, err);
  }
  const title = read.title ?? basename(uri);
  const metadata: KnowledgeDocument['metadata'] = { path: uri, format, title, ...read.metadata };
  if (language) metadata.language = language;
  return { uri, source, title, text: read.text, contentHash: sha256(read.text), metadata };
}

interface Read {
  text: string;
  title?: string;
  metadata?: Record<string, string | number>;
}

async function readAs(format: FileFormat, data: Buffer, uri: string): Promise<Read> {
  if (format === 'pdf') {
    const pdf = await pdfPages(new Uint8Array(data));
    return { text: pdf.text, title: pdf.title, metadata: { pages: pdf.pageLines.length, pageLines: pdf.pageLines.join(',') } };
  }
  if (data.subarray(0, 8192).includes(0)) throw new Error('it looks binary');
  const raw = data
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n');
  switch (format) {
    case 'text':
    case 'code':
      return { text: raw };
    case 'markdown':
      return { text: raw, title: /^#\s+(.+)$/m.exec(raw)?.[1]?.trim() };
    case 'html': {
      const page = await htmlToMarkdown(raw, `file:///${uri}`);
      return { text: page.markdown, title: page.title };
    }
    case 'json': {
      const { text, rows } = jsonText(raw);
      return { text, ...(rows !== undefined ? { metadata: { rows } } : {}) };
    }
    case 'jsonl': {
      const { text, rows } = jsonLinesText(raw);
      return { text, metadata: { rows } };
    }
    case 'csv': {
      const { text, rows } = csvText(raw);
      return { text, metadata: { rows } };
    }
    default: {
      const never: never = format;
      throw new Error(`unknown format ${String(never)}`);
    }
  }
}
