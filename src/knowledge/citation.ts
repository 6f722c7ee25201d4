import type { ChunkLocation } from '../types/knowledge.js';

/**
 * How a chunk is cited: `file.pdf p.3` for a page, `https://host/page#Heading` for a URL,
 * `path/file.md:12-30` for a file's lines.
 */
export function citation(location: ChunkLocation): string {
  if (location.page !== undefined) return `${location.uri} p.${location.page}`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location.uri)) {
    const heading = location.headings?.at(-1);
    return heading ? `${location.uri}#${heading}` : location.uri;
  }
  if (location.lines) {
    const [a, b] = location.lines;
    return a === b ? `${location.uri}:${a}` : `${location.uri}:${a}-${b}`;
  }
  return location.uri;
}
