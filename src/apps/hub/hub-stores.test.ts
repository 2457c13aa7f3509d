/**
 * The hub's app hash is its multistore root (acc, bank, ibc as IAVL trees): `/store/bank/key`
 * answers a balance with ICS-23 proofs that verify against the app hash of that height, at a past
 * height too (the bank's gRPC query reads a past height from the trees), and after the app is
 * reopened on the same db the app hash and the proofs are the same.
 */
import { calculateExistenceRoot, iavlSpec, ics23, tendermintSpec, verifyMembership, verifyNonMembership } from '@confio/ics23';
import { QueryBalanceRequest, QueryBalanceResponse } from 'cosmjs-types/cosmos/bank/v1beta1/query';
import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import type { RequestFinalizeBlock, ResponseQuery } from '../../abci/types.js';
import { toBech32 } from '../../crypto/bech32.js';
import { defaultConsensusParams } from '../../types/params.js';
import { HubApp } from './hub-app.js';
import { balanceKey } from './hub-stores.js';

const A = new Uint8Array(20).fill(0xaa);
const B = new Uint8Array(20).fill(0xbb);
const genesis = {
  hub: {
    denom: 'uhub',
    displayDenom: 'HUB',
    decimals: 6,
    bech32Prefix: 'hub',
    minGasPrice: '0',
    accounts: [
      { address: toBech32('hub', A), amount: '1000' },
      { address: toBech32('hub', B), amount: '2000' },
    ],
  },
};

function block(height: number): RequestFinalizeBlock {
  return {
    txs: [],
    decidedLastCommit: { round: 0, votes: [] },
    misbehavior: [],
    hash: new Uint8Array(32).fill(height),
    height,
    time: { seconds: 1_700_000_000 + height, nanos: 0 },
    nextValidatorsHash: new Uint8Array(32),
    proposerAddress: new Uint8Array(20),
  };
}

/** The key → store root → app hash check a relayer (ibc-go's MerkleProof) makes. */
function verifies(r: ResponseQuery, key: Uint8Array, store: string, appHash: Uint8Array): boolean {
  const [inStore, inApp] = r.proofOps!.map((op) => ics23.CommitmentProof.decode(op.data));
  let root: Uint8Array;
  if (r.value === null) {
    root = calculateExistenceRoot((inStore!.nonexist!.left ?? inStore!.nonexist!.right)!);
    if (!verifyNonMembership(inStore!, iavlSpec, root, key)) return false;
  } else {
    root = calculateExistenceRoot(inStore!.exist!);
    if (!verifyMembership(inStore!, iavlSpec, root, key, r.value)) return false;
  }
  return verifyMembership(inApp!, tendermintSpec, appHash, new TextEncoder().encode(store), root);
}

describe('the hub multistore', () => {
  it('proves balances against the app hash, at a past height and after a reopen', async () => {
    const db = new MemoryLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' });
    const app = await HubApp.open(db as never);
    await app.initChain({
      time: { seconds: 1_700_000_000, nanos: 0 },
      chainId: 'hubtest-1',
      consensusParams: defaultConsensusParams(),
      validators: [],
      appStateBytes: new TextEncoder().encode(JSON.stringify(genesis)),
      initialHeight: 1,
    });
    const hashes: Uint8Array[] = [];
    for (const h of [1, 2, 3]) {
      hashes.push((await app.finalizeBlock(block(h))).appHash);
      await app.commit();
    }
    const key = balanceKey(A, 'uhub');
    const q = (height: number, k = key) => app.query({ path: '/store/bank/key', data: k, height, prove: true });
    const at2 = await q(2);
    expect(at2.code).toBe(0);
    expect(new TextDecoder().decode(at2.value!)).toBe('1000');
    expect(at2.proofOps!.map((o) => o.type)).toEqual(['ics23:iavl', 'ics23:simple']);
    expect(verifies(at2, key, 'bank', hashes[1]!)).toBe(true);
    expect(verifies(at2, key, 'bank', hashes[0]!)).toBe(true); // empty blocks keep the hash
    const absentKey = balanceKey(new Uint8Array(20).fill(0xcc), 'uhub');
    const absent = await q(3, absentKey);
    expect(absent.value).toBeNull();
    expect(verifies(absent, absentKey, 'bank', hashes[2]!)).toBe(true);
    expect((await q(0)).height).toBe(3);
    expect((await q(4)).code).toBe(26);
    // Proofs need a height of 2 or more, as in the SDK.
    expect((await q(1)).code).toBe(18);

    // The bank's gRPC query at a past height reads the accounts back from the trees.
    const balanceAt = async (height: number) => {
      const r = await app.query({
        path: '/cosmos.bank.v1beta1.Query/Balance',
        data: QueryBalanceRequest.encode({ address: toBech32('hub', B), denom: 'uhub' }).finish(),
        height,
        prove: false,
      });
      expect(r.code).toBe(0);
      return QueryBalanceResponse.decode(r.value!).balance?.amount;
    };
    expect(await balanceAt(2)).toBe('2000');
    expect(await balanceAt(0)).toBe('2000');

    const info = await app.info({ version: '', blockVersion: 0, p2pVersion: 0, abciVersion: '' });
    const reopened = await HubApp.open(db as never);
    const again = await reopened.info({ version: '', blockVersion: 0, p2pVersion: 0, abciVersion: '' });
    expect(again.lastBlockHeight).toBe(3);
    expect(Buffer.from(again.lastBlockAppHash).toString('hex')).toBe(Buffer.from(info.lastBlockAppHash).toString('hex'));
    const after = await reopened.query({ path: '/store/bank/key', data: key, height: 2, prove: true });
    expect(after.value).toEqual(at2.value);
    expect(verifies(after, key, 'bank', hashes[1]!)).toBe(true);
    // The next block on the reopened app has the hash the first app gives it.
    const next = (await reopened.finalizeBlock(block(4))).appHash;
    expect(Buffer.from(next).toString('hex')).toBe(Buffer.from((await app.finalizeBlock(block(4))).appHash).toString('hex'));
  });
});
