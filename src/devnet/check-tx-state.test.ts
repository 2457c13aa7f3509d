/**
 * CheckTx keeps committed accounts in memory (src/app/stores/committed-state.ts): whatever moves the
 * committed state — blocks, replaced txs, rechecks, devnet edits, snapshot reverts — the next
 * CheckTx must see the state as committed.
 */
import { createAddressFromString } from '@ethereumjs/util';
import { afterEach, describe, expect, it } from 'vitest';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, DEV_KEY_0, signEthTransfer } from '../app/fixtures/signed-txs.js';
import { startNode, type ChainletNode } from '../node/node.js';

const nodes: ChainletNode[] = [];
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((n) => n.stop()));
});

async function manualNode(): Promise<ChainletNode> {
  const n = await startNode({ servers: false, config: { consensus: { mode: 'manual' } } });
  nodes.push(n);
  return n;
}

const send = (nonce: bigint, value = 1n, fee?: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }) =>
  signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, value, { nonce, ...fee });

describe('CheckTx after the committed state moves', () => {
  it('follows blocks, replacements and rechecks', async () => {
    const n = await manualNode();
    expect((await n.broadcastTx(send(0n))).code).toBe(0);
    const replacement = send(0n, 2n, { maxFeePerGas: 20_000_000_000n, maxPriorityFeePerGas: 2_000_000_000n });
    expect((await n.broadcastTx(replacement)).code).toBe(0); // same nonce, twice the fees: replaces
    expect(n.internals.mempool.size()).toBe(1);
    expect((await n.broadcastTx(send(1n))).code).toBe(0);
    expect((await n.broadcastTx(send(3n))).code).toBe(0); // queued behind a gap
    await n.mine(1);
    const block = (await n.internals.blockStore.loadBlock(n.height))!;
    expect(block.data.txs.length).toBe(2);
    expect(Buffer.from(block.data.txs[0]!).equals(Buffer.from(replacement))).toBe(true);

    // The recheck after the block kept the queued tx against the new nonce (2).
    expect(n.internals.mempool.size()).toBe(1);
    expect(await n.broadcastTx(send(1n, 5n))).toMatchObject({ code: 3, log: 'invalid nonce; got 1, expected 2: invalid sequence' });
    expect(await n.broadcastTx(send(2n))).toMatchObject({ code: 0, senderStateNonce: 2n });
    await n.mine(1);
    expect(n.internals.mempool.size()).toBe(0); // nonces 2 and 3 went in
    expect(await n.broadcastTx(send(3n, 9n))).toMatchObject({ code: 3, log: 'invalid nonce; got 3, expected 4: invalid sequence' });
  });

  it('follows devnet state edits and snapshot reverts', async () => {
    const n = await manualNode();
    const d = n.internals.devnet;
    await n.broadcastTx(send(0n));
    await n.mine(1);
    const id = await d.snapshot();
    await n.broadcastTx(send(1n));
    await n.mine(1);
    expect(await n.broadcastTx(send(1n, 7n))).toMatchObject({ code: 3 });

    expect(await d.revert(id)).toBe(true);
    expect(await n.broadcastTx(send(1n, 7n))).toMatchObject({ code: 0, senderStateNonce: 1n });

    await d.setNonce(createAddressFromString(DEV_ADDRESS_0), 40n);
    expect(await n.broadcastTx(send(2n))).toMatchObject({ code: 3, log: 'invalid nonce; got 2, expected 40: invalid sequence' });
    await d.setBalance(createAddressFromString(DEV_ADDRESS_0), 10n);
    expect(await n.broadcastTx(send(40n))).toMatchObject({ code: 5 });
  });
});
