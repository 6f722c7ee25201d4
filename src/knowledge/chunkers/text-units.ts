import type { TokenCounter } from '../token-counter.js';

/** A piece of a document's text with its line range; chunks are packed from units. */
export interface TextUnit {
  text: string;
  /** First and last line, 1-based, inclusive. */
  start: number;
  end: number;
  tokens: number;
  /** What joins this unit to the one before it in a chunk. */
  sep: string;
}

/** A chunk before it becomes a `KnowledgeChunk`. */
export interface TextPiece {
  text: string;
  lines: [number, number];
  headings?: string[];
}

/** How big chunks are, in tokens. */
export interface ChunkSizing {
  maxTokens: number;
  overlapTokens: number;
  counter: TokenCounter;
}

/** Paragraphs (runs of non-blank lines) of `lines`, the first being line `firstLine`. */
export function paragraphs(lines: string[], firstLine: number, counter: TokenCounter): TextUnit[] {
  const out: TextUnit[] = [];
  let start = -1;
  const flush = (endIndex: number): void => {
    if (start < 0) return;
    const text = lines.slice(start, endIndex).join('\n');
    out.push({ text, start: firstLine + start, end: firstLine + endIndex - 1, tokens: counter.count(text), sep: '\n\n' });
    start = -1;
  };
  lines.forEach((line, i) => {
    if (line.trim() === '') flush(i);
    else if (start < 0) start = i;
  });
  flush(lines.length);
  return out;
}

/**
 * Splits units bigger than `maxTokens`: into lines, then sentences, then words, then character runs
 * (the recursive part of the recursive chunker).
 */
export function fitUnits(units: TextUnit[], sizing: ChunkSizing): TextUnit[] {
  const out: TextUnit[] = [];
  for (const unit of units) {
    if (unit.tokens <= sizing.maxTokens) out.push(unit);
    else out.push(...fitUnits(splitUnit(unit, sizing), sizing));
  }
  return out;
}

function splitUnit(unit: TextUnit, sizing: ChunkSizing): TextUnit[] {
  const { counter, maxTokens } = sizing;
  if (unit.start < unit.end) {
    return unit.text.split('\n').map((text, i) => ({
      text,
      start: unit.start + i,
      end: unit.start + i,
      tokens: counter.count(text),
      sep: i === 0 ? unit.sep : '\n',
    }));
  }
  const line = (text: string, i: number, sep: string): TextUnit => ({
    text,
    start: unit.start,
    end: unit.end,
    tokens: counter.count(text),
    sep: i === 0 ? unit.sep : sep,
  });
  const sentences = unit.text.split(/(?<=[.!?])\s+/).filter(Boolean);
  if (sentences.length > 1) return sentences.map((s, i) => line(s, i, ' '));
  const words = unit.text.split(/\s+/).filter(Boolean);
  if (words.length > 1) return words.map((w, i) => line(w, i, ' '));
  // One word longer than a chunk: cut it into runs of about maxTokens tokens.
  const size = Math.max(1, maxTokens * 4);
  const runs: TextUnit[] = [];
  for (let i = 0; i * size < unit.text.length; i++) runs.push(line(unit.text.slice(i * size, (i + 1) * size), i, ''));
  return runs.map((r) => ({ ...r, tokens: Math.min(r.tokens, maxTokens) }));
}

/**
 * Packs units into chunks of at most `maxTokens`; each chunk after the first starts with the
 * trailing units of the one before it, up to `overlapTokens`.
 */
export function packUnits(units: TextUnit[], sizing: ChunkSizing, headings?: string[]): TextPiece[] {
  const pieces: TextPiece[] = [];
  let current: TextUnit[] = [];
  let tokens = 0;
  let fresh = 0; // units in `current` that are not overlap
  const emit = (): void => {
    if (fresh === 0) return;
    const text = current.map((u, i) => (i === 0 ? u.text : u.sep + u.text)).join('');
    pieces.push({ text, lines: [current[0].start, current[current.length - 1].end], ...(headings?.length ? { headings } : {}) });
  };
  for (const unit of units) {
    if (fresh > 0 && tokens + unit.tokens > sizing.maxTokens) {
      emit();
      const overlap: TextUnit[] = [];
      let kept = 0;
      for (let i = current.length - 1; i >= 0; i--) {
        if (kept + current[i].tokens > sizing.overlapTokens || kept + current[i].tokens + unit.tokens > sizing.maxTokens) break;
        kept += current[i].tokens;
        overlap.unshift(current[i]);
      }
      current = overlap;
      tokens = kept;
      fresh = 0;
    }
    current.push(unit);
    tokens += unit.tokens;
    fresh++;
  }
  emit();
  return pieces;
}
