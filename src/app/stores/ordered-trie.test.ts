import { describe, expect, it } from 'vitest';
import { createMPT } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { EMPTY_TRIE_ROOT, orderedTrieRoot } from './ordered-trie.js';

async function referenceRoot(values: Uint8Array[]): Promise<Uint8Array> {
  const trie = await createMPT();
  for (const [i, v] of values.entries()) await trie.put(RLP.encode(i), v);
  return trie.root();
}

function values(n: number, size: (i: number) => number): Uint8Array[] {
  return Array.from({ length: n }, (_, i) => {
    const v = new Uint8Array(size(i));
    for (let j = 0; j < v.length; j++) v[j] = (i * 31 + j * 7) & 0xff;
    return v;
  });
}

describe('orderedTrieRoot', () => {
  it('is the empty-trie root for no items', async () => {
    expect(orderedTrieRoot([])).toEqual(EMPTY_TRIE_ROOT);
    expect(EMPTY_TRIE_ROOT).toEqual(await referenceRoot([]));
  });

  it.each([1, 2, 3, 16, 17, 127, 128, 129, 300])('matches the ethereumjs trie for %i large items', async (n) => {
    const vs = values(n, (i) => 40 + (i % 90));
    expect(Buffer.from(orderedTrieRoot(vs)).toString('hex')).toBe(Buffer.from(await referenceRoot(vs)).toString('hex'));
  });

  it('matches the ethereumjs trie when nodes are small enough to be embedded', async () => {
    for (const n of [1, 2, 5, 20, 130]) {
      const vs = values(n, (i) => 1 + (i % 3));
      expect(Buffer.from(orderedTrieRoot(vs)).toString('hex')).toBe(Buffer.from(await referenceRoot(vs)).toString('hex'));
    }
  });
});
