import type { ChunkLocation } from '../types/knowledge.js';

/**
 * The terms of a text for keyword search: lower-cased runs of letters and digits (any script),
 * so `Rate-limit` and `rate limit` match each other.
 */
export function textTerms(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The heading path keyword search indexes with a chunk (document title and section headings, joined
 * by spaces; empty without headings). A section's words count with the headings above it, so a
 * question naming the page ("npm link") finds its sections, not only the one whose text repeats the
 * title; a heading word counts twice (`HEADING_WEIGHT`).
 */
export function headingText(chunk: { location: Pick<ChunkLocation, 'headings'> }): string {
  return (chunk.location.headings ?? []).join(' ');
}
