/**
 * A failed write of the tx index: the node must not answer `tx` / `tx_search` / `block_search`
 * from a stale index, and it stops producing blocks (as CometBFT stops on a failed store).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { b64, call, signTransfer, startCometTestNode, type CometTestNode } from './helpers.js';

let t: CometTestNode;

beforeAll(async () => {
  t = await startCometTestNode();
});

afterAll(async () => {
  await t?.stop();
});

describe('a tx index write that fails', () => {
  it('halts the chain, and the readers answer -32603 naming the failure instead of stale results', async () => {
    const first = await call(t.url, 'broadcast_tx_commit', { tx: b64(await signTransfer({ nonce: 0 })) });
    expect((await call(t.url, 'tx', { hash: b64(Buffer.from(first.result.hash, 'hex')) })).result.height).toBe(first.result.height);

    // Every write into the txindex sublevel fails from now on (the db's own hook, as a full disk would).
    t.node.internals.db.hooks.prewrite.add((op: { sublevel?: { prefix?: string } }) => {
      if (op.sublevel?.prefix?.includes('txindex')) throw new Error('disk full');
    });
    const second = await call(t.url, 'broadcast_tx_commit', { tx: b64(await signTransfer({ nonce: 1 })) });
    const height = Number(second.result.height);
    expect(height).toBeGreaterThan(Number(first.result.height));

    const search = await call(t.url, 'tx_search', { query: 'tx.height >= 1' });
    expect(search.result).toBeUndefined();
    expect(search.error.code).toBe(-32603);
    expect(search.error.data).toMatch(new RegExp(`^indexing block ${height} failed: `));
    // Not the stale answer for a tx indexed before the failure either, nor block_search.
    const old = await call(t.url, 'tx', { hash: b64(Buffer.from(first.result.hash, 'hex')) });
    expect(old.error?.data).toMatch(new RegExp(`^indexing block ${height} failed`));
    const blocks = await call(t.url, 'block_search', { query: 'block.height >= 1' });
    expect(blocks.error?.data).toMatch(new RegExp(`^indexing block ${height} failed`));

    // No later block: production stopped on the failure.
    await expect(t.node.mine(1)).rejects.toThrow(new RegExp(`indexing block ${height} failed`));
    expect(t.node.height).toBe(height);
  });
});
