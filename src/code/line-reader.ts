import { createInterface, type Interface } from 'node:readline';

/**
 * Lines of a stream handed out one at a time, in order, to whoever asks next (the REPL for the
 * next input, an approval for its answer), so piped input is consumed exactly as written.
 */
export class LineReader {
  private readonly rl: Interface;
  private readonly buffered: string[] = [];
  private readonly waiting: Array<(line: string | undefined) => void> = [];
  private ended = false;

  constructor(input: NodeJS.ReadableStream) {
    this.rl = createInterface({ input, terminal: false, crlfDelay: Infinity });
    this.rl.on('line', (line) => {
      const w = this.waiting.shift();
      if (w) w(line);
      else this.buffered.push(line);
    });
    this.rl.on('close', () => {
      this.ended = true;
      for (const w of this.waiting.splice(0)) w(undefined);
    });
  }

  /** The next line, or `undefined` once the input has ended. */
  next(): Promise<string | undefined> {
    const line = this.buffered.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  close(): void {
    this.rl.close();
  }
}
