import { ValidationError } from '../../errors/validation-error.js';
import type { KnowledgeChunk, KnowledgeDocument } from '../../types/knowledge.js';
import { sha256 } from '../hash.js';
import { approximateTokenCounter, type TokenCounter } from '../token-counter.js';
import { codeChunks } from './code-chunker.js';
import { markdownChunks } from './markdown-chunker.js';
import { recursiveChunks } from './recursive-chunker.js';
import type { ChunkSizing, TextPiece } from './text-units.js';

/** How documents are cut into chunks. */
export interface ChunkingOptions {
  /** Largest chunk, in tokens. Default 400. */
  maxTokens?: number;
  /** Tokens a chunk repeats from the end of the one before it. Default 40. */
  overlapTokens?: number;
  /** Default: an estimate (about four characters a token). */
  tokenCounter?: TokenCounter;
  /**
   * `auto` (default) picks by the document's `metadata.format`: markdown and HTML by heading,
   * code by definition, anything else by paragraph.
   */
  strategy?: 'auto' | 'recursive' | 'markdown' | 'code';
}

/** Checks chunking options and fills defaults. */
export function chunkSizing(options: ChunkingOptions = {}): ChunkSizing {
  const maxTokens = options.maxTokens ?? 400;
  const overlapTokens = options.overlapTokens ?? 40;
  if (!Number.isInteger(maxTokens) || maxTokens < 1)
    throw new ValidationError(`chunking.maxTokens must be a positive integer, got ${maxTokens}`);
  if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens >= maxTokens) {
    throw new ValidationError(`chunking.overlapTokens must be an integer from 0 to maxTokens - 1 (${maxTokens - 1}), got ${overlapTokens}`);
  }
  return { maxTokens, overlapTokens, counter: options.tokenCounter ?? approximateTokenCounter };
}

/**
 * Cuts a document into chunks: ids `<uri>#<n>`, line ranges, heading paths, PDF page numbers,
 * the document's metadata copied onto each chunk.
 * @example
 * const chunks = chunkDocument(doc, { maxTokens: 300, overlapTokens: 30 });
 */
export function chunkDocument(document: KnowledgeDocument, options: ChunkingOptions = {}): KnowledgeChunk[] {
  const sizing = chunkSizing(options);
  const pieces = split(document, options.strategy ?? 'auto', sizing);
  const pageStarts = pageLines(document);
  return pieces.map((piece, index) => {
    const page = pageStarts ? pageOf(pageStarts, piece.lines[0]) : undefined;
    return {
      id: `${document.uri}#${index}`,
      documentUri: document.uri,
      index,
      text: piece.text,
      tokens: sizing.counter.count(piece.text),
      hash: sha256(piece.text),
      location: {
        uri: document.uri,
        lines: piece.lines,
        ...(piece.headings?.length ? { headings: piece.headings } : {}),
        ...(page !== undefined ? { page } : {}),
      },
      metadata: { ...document.metadata, ...(page !== undefined ? { page } : {}) },
    };
  });
}

function split(document: KnowledgeDocument, strategy: NonNullable<ChunkingOptions['strategy']>, sizing: ChunkSizing): TextPiece[] {
  switch (strategy) {
    case 'recursive':
      return recursiveChunks(document.text, sizing);
    case 'markdown':
      return markdownChunks(document.text, sizing);
    case 'code':
      return codeChunks(document.text, sizing);
    case 'auto': {
      const format = document.metadata.format;
      if (format === 'markdown' || format === 'html') return markdownChunks(document.text, sizing);
      if (format === 'code') return codeChunks(document.text, sizing);
      return recursiveChunks(document.text, sizing);
    }
    default: {
      const never: never = strategy;
      throw new ValidationError(`Unknown chunking strategy ${JSON.stringify(never)}`);
    }
  }
}

/** First line of each page, from the PDF loader's `metadata.pageLines` ("1,42,80"). */
function pageLines(document: KnowledgeDocument): number[] | undefined {
  const raw = document.metadata.pageLines;
  if (typeof raw !== 'string' || !raw) return undefined;
  return raw.split(',').map(Number);
}

function pageOf(starts: number[], line: number): number {
  let page = 1;
  for (let i = 0; i < starts.length; i++) if (starts[i] <= line) page = i + 1;
  return page;
}
