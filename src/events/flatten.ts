/**
 * ABCI events → the flat `type.key` → values map that queries match (CometBFT's
 * validateAndStringifyEvents). Events with an empty type and attributes with an empty key are
 * skipped; the attribute `index` flag does not matter here (it only steers the kv indexers).
 */
import type { AbciEvent } from '../abci/types.js';

export function flattenEvents(abciEvents: readonly AbciEvent[], into: Record<string, string[]> = {}): Record<string, string[]> {
  for (const event of abciEvents) {
    if (event.type === '') continue;
    for (const attr of event.attributes) {
      if (attr.key === '') continue;
      const tag = `${event.type}.${attr.key}`;
      const values = into[tag];
      if (values) values.push(attr.value);
      else into[tag] = [attr.value];
    }
  }
  return into;
}

/** Appends one value under `key`, keeping values already there (CometBFT appends reserved keys). */
export function appendEvent(events: Record<string, string[]>, key: string, value: string): void {
  const values = events[key];
  if (values) values.push(value);
  else events[key] = [value];
}
