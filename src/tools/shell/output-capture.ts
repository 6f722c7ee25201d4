/**
 * Keeps the head and the tail of a byte stream within `maxBytes` (half each) and counts what is
 * dropped between them. `text()` gives the kept text with a marker naming the elided bytes and lines.
 */
export class OutputCapture {
  readonly #half: number;
  readonly #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #totalBytes = 0;
  #totalLines = 0;

  constructor(maxBytes: number) {
    this.#half = Math.max(1, Math.floor(maxBytes / 2));
  }

  /** Bytes seen so far. */
  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** Whether part of the output was dropped. */
  get truncated(): boolean {
    return this.#totalBytes > this.#headBytes + Math.min(this.#tailBytes, this.#half);
  }

  push(chunk: Buffer): void {
    this.#totalBytes += chunk.length;
    this.#totalLines += countNewlines(chunk);
    if (this.#headBytes < this.#half) {
      const take = Math.min(this.#half - this.#headBytes, chunk.length);
      this.#head.push(chunk.subarray(0, take));
      this.#headBytes += take;
      chunk = chunk.subarray(take);
      if (chunk.length === 0) return;
    }
    this.#tail.push(chunk);
    this.#tailBytes += chunk.length;
    while (this.#tailBytes - this.#tail[0]!.length >= this.#half) this.#tailBytes -= this.#tail.shift()!.length;
  }

  /** The kept output as text; the elided middle is replaced by `[… N bytes, M lines elided …]`. */
  text(): string {
    const head = Buffer.concat(this.#head);
    let tail = Buffer.concat(this.#tail);
    if (tail.length > this.#half) tail = tail.subarray(tail.length - this.#half);
    const elided = this.#totalBytes - head.length - tail.length;
    if (elided <= 0) return Buffer.concat([head, tail]).toString('utf8');
    const lines = this.#totalLines - countNewlines(head) - countNewlines(tail);
    return `${head.toString('utf8')}\n[… ${elided} bytes, ${lines} lines elided …]\n${tail.toString('utf8')}`;
  }
}

function countNewlines(buf: Buffer): number {
  let n = 0;
  for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) n++;
  return n;
}
