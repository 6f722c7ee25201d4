/**
 * A map holding at most `max` entries: setting one more drops the least recently set.
 *
 * Entries live in one `Map` in set order (setting a key again moves it to the end). The oldest is
 * found with one iterator kept across calls: a `Map` iterator stays valid while the map changes and
 * never revisits a position, so each eviction skips only the holes left since the last one. The
 * common idiom, `keys().next()` on a fresh iterator, walks every hole that deletes left at the front
 * of the table, which made each insert O(n) in long-running servers. No wrapper object or side
 * array per entry, so a full map costs the garbage collector only the entries themselves.
 */
export class LruMap<K, V> {
  private readonly map = new Map<K, V>();
  /** Walks the keys oldest first; the keys before its position are all gone. */
  private oldest: Iterator<K> | undefined;
  /** The most recently set key (setting it again moves nothing). */
  private newest: K | undefined;

  constructor(readonly max: number) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Sets `key` (now the most recently set) and drops the least recently set beyond `max`. */
  set(key: K, value: V): this {
    const map = this.map;
    if (key === this.newest && map.has(key)) {
      // Already the most recently set (a task saved after each of its events): nothing moves.
      map.set(key, value);
      return this;
    }
    // A new key (the common case) is added at the end by one `set`; a key already there keeps its
    // place on `set`, so it is deleted and set again to become the most recent.
    const size = map.size;
    map.set(key, value);
    if (map.size === size) {
      map.delete(key);
      map.set(key, value);
    }
    this.newest = key;
    while (map.size > this.max) {
      let next = this.oldest?.next();
      if (!next || next.done) {
        // None yet, or finished (only when the map emptied under it): start at the front.
        this.oldest = map.keys();
        next = this.oldest.next();
        if (next.done) break;
      }
      map.delete(next.value);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  /** The entries, least recently set first. */
  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }

  /** The values, least recently set first. */
  values(): IterableIterator<V> {
    return this.map.values();
  }
}
