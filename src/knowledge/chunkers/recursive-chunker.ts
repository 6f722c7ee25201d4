import { fitUnits, packUnits, paragraphs, type ChunkSizing, type TextPiece } from './text-units.js';

/**
 * Plain text: paragraphs packed into chunks of at most `maxTokens`, a paragraph too big cut at
 * lines, then sentences, then words; neighbouring chunks share up to `overlapTokens`.
 */
export function recursiveChunks(text: string, sizing: ChunkSizing, firstLine = 1, headings?: string[]): TextPiece[] {
  return packUnits(fitUnits(paragraphs(text.split('\n'), firstLine, sizing.counter), sizing), sizing, headings);
}
