import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { ShellSyntaxRefusal } from './shell-words.js';

interface ParseResult {
  file?: { Stmts?: Array<{ Background: boolean }> };
  parseError?: { Text?: string; Pos?: { Line: number; Col: number } } | null;
  message?: string;
}

interface Exports {
  memory: WebAssembly.Memory;
  wasmAlloc: (size: number) => number;
  wasmFree: (pointer: number) => void;
  process: (...args: Array<number | boolean>) => number;
}

type GoRuntime = new () => { importObject: WebAssembly.Imports; run(instance: WebAssembly.Instance): Promise<void> };

/**
 * `sh-syntax` (mvdan/sh compiled to WebAssembly with TinyGo) starts a Go runtime per parse,
 * which costs ~15 ms, and its runtime is not safe to reuse for many parses. So each parse uses
 * a fresh instance, and the next one is started in the background as soon as one is taken:
 * a check then costs well under a millisecond. The call mirrors `sh-syntax`'s own processor
 * (`lib/processor.js`); if its exports ever differ, the package's public `parse` is used.
 */
class WarmParser {
  #module: Promise<WebAssembly.Module> | undefined;
  #next: Promise<Exports> | undefined;
  #fallback = false;
  readonly #encoder = new TextEncoder();
  readonly #decoder = new TextDecoder();

  async parse(line: string): Promise<ParseResult> {
    if (this.#fallback) return publicParse(line);
    const exports = await (this.#next ?? this.#start());
    this.#next = this.#start();
    this.#next.catch(() => undefined);
    if (typeof exports.process !== 'function' || typeof exports.wasmAlloc !== 'function') {
      this.#fallback = true;
      return publicParse(line);
    }
    return this.#call(exports, line);
  }

  async #start(): Promise<Exports> {
    this.#module ??= (async () => {
      await import('sh-syntax'); // defines globalThis.Go
      const file = createRequire(import.meta.url).resolve('sh-syntax/main.wasm');
      return WebAssembly.compile(await readFile(file));
    })();
    const module = await this.#module;
    const go = new (globalThis as unknown as { Go: GoRuntime }).Go();
    const instance = await WebAssembly.instantiate(module, go.importObject);
    void go.run(instance);
    return instance.exports as unknown as Exports;
  }

  #call(ex: Exports, line: string): ParseResult {
    const put = (bytes: Uint8Array): number => {
      const pointer = ex.wasmAlloc(bytes.byteLength);
      new Uint8Array(ex.memory.buffer).set(bytes, pointer);
      return pointer;
    };
    const text = this.#encoder.encode(line);
    const name = put(new Uint8Array(0));
    const body = put(text);
    const stopAt = put(new Uint8Array(0));
    // filepath, text, print=false, keepComments=false, variant=bash, stopAt, recoverErrors=0, printer options.
    const result = ex.process(name, 0, 0, body, text.byteLength, text.byteLength, false, false, 1, stopAt, 0, 0, 0, false, 2, true, true, true, false, false, false, false);
    ex.wasmFree(name);
    ex.wasmFree(body);
    ex.wasmFree(stopAt);
    const bytes = new Uint8Array(ex.memory.buffer).subarray(result);
    const json = this.#decoder.decode(bytes.subarray(0, bytes.indexOf(0)));
    if (!json.startsWith('{"')) throw new ShellSyntaxRefusal(`the command line does not parse: ${json}`);
    return JSON.parse(json) as ParseResult;
  }
}

async function publicParse(line: string): Promise<ParseResult> {
  const { parse } = await import('sh-syntax');
  try {
    return { file: (await parse(line, { keepComments: false })) as ParseResult['file'] };
  } catch (err) {
    return { parseError: { Text: (err as { Text?: string }).Text ?? (err instanceof Error ? err.message : String(err)) } };
  }
}

const parser = new WarmParser();

/**
 * Parses the line with `sh-syntax` (mvdan/sh, bash dialect) and returns its top-level
 * statements. A line bash would not accept is refused with the parser's message. Its tree gives
 * statement boundaries only; the shell tool's own reader (`parseCommandLine`) must agree with
 * them before a line runs.
 */
export async function checkRealParse(line: string): Promise<Array<{ background: boolean }>> {
  const result = await parser.parse(line);
  if (result.parseError || result.message) {
    const e = result.parseError;
    const where = e?.Pos && e.Pos.Line > 0 ? `${e.Pos.Line}:${e.Pos.Col}: ` : '';
    throw new ShellSyntaxRefusal(`the command line does not parse: ${where}${e?.Text ?? result.message}`);
  }
  return (result.file?.Stmts ?? []).map((s) => ({ background: s.Background }));
}

/** Starts the parser ahead of the first check (loading and compiling it takes ~50 ms). */
export function warmUpShellParser(): void {
  void parser.parse('true').catch(() => undefined);
}
