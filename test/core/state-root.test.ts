/**
 * The app hash is the canonical state root: after blocks that create, update and empty accounts,
 * every leaf of the node's account trie, put one by one into a fresh ethereumjs trie, gives the
 * same root. The node writes the account trie in one pass per block (src/app/stores/bulk-trie.ts); a
 * trie of the wrong shape would still hold the right leaves but hash to another root.
 */
import { MerklePatriciaTrie, type LeafMPTNode, type MPTNode } from '@ethereumjs/mpt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEthTransferBlock, DEV_KEY_0, signEthTransfer } from '../../src/app/fixtures/signed-txs.js';
import { startNode, type ChainletNode } from '../../src/node/node.js';

let node: ChainletNode;

beforeAll(async () => {
  const block = buildEthTransferBlock(300, { label: 'chainlet-state-root-test' });
  node = await startNode({
    servers: false,
    config: { consensus: { mode: 'manual' }, mempool: { size: 5_000, cacheSize: 5_000 } },
    devnet: { accounts: 2, extraAlloc: block.alloc },
  });
  // Block 1: 300 senders each pay a new account.
  for (const tx of block.txs) expect((await node.broadcastTx(tx)).code).toBe(0);
  await node.mine(1);
  // Block 2: the dev account pays some of the new accounts again (updates of existing leaves).
  for (let i = 0; i < 20; i++) {
    const to = `0x${(0xc0ffee000000n + BigInt(i * 7)).toString(16).padStart(40, '0')}`;
    expect((await node.broadcastTx(signEthTransfer(DEV_KEY_0, to, 5n, { nonce: BigInt(i), chainId: BigInt(node.evmChainId) }))).code).toBe(0);
  }
  await node.mine(1);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

async function leaves(trie: MerklePatriciaTrie): Promise<[Uint8Array, Uint8Array][]> {
  const out: [Uint8Array, Uint8Array][] = [];
  await trie.walkAllValueNodes(async (n: MPTNode, path: number[]) => {
    const nibbles = [...path, ...(n as LeafMPTNode).key()];
    const key = new Uint8Array(nibbles.length / 2);
    for (let i = 0; i < key.length; i++) key[i] = (nibbles[2 * i]! << 4) | nibbles[2 * i + 1]!;
    out.push([key, (n as LeafMPTNode).value()!]);
  });
  return out;
}

describe('state root', () => {
  it('equals the root of a trie rebuilt from its leaves with one put per key', async () => {
    // The block at initial_height, then the two blocks of txs.
    expect(node.height).toBe(3);
    const sm = await node.internals.app.evm.stateAt(node.height);
    const trie = (sm as unknown as { _trie: MerklePatriciaTrie })._trie;
    const all = await leaves(trie);
    // Genesis accounts (2 dev, 300 senders) plus 300 recipients.
    expect(all.length).toBeGreaterThanOrEqual(602);
    const fresh = new MerklePatriciaTrie({ useKeyHashing: false });
    for (const [k, v] of all) await fresh.put(k, v);
    const root = await sm.getStateRoot();
    expect(Buffer.from(fresh.root()).toString('hex')).toBe(Buffer.from(root).toString('hex'));
  });
});
