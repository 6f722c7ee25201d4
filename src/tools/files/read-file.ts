import { z } from 'zod';

import { tool } from '../../core/tool.js';
import type { Tool } from '../../types/tool.js';
import { FileToolError } from './file-tool-error.js';
import type { FilesSetup } from './files-setup.js';
import { looksBinary, readFileLimited } from './text-file.js';

const MAX_LINE_CHARS = 2000;

const input = z.object({
  path: z.string().describe('File to read, relative to the root folder (or absolute inside an allowed folder).'),
  offset: z.int().min(1).optional().describe('First line to read (1-based). Default 1.'),
  limit: z.int().min(1).optional().describe('How many lines to read. Default: as many as fit the size limit.'),
});

/** Arguments of `read_file`. */
export type ReadFileArgs = z.infer<typeof input>;

/** What `read_file` returns. */
export interface ReadFileOutput {
  /** The file, as shown to the model (relative to the root folder). */
  path: string;
  /** Lines returned, e.g. `1-120`, and the file's line count. */
  lines: string;
  totalLines: number;
  /** The lines, each prefixed with its number and a tab. */
  content: string;
  /** Set when not every requested line was returned: says how to read on. */
  truncated?: string;
}

/** `read_file`: numbered lines of a text file, a range of them, within a size limit. */
export function createReadFile(setup: FilesSetup): Tool<ReadFileArgs, ReadFileOutput> {
  return tool({
    name: 'read_file',
    description:
      'Read a text file. Returns its lines numbered ("<n>\\t<text>"), from `offset` for `limit` lines. ' +
      `Long files are cut at ${setup.maxReadBytes} bytes with a note saying how to read on. Binary files are refused.`,
    input,
    async execute({ path, offset = 1, limit }) {
      const file = await setup.policy.check(path, 'read');
      const shown = setup.policy.display(file.path);
      if (file.stats?.isDirectory()) throw new FileToolError(`${shown} is a folder, not a file (use list_dir).`);
      if (file.stats && file.stats.size > setup.maxFileBytes) {
        throw new FileToolError(`${shown} is ${file.stats.size} bytes, over the ${setup.maxFileBytes}-byte limit of read_file.`);
      }
      const buf = readFileLimited(file.path, shown, setup.maxFileBytes);
      if (looksBinary(buf)) throw new FileToolError(`${shown} is a binary file (${buf.length} bytes); read_file reads text files only.`);
      return numberedLines(buf, { shown, offset, limit, maxBytes: setup.maxReadBytes });
    },
  });
}

/**
 * The requested lines of `buf`, numbered. Works on bytes (newline search is native), so only the
 * returned lines are decoded — fast on large files.
 */
function numberedLines(buf: Buffer, o: { shown: string; offset: number; limit?: number; maxBytes: number }): ReadFileOutput {
  const total = countLines(buf);
  if (o.offset > Math.max(total, 1)) {
    throw new FileToolError(`${o.shown} has ${total} lines; offset ${o.offset} is past its end.`);
  }
  let pos = 0;
  for (let line = 1; line < o.offset; line++) pos = buf.indexOf(10, pos) + 1;
  const out: string[] = [];
  let bytes = 0;
  let line = o.offset;
  const last = o.limit === undefined ? total : Math.min(total, o.offset + o.limit - 1);
  let cut = false;
  let longLines = false;
  const width = String(last).length;
  while (line <= last && pos <= buf.length) {
    const nl = buf.indexOf(10, pos);
    const end = nl === -1 ? buf.length : nl;
    if (bytes + (end - pos) > o.maxBytes && out.length > 0) {
      cut = true;
      break;
    }
    let text = buf.toString('utf8', pos, Math.min(end, pos + MAX_LINE_CHARS * 4));
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.length > MAX_LINE_CHARS || end - pos > MAX_LINE_CHARS * 4) {
      text = `${text.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} characters]`;
      longLines = true;
    }
    out.push(`${String(line).padStart(width)}\t${text}`);
    bytes += end - pos + 1;
    line++;
    if (nl === -1) break;
    pos = nl + 1;
  }
  const shownLast = o.offset + out.length - 1;
  const result: ReadFileOutput = {
    path: o.shown,
    lines: out.length === 0 ? 'none' : `${o.offset}-${shownLast}`,
    totalLines: total,
    content: out.join('\n'),
  };
  if (cut) {
    result.truncated = `truncated: showed lines ${o.offset}-${shownLast} of ${total} (size limit ${o.maxBytes} bytes); call read_file with offset ${shownLast + 1} to read on.`;
  } else if (longLines) {
    result.truncated = `some lines longer than ${MAX_LINE_CHARS} characters were cut.`;
  }
  return result;
}

/** Lines in `buf`: newlines, plus one for a last line without one. */
function countLines(buf: Buffer): number {
  if (buf.length === 0) return 0;
  let n = 0;
  for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) n++;
  return buf[buf.length - 1] === 10 ? n : n + 1;
}
