/**
 * A map holding at most `max` entries: setting one more drops the least recently set. Unlike
 * the common `Map` idiom (delete + set to refresh, `keys().next()` to evict), eviction never
 * walks the holes that deleted entries leave in a `Map`, which made each insert cost O(n) in
 * long-running servers. Iteration follows first insertion.
 */
export class LruMap<K, V> {
  private readonly map = new Map<K, { value: V; stamp: number }>();
  /** Set order, oldest first from `head`; an entry is stale once its key was set again. */
  private keys: K[] = [];
  private stamps: number[] = [];
  private head = 0;
  private stamp = 0;

  constructor(readonly max: number) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key)?.value;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Sets `key` (now the most recently set) and drops the least recently set beyond `max`. */
  set(key: K, value: V): this {
    const entry = this.map.get(key);
    if (entry && entry.stamp === this.stamp) {
      // Already the most recently set (a task saved after each of its events): nothing moves.
      entry.value = value;
      return this;
    }
    const stamp = ++this.stamp;
    if (entry) {
      entry.value = value;
      entry.stamp = stamp;
    } else this.map.set(key, { value, stamp });
    this.keys.push(key);
    this.stamps.push(stamp);
    while (this.map.size > this.max && this.head < this.keys.length) {
      const old = this.keys[this.head];
      if (this.map.get(old)?.stamp === this.stamps[this.head]) this.map.delete(old);
      this.head++;
    }
    // Reclaim the consumed prefix, and stale entries once they outnumber the live ones.
    if ((this.head > 1024 && this.head * 2 > this.keys.length) || this.keys.length - this.head > 2 * this.map.size + 1024) this.compact();
    return this;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  *values(): IterableIterator<V> {
    for (const e of this.map.values()) yield e.value;
  }

  private compact(): void {
    const keys: K[] = [];
    const stamps: number[] = [];
    for (let i = this.head; i < this.keys.length; i++) {
      if (this.map.get(this.keys[i])?.stamp === this.stamps[i]) {
        keys.push(this.keys[i]);
        stamps.push(this.stamps[i]);
      }
    }
    this.keys = keys;
    this.stamps = stamps;
    this.head = 0;
  }
}
