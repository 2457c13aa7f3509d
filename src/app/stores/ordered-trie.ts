/**
 * Synchronous root of an "ordered" Merkle-Patricia trie (key = RLP(index), value = item), as used
 * for a block's transactionsRoot and receiptsRoot. Built in one recursive pass over the sorted keys
 * instead of N trie insertions, and synchronous so that EvmBlock can compute it lazily in a getter.
 */
import { KECCAK256_RLP } from '@ethereumjs/util';
import { keccak256 } from '../../crypto/keccak.js';
import { RLP, type Input } from '@ethereumjs/rlp';

/** keccak256(RLP("")): the root of an empty trie (@ethereumjs/util's constant; no hashing at load). */
export const EMPTY_TRIE_ROOT: Uint8Array = KECCAK256_RLP.slice();

interface Item {
  key: number[];
  value: Uint8Array;
}

export function orderedTrieRoot(values: readonly Uint8Array[]): Uint8Array {
  if (values.length === 0) return EMPTY_TRIE_ROOT;
  const items: Item[] = values.map((value, i) => ({ key: toNibbles(RLP.encode(i)), value }));
  items.sort((a, b) => compareNibbles(a.key, b.key));
  return keccak256(encodeNode(items, 0));
}

/** RLP of the node holding `items` (all sharing their first `depth` nibbles). */
function encodeNode(items: Item[], depth: number): Uint8Array {
  if (items.length === 1) {
    const only = items[0]!;
    return RLP.encode([hexPrefix(only.key.slice(depth), true), only.value]);
  }
  const shared = sharedPrefixLength(items, depth);
  if (shared > 0) {
    return RLP.encode([hexPrefix(items[0]!.key.slice(depth, depth + shared), false), childRef(encodeNode(items, depth + shared))]);
  }
  const branch: Input[] = new Array(17).fill(new Uint8Array(0));
  let start = 0;
  if (items[0]!.key.length === depth) {
    branch[16] = items[0]!.value; // a key that ends here (sorted first)
    start = 1;
  }
  while (start < items.length) {
    const nibble = items[start]!.key[depth]!;
    let end = start + 1;
    while (end < items.length && items[end]!.key[depth] === nibble) end++;
    branch[nibble] = childRef(encodeNode(items.slice(start, end), depth + 1));
    start = end;
  }
  return RLP.encode(branch);
}

/** A child node is embedded when its RLP is shorter than 32 bytes, else referenced by hash. */
function childRef(encoded: Uint8Array): Input {
  return encoded.length < 32 ? (RLP.decode(encoded) as Input) : keccak256(encoded);
}

function sharedPrefixLength(items: Item[], depth: number): number {
  const first = items[0]!.key;
  let len = first.length - depth;
  for (let i = 1; i < items.length && len > 0; i++) {
    const k = items[i]!.key;
    let j = 0;
    while (j < len && depth + j < k.length && k[depth + j] === first[depth + j]) j++;
    len = j;
  }
  return len;
}

function hexPrefix(nibbles: number[], leaf: boolean): Uint8Array {
  const odd = nibbles.length % 2 === 1;
  const out = new Uint8Array(Math.floor(nibbles.length / 2) + 1);
  const flag = (leaf ? 2 : 0) + (odd ? 1 : 0);
  let n = 0;
  if (odd) {
    out[0] = (flag << 4) | nibbles[0]!;
    n = 1;
  } else {
    out[0] = flag << 4;
  }
  for (let i = 1; i < out.length; i++, n += 2) out[i] = (nibbles[n]! << 4) | nibbles[n + 1]!;
  return out;
}

function toNibbles(bytes: Uint8Array): number[] {
  const out = new Array<number>(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    out[2 * i] = bytes[i]! >> 4;
    out[2 * i + 1] = bytes[i]! & 15;
  }
  return out;
}

function compareNibbles(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
