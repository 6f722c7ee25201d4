/**
 * Splits a streamed markdown answer into finished blocks as it arrives, so the UI can print each finished block
 * once (Ink `<Static>`) and re-render only the short unfinished tail. A block is finished at a blank line outside a
 * code fence; a long code block is cut every `maxLiveLines` lines (closed, then re-opened with the same fence), and
 * a long paragraph at a line break, so the live tail stays short whatever the answer's size: streaming costs
 * linear time.
 */

/** Options of `MarkdownStream`. */
export interface MarkdownStreamOptions {
  /** Lines after which an open code block is cut. Default 24. */
  maxLiveLines?: number;
  /** Characters after which a paragraph is cut at its last line break. Default 2000. */
  maxLiveChars?: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** Streams markdown into finished chunks and a live tail. */
export class MarkdownStream {
  private text = '';
  private readonly maxLines: number;
  private readonly maxChars: number;

  constructor(options: MarkdownStreamOptions = {}) {
    this.maxLines = options.maxLiveLines ?? 24;
    this.maxChars = options.maxLiveChars ?? 2000;
  }

  /** The unfinished tail (rendered live). */
  get live(): string {
    return this.text;
  }

  /** Appends `delta`; returns the chunks it finished (possibly none), in order. */
  push(delta: string): string[] {
    this.text += delta;
    const out: string[] = [];
    for (let chunk = this.cut(); chunk !== undefined; chunk = this.cut()) if (chunk.trim() !== '') out.push(chunk);
    return out;
  }

  /** Ends the stream: returns the tail (or `''`) and empties it. */
  end(): string {
    const rest = this.text;
    this.text = '';
    return rest.trim() === '' ? '' : rest.replace(/\s+$/, '');
  }

  /** Removes and returns one finished chunk from the head of the text, or `undefined`. */
  private cut(): string | undefined {
    const text = this.text;
    if (!text.includes('\n')) return undefined;
    let fence: { marker: string; line: string } | undefined;
    let lastBlank = -1;
    let pos = 0;
    let fenceStart = 0;
    let lines = 0;
    // Scan complete lines only (the last line may still grow).
    for (let nl = text.indexOf('\n'); nl !== -1; pos = nl + 1, nl = text.indexOf('\n', pos)) {
      const line = text.slice(pos, nl);
      const m = FENCE.exec(line);
      if (fence) {
        lines++;
        if (m && m[1][0] === fence.marker[0] && m[1].length >= fence.marker.length && m[2].trim() === '') {
          fence = undefined;
          lastBlank = -1;
        } else if (lines >= this.maxLines) return this.cutFence(fence, fenceStart, nl);
      } else if (m) {
        fence = { marker: m[1], line };
        fenceStart = pos;
        lines = 0;
        // Text before the fence is a finished block.
        if (pos > 0 && text.slice(0, pos).trim() !== '') return this.take(pos);
      } else if (line.trim() === '') lastBlank = nl;
    }
    if (fence) return undefined;
    if (lastBlank > 0) return this.take(lastBlank + 1);
    if (text.length > this.maxChars) {
      const nl = text.lastIndexOf('\n');
      if (nl > 0) return this.take(nl + 1);
    }
    return undefined;
  }

  private cutFence(fence: { marker: string; line: string }, start: number, nl: number): string {
    const body = this.text.slice(start, nl + 1);
    this.text = this.text.slice(0, start) + fence.line + '\n' + this.text.slice(nl + 1);
    // Whatever came before the fence was cut already (a fence is always at the head when it gets long).
    const before = this.text.slice(0, start);
    this.text = this.text.slice(start);
    return before + body + fence.marker;
  }

  private take(end: number): string {
    const chunk = this.text.slice(0, end);
    this.text = this.text.slice(end);
    return chunk.replace(/\s+$/, '');
  }
}
