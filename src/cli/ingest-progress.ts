import type { IngestProgress } from '../knowledge/index.js';

/** Where the progress goes: a stream that may be a terminal. */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Options for `IngestProgressView`. */
export interface IngestProgressOptions {
  /** The knowledge base being ingested (prefix of every line). */
  name: string;
  /** Per-document lines (`docs: added a.md`). */
  lines: ProgressOutput;
  /** The live line, drawn only when this is a terminal. */
  live: ProgressOutput;
  /** Milliseconds between redraws of the live line. Default 100. */
  intervalMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/**
 * What `corvid ingest` shows while it works: a line per document added, updated, deleted or failed
 * and, on a terminal, one live status line redrawn in place (carriage return and erase-to-end,
 * at most every 100 ms, cut to the terminal's width): files done of the total, chunks, embeddings,
 * tokens, files per second and the time left. Without a terminal only the document lines are written.
 */
export class IngestProgressView {
  private readonly started: number;
  private readonly now: () => number;
  private last: IngestProgress | undefined;
  private drawnAt = 0;
  private drawn = false;

  constructor(private readonly options: IngestProgressOptions) {
    this.now = options.now ?? Date.now;
    this.started = this.now();
  }

  private get tty(): boolean {
    return this.options.live.isTTY === true;
  }

  /** Draws the live line before the first report (listing and loading can take a while). */
  start(): void {
    this.draw(true);
  }

  /** One progress report of the ingest. */
  update(p: IngestProgress): void {
    this.last = p;
    if (p.status === 'unchanged') return this.draw(false);
    const why = p.error ? `: ${p.error.message}` : '';
    const line = `${this.options.name}: ${p.status} ${p.uri}${why}\n`;
    if (!this.tty) {
      this.options.lines.write(line);
      return;
    }
    // One write: erase the live line, the document's line, the live line again (no flicker).
    if (this.options.lines === this.options.live) this.options.live.write(`\r\x1b[K${line}${this.line()}`);
    else {
      this.clear();
      this.options.lines.write(line);
      this.draw(true);
    }
  }

  /** Erases the live line (before the summary, or when the ingest ends). */
  clear(): void {
    if (!this.drawn) return;
    this.options.live.write('\r\x1b[K');
    this.drawn = false;
  }

  /** The live line's text for the last report. */
  status(): string {
    const p = this.last;
    const elapsed = Math.max(1, this.now() - this.started) / 1000;
    if (!p) return `${this.options.name}: listing documents…`;
    const rate = p.done / elapsed;
    const parts = [
      p.total !== undefined ? `${bar(p.done / Math.max(1, p.total))} ${p.done}/${p.total} files` : `${p.done} files`,
      `${p.chunks} chunks`,
      `${p.embedded} embedded`,
      `${compact(p.tokens)} tokens`,
      `${rate >= 10 ? Math.round(rate) : rate.toFixed(1)} files/s`,
    ];
    if (p.total !== undefined && p.done < p.total && rate > 0) parts.push(`ETA ${duration((p.total - p.done) / rate)}`);
    return `${this.options.name}: ${parts.join(' · ')}`;
  }

  private draw(force: boolean): void {
    if (!this.tty) return;
    const t = this.now();
    if (!force && this.drawn && t - this.drawnAt < (this.options.intervalMs ?? 100)) return;
    this.options.live.write(this.line());
  }

  /** The live line, cut to the terminal's width, drawn over the current line. */
  private line(): string {
    this.drawnAt = this.now();
    this.drawn = true;
    const columns = this.options.live.columns;
    const width = Math.max(20, (columns && columns > 0 ? columns : 80) - 1);
    const text = this.status();
    return `\r${text.length > width ? `${text.slice(0, width - 1)}…` : text}\x1b[K`;
  }
}

function bar(fraction: number, width = 16): string {
  const full = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `[${'#'.repeat(full)}${'.'.repeat(width - full)}]`;
}

function compact(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(0)}k`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
