/**
 * The sign bits of a vector, one per dimension (bit `d` set when `v[d] > 0`), packed in 32-bit
 * words: bit `d` of the vector is bit `d % 32` of word `d / 32`. On a little-endian machine these
 * words hold the same bytes as sqlite-vec's `vec_quantize_binary`.
 */
export function signBitsOf(vector: Float32Array, words = Math.ceil(vector.length / 32)): Uint32Array {
  const out = new Uint32Array(words);
  for (let d = 0; d < vector.length; d++) if (vector[d]! > 0) out[d >>> 5]! |= 1 << (d & 31);
  return out;
}

/** Set bits of a 32-bit word. */
function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * The sign bits of an index's vectors, in memory (384 dimensions: 48 bytes a vector, 4.8 MB for
 * 100,000), with the chunk id of each. Ids are kept in ascending order: rows are appended with
 * growing ids (chunk ids come from an AUTOINCREMENT key) and removed by marking their slot, so a
 * lookup is a binary search; removed slots are compacted away once they are a quarter of the total.
 */
export class SignBits {
  private ids: Float64Array;
  private bits: Uint32Array;
  private used = 0;
  private removed = 0;
  private lastId = 0;
  private distances = new Uint16Array(0);

  /** `words`: 32-bit words per vector (dimensions / 32, rounded up). */
  constructor(readonly words: number) {
    this.ids = new Float64Array(1024);
    this.bits = new Uint32Array(1024 * words);
  }

  /** Vectors held. */
  get size(): number {
    return this.used - this.removed;
  }

  /** The largest id ever added (0 when none), even if removed since: the next id added must be larger. */
  get lastAdded(): number {
    return this.lastId;
  }

  /** The largest id held (0 when none). */
  get maxHeld(): number {
    for (let i = this.used - 1; i >= 0; i--) if (this.ids[i]! > 0) return this.ids[i]!;
    return 0;
  }

  /**
   * Appends a vector's sign bits (`words` 32-bit words at `offset` of `source`).
   * @throws RangeError when `id` is not larger than every id added before.
   */
  add(id: number, source: Uint32Array, offset = 0): void {
    if (id <= this.lastId) throw new RangeError(`sign bits: id ${id} is not above ${this.lastId}`);
    if (this.used === this.ids.length) this.grow();
    this.ids[this.used] = id;
    // A loop, not set(subarray()): a subarray per vector costs more than the copy.
    for (let k = 0, to = this.used * this.words; k < this.words; k++) this.bits[to + k] = source[offset + k]!;
    this.used++;
    this.lastId = id;
  }

  /** Forgets a vector; `false` when `id` is not held. */
  remove(id: number): boolean {
    let lo = 0;
    let hi = this.used - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = Math.abs(this.ids[mid]!);
      if (at === id) {
        if (this.ids[mid]! < 0) return false;
        this.ids[mid] = -id;
        this.removed++;
        if (this.removed > 64 && this.removed * 4 > this.used) this.compact();
        return true;
      }
      if (at < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /**
   * The ids of the `count` vectors nearest to `query` by Hamming distance (all of them when there
   * are fewer), in no particular order. Ties at the cut-off distance are taken in id order.
   */
  nearest(query: Uint32Array, count: number): number[] {
    const n = this.used;
    const w = this.words;
    const dims = w * 32;
    if (this.distances.length < n) this.distances = new Uint16Array(this.ids.length);
    const dist = this.distances;
    const histogram = new Uint32Array(dims + 2);
    for (let i = 0, o = 0; i < n; i++, o += w) {
      let d = 0;
      if (this.ids[i]! < 0) d = dims + 1;
      else for (let k = 0; k < w; k++) d += popcount(query[k]! ^ this.bits[o + k]!);
      dist[i] = d;
      histogram[d]!++;
    }
    // The cut-off distance: every vector closer is taken, and as many at the cut-off as still fit.
    let cut = 0;
    let below = 0;
    while (cut <= dims && below + histogram[cut]! < count) below += histogram[cut++]!;
    let room = count - below;
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const d = dist[i]!;
      if (d < cut) out.push(this.ids[i]!);
      else if (d === cut && d <= dims && room > 0) {
        out.push(this.ids[i]!);
        room--;
      }
    }
    return out;
  }

  private grow(): void {
    const ids = new Float64Array(this.ids.length * 2);
    ids.set(this.ids);
    const bits = new Uint32Array(ids.length * this.words);
    bits.set(this.bits);
    this.ids = ids;
    this.bits = bits;
  }

  private compact(): void {
    const w = this.words;
    let to = 0;
    for (let from = 0; from < this.used; from++) {
      if (this.ids[from]! < 0) continue;
      if (to !== from) {
        this.ids[to] = this.ids[from]!;
        this.bits.copyWithin(to * w, from * w, from * w + w);
      }
      to++;
    }
    this.used = to;
    this.removed = 0;
  }
}
