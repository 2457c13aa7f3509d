/**
 * ethereumjs's state caches (`Caches`: accounts, storage, code) keep their entries in a red-black
 * tree (@js-sdsl OrderedMap) by default: every get and put compares 40-character hex keys
 * O(log n) times and allocates a tree node, on every account a tx touches (≈ 9 cache operations a
 * plain transfer). They never read it in key order (a flush walks its diff map; the trie writes are
 * sorted by the bulk update), so a Map serves them: the five OrderedMap methods they call, O(1).
 * The LRU type is no alternative: an eviction before a flush would drop a write.
 */
import { Caches } from '@ethereumjs/statemanager';

/** The OrderedMap methods the caches call, on a Map. */
class HashCacheMap<V> {
  private readonly m = new Map<string, V>();
  getElementByKey(key: string): V | undefined {
    return this.m.get(key);
  }
  setElement(key: string, value: V): number {
    this.m.set(key, value);
    return this.m.size;
  }
  eraseElementByKey(key: string): boolean {
    return this.m.delete(key);
  }
  size(): number {
    return this.m.size;
  }
  clear(): void {
    this.m.clear();
  }
}

type CacheWithMap = { _orderedMapCache?: unknown };

/** Gives each ordered-map cache of `caches` a Map instead (before any use); returns `caches`. */
export function useHashMaps(caches: Caches): Caches {
  for (const c of [caches.account, caches.storage, caches.code] as (CacheWithMap | undefined)[]) {
    // Only where ethereumjs made an OrderedMap: an LRU-typed cache is left as it is.
    if (c && c._orderedMapCache !== undefined) c._orderedMapCache = new HashCacheMap<unknown>();
  }
  return caches;
}

/** `new Caches(opts)` with Map-backed caches. */
export function hashCaches(opts?: ConstructorParameters<typeof Caches>[0]): Caches {
  return useHashMaps(new Caches(opts));
}
