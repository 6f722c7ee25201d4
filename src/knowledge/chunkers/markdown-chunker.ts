import { recursiveChunks } from './recursive-chunker.js';
import type { ChunkSizing, TextPiece } from './text-units.js';

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;

/**
 * Markdown: cut into sections at headings (not inside fenced code), each section chunked on its
 * own, every chunk carrying its heading path (`['Guide', 'Install', 'Linux']`). A heading with no
 * text of its own before the next heading (`# Guide` directly followed by `## Install`) joins the
 * next section rather than becoming a chunk of one line.
 */
export function markdownChunks(text: string, sizing: ChunkSizing): TextPiece[] {
  const lines = text.split('\n');
  const pieces: TextPiece[] = [];
  const path: string[] = [];
  let sectionStart = 0;
  let sectionHeadings: string[] = [];
  let inFence = false;
  const flush = (end: number): void => {
    const body = lines.slice(sectionStart, end).join('\n');
    if (body.trim()) pieces.push(...recursiveChunks(body, sizing, sectionStart + 1, sectionHeadings));
  };
  lines.forEach((line, i) => {
    if (FENCE.test(line)) inFence = !inFence;
    const m = inFence ? null : HEADING.exec(line);
    if (!m) return;
    if (lines.slice(sectionStart, i).some((l) => l.trim() && !HEADING.test(l))) {
      flush(i);
      sectionStart = i;
    }
    const level = m[1].length;
    path.length = Math.min(path.length, level - 1);
    while (path.length < level - 1) path.push('');
    path.push(m[2]);
    sectionHeadings = path.filter(Boolean);
  });
  flush(lines.length);
  return pieces;
}
