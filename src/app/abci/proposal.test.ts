import { describe, expect, it } from 'vitest';
import { ProposalStatus, type RequestPrepareProposal } from '../../abci/types.js';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, DEV_KEY_0, DEV_KEY_1, signEthTransfer } from '../fixtures/signed-txs.js';
import { PROPOSER, startTestChain } from '../fixtures/test-chain.js';

const TO = '0x000000000000000000000000000000000000beef';
const GWEI = 1_000_000_000n;

function prepare(txs: Uint8Array[], maxTxBytes = 1_000_000): RequestPrepareProposal {
  return {
    maxTxBytes,
    txs,
    localLastCommit: { round: 0, votes: [] },
    misbehavior: [],
    height: 1,
    time: { seconds: 1, nanos: 0 },
    nextValidatorsHash: new Uint8Array(32),
    proposerAddress: PROPOSER,
  };
}

const tx = (key: string, nonce: bigint, tip: bigint) => signEthTransfer(key, TO, 1n, { nonce, maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: tip * GWEI });

describe('PrepareProposal / ProcessProposal', () => {
  it('orders by nonce per sender and by tip across senders, dropping bad txs', async () => {
    const chain = await startTestChain();
    const a0 = tx(DEV_KEY_0, 0n, 1n);
    const a1 = tx(DEV_KEY_0, 1n, 50n); // high tip, but must follow a0
    const b0 = tx(DEV_KEY_1, 0n, 5n);
    const b1 = tx(DEV_KEY_1, 1n, 2n);
    const gap = tx(DEV_KEY_0, 7n, 99n);
    const garbage = new Uint8Array([1, 2, 3]);
    const { txs } = await chain.app.prepareProposal(prepare([a1, garbage, b1, a0, gap, b0]));
    expect(txs).toEqual([b0, b1, a0, a1]);
  });

  it('breaks tip ties by arrival order and respects max tx bytes and block gas', async () => {
    const chain = await startTestChain({ maxGas: 50_000 });
    const a0 = tx(DEV_KEY_0, 0n, 3n);
    const b0 = tx(DEV_KEY_1, 0n, 3n);
    const a1 = tx(DEV_KEY_0, 1n, 3n);
    const all = await chain.app.prepareProposal(prepare([b0, a0, a1]));
    expect(all.txs).toEqual([b0, a0]); // 2 × 21000 gas fit in 50000, a third does not

    const chain2 = await startTestChain();
    const oneTx = b0.length + 2;
    const small = await chain2.app.prepareProposal(prepare([b0, a0, a1], oneTx * 2));
    expect(small.txs).toEqual([b0, a0]);
    // The drop of a0 also drops a1 (its nonce can no longer follow).
    const tiny = await chain2.app.prepareProposal(prepare([a0, a1, b0], oneTx));
    expect(tiny.txs).toEqual([a0]);
  });

  it('skips txs whose nonce is already used in the committed state', async () => {
    const chain = await startTestChain();
    const a0 = tx(DEV_KEY_0, 0n, 1n);
    await chain.block([a0]);
    const a1 = tx(DEV_KEY_0, 1n, 1n);
    expect((await chain.app.prepareProposal(prepare([a0, a1]))).txs).toEqual([a1]);
  });

  it('accepts a proposal iff every tx decodes for this chain', async () => {
    const chain = await startTestChain();
    const ok = [tx(DEV_KEY_0, 0n, 1n), tx(DEV_KEY_1, 3n, 1n)];
    const base = {
      proposedLastCommit: { round: 0, votes: [] },
      misbehavior: [],
      hash: new Uint8Array(32),
      height: 1,
      time: { seconds: 1, nanos: 0 },
      nextValidatorsHash: new Uint8Array(32),
      proposerAddress: PROPOSER,
    };
    expect((await chain.app.processProposal({ ...base, txs: ok })).status).toBe(ProposalStatus.Accept);
    expect((await chain.app.processProposal({ ...base, txs: [] })).status).toBe(ProposalStatus.Accept);
    const otherChain = signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 0n, chainId: 1n });
    expect((await chain.app.processProposal({ ...base, txs: [...ok, otherChain] })).status).toBe(ProposalStatus.Reject);
    expect((await chain.app.processProposal({ ...base, txs: [new Uint8Array([0xc0])] })).status).toBe(ProposalStatus.Reject);
    expect(DEV_ADDRESS_0).not.toBe(DEV_ADDRESS_1);
  });
});
