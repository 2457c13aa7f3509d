import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, createAccount, createAddressFromString } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { CheckTxType } from '../../abci/types.js';
import { addressKey, CommittedState } from './committed-state.js';
import { DEV_ADDRESS_0, DEV_KEY_0, addressOfKey, signEthTransfer, throwawayKeys } from '../fixtures/signed-txs.js';
import { PROPOSER, blockHash, startTestChain } from '../fixtures/test-chain.js';

const A = new Address(new Uint8Array(20).fill(0xa));
const B = new Address(new Uint8Array(20).fill(0xb));
const TO = '0x000000000000000000000000000000000000beef';

/** A stand-in for the trie at one root: a map of accounts, counting reads. */
class FakeTrie {
  reads = 0;
  constructor(readonly accounts: Map<string, Account>) {}
  async getAccount(a: Address): Promise<Account | undefined> {
    this.reads++;
    return this.accounts.get(addressKey(a));
  }
  async getCode(): Promise<Uint8Array> {
    return new Uint8Array(0);
  }
}

function fakeChain(initial: Record<string, Account>) {
  const roots = new Map<string, Map<string, Account>>([['r0', new Map(Object.entries(initial))]]);
  const opened: FakeTrie[] = [];
  const open = (root: Uint8Array | undefined) => {
    const t = new FakeTrie(roots.get(root === undefined ? 'r0' : new TextDecoder().decode(root))!);
    opened.push(t);
    return t as unknown as MerkleStateManager;
  };
  return { roots, opened, open, root: (name: string) => new TextEncoder().encode(name) };
}

const acc = (nonce: bigint, balance: bigint) => createAccount({ nonce, balance });

describe('CommittedState', () => {
  it('reads an account from the trie once, then from memory', async () => {
    const c = fakeChain({ [addressKey(A)]: acc(1n, 100n) });
    const s = new CommittedState(c.open, undefined);
    expect((await s.getAccount(A))?.nonce).toBe(1n);
    expect(await s.getAccount(B)).toBeUndefined();
    expect((await s.getAccount(A))?.balance).toBe(100n);
    expect(await s.getAccount(B)).toBeUndefined();
    expect(c.opened[0]!.reads).toBe(2);
  });

  it('takes every written account at a commit point and reads the rest at the new root', async () => {
    const c = fakeChain({ [addressKey(A)]: acc(1n, 100n), [addressKey(B)]: acc(0n, 5n) });
    const s = new CommittedState(c.open, undefined);
    await s.getAccount(A);
    await s.getAccount(B);
    // The new root: A spent, B deleted, C created.
    const C = new Address(new Uint8Array(20).fill(0xc));
    c.roots.set(
      'r1',
      new Map([
        [addressKey(A), acc(2n, 90n)],
        [addressKey(C), acc(0n, 7n)],
      ]),
    );
    s.advance(
      c.root('r1'),
      new Map<string, Uint8Array | undefined>([
        [addressKey(A), acc(2n, 90n).serialize()],
        [addressKey(B), undefined],
      ]),
    );
    expect((await s.getAccount(A))?.nonce).toBe(2n);
    expect(await s.getAccount(B)).toBeUndefined();
    expect((await s.getAccount(C))?.balance).toBe(7n); // not written: from the trie at r1
    expect(c.opened[1]!.reads).toBe(1);
  });

  it('opens the trie at a new root only when a read misses the accounts in memory', async () => {
    const c = fakeChain({ [addressKey(A)]: acc(1n, 100n) });
    const s = new CommittedState(c.open, undefined);
    expect(c.opened).toHaveLength(0);
    await s.getAccount(A);
    expect(c.opened).toHaveLength(1);
    c.roots.set('r1', new Map([[addressKey(A), acc(2n, 90n)]]));
    c.roots.set(
      'r2',
      new Map([
        [addressKey(A), acc(3n, 80n)],
        [addressKey(B), acc(0n, 5n)],
      ]),
    );
    s.advance(c.root('r1'), new Map([[addressKey(A), acc(2n, 90n).serialize()]]));
    s.advance(c.root('r2'), new Map([[addressKey(A), acc(3n, 80n).serialize()]]));
    expect((await s.getAccount(A))?.nonce).toBe(3n); // in memory: no trie at r1 or r2 opened
    expect(c.opened).toHaveLength(1);
    expect((await s.getAccount(B))?.balance).toBe(5n); // a miss: the trie at r2, the latest root
    expect(c.opened).toHaveLength(2);
  });

  it('does not remember a trie read that a commit overtook', async () => {
    const c = fakeChain({ [addressKey(A)]: acc(1n, 100n) });
    const s = new CommittedState(c.open, undefined);
    const inFlight = s.getAccount(A); // reads r0
    c.roots.set('r1', new Map([[addressKey(A), acc(1n, 100n)]]));
    s.advance(c.root('r1'), new Map()); // A unchanged by the block, so not written
    c.roots.get('r1')!.set(addressKey(A), acc(3n, 1n)); // (a later change the map must not hide)
    expect((await inFlight)?.nonce).toBe(1n);
    expect((await s.getAccount(A))?.nonce).toBe(3n); // read again at r1, not the r0 value
  });

  it('forgets everything on reset, and stays within its bound', async () => {
    const c = fakeChain({ [addressKey(A)]: acc(1n, 1n), [addressKey(B)]: acc(2n, 2n) });
    const s = new CommittedState(c.open, undefined, 10);
    await s.getAccount(A);
    c.roots.set('r9', new Map([[addressKey(A), acc(9n, 9n)]]));
    s.reset(c.root('r9'));
    expect(s.size).toBe(0);
    expect((await s.getAccount(A))?.nonce).toBe(9n);

    const many = new Map<string, Uint8Array | undefined>();
    for (let i = 0; i < 25; i++) many.set(addressKey(new Address(new Uint8Array(20).fill(i + 0x20))), acc(BigInt(i), 1n).serialize());
    s.advance(c.root('r9'), many);
    expect(s.size).toBeLessThanOrEqual(10);
    expect((await s.getAccount(new Address(new Uint8Array(20).fill(24 + 0x20))))?.nonce).toBe(24n);
  });
});

describe('CheckTx reads the committed state from memory', () => {
  it('sees each committed block, never a finalized-but-uncommitted one', async () => {
    const chain = await startTestChain();
    const tx0 = signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 0n });
    expect((await chain.check(tx0)).senderStateNonce).toBe(0n);
    await chain.block([tx0]);
    expect(await chain.check(signEthTransfer(DEV_KEY_0, TO, 2n, { nonce: 0n }))).toMatchObject({ code: 3 });
    expect((await chain.check(signEthTransfer(DEV_KEY_0, TO, 2n, { nonce: 1n }))).senderStateNonce).toBe(1n);

    // A block finalized but abandoned (another one is decided at that height) never reaches CheckTx.
    const abandoned = signEthTransfer(DEV_KEY_0, TO, 3n, { nonce: 1n });
    const req = (txs: Uint8Array[]) => ({
      txs,
      decidedLastCommit: { round: 0, votes: [] },
      misbehavior: [],
      hash: blockHash(2),
      height: 2,
      time: { seconds: 1_700_000_100, nanos: 0 },
      nextValidatorsHash: new Uint8Array(32),
      proposerAddress: PROPOSER,
    });
    await chain.app.finalizeBlock(req([abandoned]));
    expect((await chain.check(signEthTransfer(DEV_KEY_0, TO, 4n, { nonce: 1n }))).code).toBe(0); // still nonce 1: not committed
    await chain.app.finalizeBlock(req([])); // the height is decided without it
    await chain.app.commit();
    chain.height = 2;
    expect((await chain.check(signEthTransfer(DEV_KEY_0, TO, 5n, { nonce: 1n }))).senderStateNonce).toBe(1n);
  });

  it('sees accounts a block created or emptied, and rechecks against the new state', async () => {
    const [key] = throwawayKeys(1, 'committed-state-test');
    const fresh = addressOfKey(key!);
    const chain = await startTestChain();
    const spend = signEthTransfer(key!, TO, 1n, { nonce: 0n });
    expect(await chain.check(spend)).toMatchObject({ code: 5 }); // no funds yet
    await chain.block([signEthTransfer(DEV_KEY_0, fresh, 10n ** 17n, { nonce: 0n })]);
    expect(await chain.check(spend, CheckTxType.Recheck)).toMatchObject({ code: 0, sender: fresh, senderStateNonce: 0n });
    // It sends almost everything away: the next tx cannot pay its gas.
    await chain.block([signEthTransfer(key!, TO, 10n ** 17n - 21_000n * 10_000_000_000n, { nonce: 0n })]);
    expect(await chain.check(signEthTransfer(key!, TO, 1n, { nonce: 1n }))).toMatchObject({ code: 5 });
  });

  it('sees devnet state edits and a db reloaded underneath (snapshot revert)', async () => {
    const chain = await startTestChain();
    const admin = chain.app.admin;
    const dev0 = createAddressFromString(DEV_ADDRESS_0);
    await chain.block([signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 0n })]);

    // Snapshot the db (as evm_snapshot does), move on, then put it back and reload.
    const saved: [Uint8Array, Uint8Array][] = [];
    for await (const [k, v] of chain.db.iterator({ keyEncoding: 'view', valueEncoding: 'view' })) saved.push([k as Uint8Array, v as Uint8Array]);
    await chain.block([signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 1n })]);
    expect((await chain.check(signEthTransfer(DEV_KEY_0, TO, 9n, { nonce: 2n }))).senderStateNonce).toBe(2n);
    await chain.db.clear();
    await chain.db.batch(
      saved.map(([key, value]) => ({ type: 'put' as const, key, value })),
      { keyEncoding: 'view', valueEncoding: 'view' },
    );
    await admin.reload();
    expect((await chain.check(signEthTransfer(DEV_KEY_0, TO, 9n, { nonce: 1n }))).senderStateNonce).toBe(1n);

    await admin.editAccount(dev0, { nonce: 7n });
    expect(await chain.check(signEthTransfer(DEV_KEY_0, TO, 9n, { nonce: 1n }))).toMatchObject({
      code: 3,
      log: 'invalid nonce; got 1, expected 7: invalid sequence',
    });
    await admin.editAccount(dev0, { balance: 1000n });
    expect(await chain.check(signEthTransfer(DEV_KEY_0, TO, 9n, { nonce: 7n }))).toMatchObject({ code: 5 });
  });
});
