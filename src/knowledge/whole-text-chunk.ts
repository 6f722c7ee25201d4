import type { KnowledgeChunk } from '../types/knowledge.js';
import { sha256 } from './hash.js';
import { approximateTokenCounter } from './token-counter.js';

/**
 * A document of one chunk holding all of `text` (a memory, a conversation message): its id is `<uri>#0`, its hash
 * the text's sha256, and its location the document itself.
 */
export function wholeTextChunk(args: {
  uri: string;
  text: string;
  metadata: KnowledgeChunk['metadata'];
  vector?: Float32Array;
}): KnowledgeChunk {
  const { uri, text, metadata, vector } = args;
  return {
    id: `${uri}#0`,
    documentUri: uri,
    index: 0,
    text,
    tokens: approximateTokenCounter.count(text),
    hash: sha256(text),
    location: { uri },
    metadata,
    ...(vector !== undefined ? { vector } : {}),
  };
}
