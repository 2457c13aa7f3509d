/**
 * The chain kinds a network is assembled from. Adding a kind is one folder under src/chains (its
 * spec and start, defaults, and a `ChainKind` descriptor; a routing adapter and an IBC endpoint if
 * it has them) and one line in BUILTIN_KINDS; the CLI's `--chains`, the banner, `config show`,
 * the explorer's chain list, `/v2/info/chains` and the IBC wiring read them from here.
 */
import { evmKind } from './evm/kind.js';
import { hubKind } from './hub/kind.js';
import { kvstoreKind } from './kvstore/kind.js';
import { svmKind } from './svm/kind.js';
import type { Chain, ChainKind } from './types.js';

export const BUILTIN_KINDS = [evmKind, hubKind, kvstoreKind, svmKind] as const;

/** A spec of any built-in kind (`{ kind: 'hub', … }`). */
export type ChainSpec = (typeof BUILTIN_KINDS)[number] extends infer K ? (K extends ChainKind<infer S, Chain> ? S : never) : never;

/** A chain of any built-in kind (narrows by `kind`: `c.kind === 'hub'` is a HubChain). */
export type BuiltinChain = (typeof BUILTIN_KINDS)[number] extends infer K ? (K extends ChainKind<{ kind: string }, infer C> ? C : never) : never;

/** The kinds a network may start: the built-in ones, and more given to `startNetwork` (a test's). */
export class ChainRegistry {
  private readonly kinds = new Map<string, ChainKind>();

  constructor(kinds: readonly ChainKind[] = BUILTIN_KINDS as readonly ChainKind[]) {
    for (const k of kinds) this.add(k);
  }

  /** This registry with `more` kinds added. */
  with(...more: ChainKind[]): ChainRegistry {
    return new ChainRegistry([...this.kinds.values(), ...more]);
  }

  get(name: string): ChainKind {
    const k = this.kinds.get(name);
    if (!k) throw new Error(`unknown chain kind "${name}": expected one of ${this.names().join(', ')}`);
    return k;
  }

  names(): string[] {
    return [...this.kinds.keys()];
  }

  list(): ChainKind[] {
    return [...this.kinds.values()];
  }

  private add(k: ChainKind): void {
    if (this.kinds.has(k.name)) throw new Error(`chain kind "${k.name}" is registered twice`);
    this.kinds.set(k.name, k);
  }
}
