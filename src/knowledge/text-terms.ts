import type { ChunkLocation } from '../types/knowledge.js';

/**
 * The terms of a text for keyword search: lower-cased runs of letters and digits (any script),
 * so `Rate-limit` and `rate limit` match each other.
 */
export function textTerms(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * What keyword search indexes for a chunk: its heading path (document title and section headings),
 * then its text. A section's words count with the headings above it, so a question naming the
 * page ("npm link") finds its sections, not only the one whose text repeats the title.
 */
export function keywordText(chunk: { text: string; location: Pick<ChunkLocation, 'headings'> }): string {
  const headings = chunk.location.headings ?? [];
  return headings.length > 0 ? `${headings.join(' ')}\n${chunk.text}` : chunk.text;
}
