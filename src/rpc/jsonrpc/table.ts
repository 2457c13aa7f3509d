/**
 * Method tables looked up by a name the request supplies. A plain object would answer
 * `constructor`, `__proto__` or `toString` from Object.prototype (and a caller would then run
 * it); a Map built from the table's own entries knows only the names written in it.
 */

/** The own entries of `table` as a Map; build it once, at module load. */
export function methodTable<T>(table: Readonly<Record<string, T>>): ReadonlyMap<string, T> {
  return new Map(Object.entries(table));
}
