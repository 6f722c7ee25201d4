import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

import { ShellSyntaxRefusal } from './shell-words.js';

interface ParseResult {
  file?: { Stmts?: Array<{ Background: boolean }> };
  parseError?: { Text?: string; Pos?: { Line: number; Col: number } } | null;
  message?: string;
}

/**
 * The parser thread. `sh-syntax` (mvdan/sh compiled to WebAssembly with TinyGo) starts a Go
 * runtime per parse (~15 ms of CPU), and a runtime is not safe to reuse for many parses. So a
 * worker thread keeps one fresh instance ready, uses each once and starts the next right after:
 * a check costs about a millisecond and the start-up never blocks the caller's event loop. The
 * call mirrors `sh-syntax`'s own processor (`lib/processor.js`). Plain JavaScript run with
 * `eval`, so it needs no file of its own next to the compiled module.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
(async () => {
  await import(workerData.shSyntaxUrl);
  const module = await WebAssembly.compile(readFileSync(workerData.wasmPath));
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const fresh = async () => {
    const go = new Go();
    const instance = await WebAssembly.instantiate(module, go.importObject);
    go.run(instance);
    return instance.exports;
  };
  let next = fresh();
  const parse = (ex, line) => {
    const put = (bytes) => { const p = ex.wasmAlloc(bytes.byteLength); new Uint8Array(ex.memory.buffer).set(bytes, p); return p; };
    const text = encoder.encode(line);
    const name = put(new Uint8Array(0));
    const body = put(text);
    const stopAt = put(new Uint8Array(0));
    const result = ex.process(name, 0, 0, body, text.byteLength, text.byteLength, false, false, 1, stopAt, 0, 0, 0, false, 2, true, true, true, false, false, false, false);
    ex.wasmFree(name); ex.wasmFree(body); ex.wasmFree(stopAt);
    const bytes = new Uint8Array(ex.memory.buffer).subarray(result);
    return decoder.decode(bytes.subarray(0, bytes.indexOf(0)));
  };
  parentPort.on('message', async ({ id, line }) => {
    try {
      const ex = await next;
      next = fresh();
      parentPort.postMessage({ id, json: parse(ex, line) });
    } catch (err) {
      next = fresh();
      parentPort.postMessage({ id, error: String((err && err.message) || err) });
    }
  });
})().catch((err) => { throw err; });
`;

class ParserThread {
  #worker: Worker | undefined;
  #nextId = 0;
  readonly #pending = new Map<number, { resolve: (r: ParseResult) => void; reject: (e: Error) => void }>();

  parse(line: string): Promise<ParseResult> {
    const worker = this.#start();
    const id = this.#nextId++;
    if (this.#pending.size === 0) worker.ref();
    return new Promise<ParseResult>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, line });
    });
  }

  warmUp(): void {
    this.#start();
  }

  #start(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const require = createRequire(import.meta.url);
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { shSyntaxUrl: pathToFileURL(require.resolve('sh-syntax')).href, wasmPath: require.resolve('sh-syntax/main.wasm') },
    });
    worker.on('message', (m: { id: number; json?: string; error?: string }) => {
      const waiting = this.#pending.get(m.id);
      if (waiting === undefined) return;
      this.#pending.delete(m.id);
      if (this.#pending.size === 0) worker.unref();
      if (m.error !== undefined || m.json === undefined || !m.json.startsWith('{"')) {
        waiting.reject(new Error(`the shell parser failed: ${m.error ?? m.json}`));
        return;
      }
      waiting.resolve(JSON.parse(m.json) as ParseResult);
    });
    const fail = (err: Error) => {
      if (this.#worker === worker) this.#worker = undefined;
      for (const w of this.#pending.values()) w.reject(err);
      this.#pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the shell parser thread stopped (exit ${code})`)));
    // After the listeners: adding a 'message' listener refs the worker's port again.
    worker.unref();
    this.#worker = worker;
    return worker;
  }
}

const thread = new ParserThread();

/**
 * Parses the line with `sh-syntax` (mvdan/sh, bash dialect) and returns its top-level
 * statements. A line bash would not accept is refused with the parser's message. Its tree gives
 * statement boundaries only; the shell tool's own reader (`parseCommandLine`) must agree with
 * them before a line runs.
 */
export async function checkRealParse(line: string): Promise<Array<{ background: boolean }>> {
  let result: ParseResult;
  try {
    result = await thread.parse(line);
  } catch (err) {
    throw new ShellSyntaxRefusal(`the line could not be parsed (${err instanceof Error ? err.message : String(err)})`);
  }
  if (result.parseError || result.message) {
    const e = result.parseError;
    const where = e?.Pos && e.Pos.Line > 0 ? `${e.Pos.Line}:${e.Pos.Col}: ` : '';
    throw new ShellSyntaxRefusal(`the command line does not parse: ${where}${e?.Text ?? result.message}`);
  }
  return (result.file?.Stmts ?? []).map((s) => ({ background: s.Background }));
}

/** Starts the parser thread ahead of the first check (it loads and compiles the parser, ~50 ms). */
export function warmUpShellParser(): void {
  thread.warmUp();
}
