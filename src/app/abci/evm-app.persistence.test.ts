import { describe, expect, it } from 'vitest';
import { Address } from '@ethereumjs/util';
import type { RequestInfo } from '../../abci/types.js';
import { createEvmApp } from './evm-app.js';
import { HeightNotAvailableError } from '../../sdk/errors.js';
import { DEV_ADDRESS_0, DEV_KEY_0, signErc20Deploy, signEthTransfer } from '../fixtures/signed-txs.js';
import { attachTestChain, blockHash, initChainRequest, newMemoryDb, startTestChain } from '../fixtures/test-chain.js';
import { evmAppHash } from '../../ibc/app-stores.js';

const INFO: RequestInfo = { version: '0.38.0', blockVersion: 11, p2pVersion: 8, abciVersion: '2.0.0' };
const TO = '0x000000000000000000000000000000000000beef';
const addr = (s: string) => new Address(Buffer.from(s.slice(2), 'hex'));

describe('InitChain, Info and persistence', () => {
  it('reports empty Info before InitChain and the package version', async () => {
    const app = await createEvmApp({ db: newMemoryDb() });
    const info = await app.info(INFO);
    expect(info).toMatchObject({ data: 'chainlet', appVersion: 1, lastBlockHeight: 0 });
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(info.lastBlockAppHash).toHaveLength(0);
  });

  it('returns a deterministic genesis app hash that depends on the alloc', async () => {
    const alloc = {
      [DEV_ADDRESS_0]: { balance: '1000', nonce: '3', code: '0x6000', storage: { '0x01': '0x2a' } },
      '0x000000000000000000000000000000000000aaaa': { balance: '5' },
    };
    const reversed = Object.fromEntries(Object.entries(alloc).reverse());
    const a = await (await createEvmApp({ db: newMemoryDb() })).initChain(initChainRequest({ alloc }));
    const b = await (await createEvmApp({ db: newMemoryDb() })).initChain(initChainRequest({ alloc: reversed }));
    const c = await (await createEvmApp({ db: newMemoryDb() })).initChain(initChainRequest({ alloc: { ...alloc, [TO]: { balance: '1' } } }));
    expect(a.appHash).toHaveLength(32);
    expect(a.appHash).toEqual(b.appHash);
    expect(a.appHash).not.toEqual(c.appHash);
    expect(a.validators).toEqual([]);

    const chain = await startTestChain({ alloc });
    const state = await chain.app.evm.stateAt(0);
    const acc = (await state.getAccount(addr(DEV_ADDRESS_0)))!;
    expect(acc.balance).toBe(1000n);
    expect(acc.nonce).toBe(3n);
    expect(await state.getCode(addr(DEV_ADDRESS_0))).toEqual(new Uint8Array([0x60, 0x00]));
    expect(await state.getStorage(addr(DEV_ADDRESS_0), new Uint8Array(32).fill(1, 31))).toEqual(new Uint8Array([0x2a]));
  });

  it('resumes after Commit with the same Info, state, blocks and txs on the same db', async () => {
    const chain = await startTestChain();
    await chain.block([signEthTransfer(DEV_KEY_0, TO, 10n, { nonce: 0n })]);
    await chain.block([signErc20Deploy(DEV_KEY_0, 1000n, { nonce: 1n })]);
    const res3 = await chain.block([signEthTransfer(DEV_KEY_0, TO, 5n, { nonce: 2n })]);
    const info = await chain.app.info(INFO);
    expect(info.lastBlockHeight).toBe(3);
    expect(info.lastBlockAppHash).toEqual(res3.appHash);
    const txHash = (await chain.app.evm.getBlock(2))!.txHashes[0]!;
    const nextBaseFee = chain.app.evm.nextBaseFee();
    await chain.app.close();

    const reopened = await createEvmApp({ db: chain.db });
    expect(await reopened.info(INFO)).toEqual(info);
    expect(reopened.evm.latestHeight()).toBe(3);
    expect(reopened.evm.nextBaseFee()).toBe(nextBaseFee);
    expect(reopened.evm.chainId).toBe(9000n);
    expect(evmAppHash((await reopened.evm.getBlock(3))!.stateRoot, undefined)).toEqual(res3.appHash);
    expect((await reopened.evm.getTransaction(txHash))!.height).toBe(2);
    const state = await reopened.evm.stateAt(3);
    expect((await state.getAccount(addr(TO)))!.balance).toBe(15n);

    // The chain goes on from there.
    const next = attachTestChain(reopened, chain.db, 3);
    const r4 = await next.block([signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 3n })]);
    expect(r4.txResults[0]!.code).toBe(0);
    expect((await reopened.evm.getBlock(4))!.parentHash).toEqual(blockHash(3));
  });

  it('keeps the previous state when FinalizeBlock is not followed by Commit', async () => {
    const chain = await startTestChain();
    await chain.block([signEthTransfer(DEV_KEY_0, TO, 10n, { nonce: 0n })]);
    const info = await chain.app.info(INFO);
    // A block finalized but never committed (crash, or an abandoned round)…
    await chain.app.finalizeBlock({
      txs: [signEthTransfer(DEV_KEY_0, TO, 99n, { nonce: 1n })],
      decidedLastCommit: { round: 0, votes: [] },
      misbehavior: [],
      hash: blockHash(2),
      height: 2,
      time: { seconds: 2_000_000_000, nanos: 0 },
      nextValidatorsHash: new Uint8Array(32),
      proposerAddress: new Uint8Array(20),
    });
    const reopened = await createEvmApp({ db: chain.db });
    expect(await reopened.info(INFO)).toEqual(info);
    expect((await (await reopened.evm.stateAt(1)).getAccount(addr(TO)))!.balance).toBe(10n);
    // …and finalizing again on the live app starts from the committed state.
    const again = await chain.block([signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 1n })]);
    expect(again.txResults[0]!.code).toBe(0);
    expect((await (await chain.app.evm.stateAt(2)).getAccount(addr(TO)))!.balance).toBe(11n);
  });

  it('serves historical state at every committed height, independent of the live state', async () => {
    const chain = await startTestChain();
    for (let i = 0; i < 3; i++) await chain.block([signEthTransfer(DEV_KEY_0, TO, 100n, { nonce: BigInt(i) })]);
    for (let h = 0; h <= 3; h++) {
      const s = await chain.app.evm.stateAt(h);
      expect((await s.getAccount(addr(TO)))?.balance ?? 0n).toBe(100n * BigInt(h));
    }
    // Writes to a copy never reach the chain.
    const copy = await chain.app.evm.stateAt(3);
    await copy.putAccount(addr(TO), undefined);
    await copy.getStateRoot();
    expect((await (await chain.app.evm.stateAt(3)).getAccount(addr(TO)))!.balance).toBe(300n);
    await expect(chain.app.evm.stateAt(4)).rejects.toBeInstanceOf(HeightNotAvailableError);
    await expect(chain.app.evm.stateAt(-1)).rejects.toBeInstanceOf(HeightNotAvailableError);
  });

  it('stores only the trie nodes reachable from the committed roots, and all of them', async () => {
    const chain = await startTestChain();
    const txs = Array.from({ length: 20 }, (_, i) => signEthTransfer(DEV_KEY_0, `0x${(0xa000 + i).toString(16).padStart(40, '0')}`, 1n, { nonce: BigInt(i) }));
    await chain.block(txs);
    await chain.block([signErc20Deploy(DEV_KEY_0, 10n, { nonce: 20n })]);
    // A fresh app has no caches: every account of both heights must be readable from the db.
    const reopened = await createEvmApp({ db: chain.db });
    for (const h of [1, 2]) {
      const s = await reopened.evm.stateAt(h);
      for (let i = 0; i < 20; i++) {
        expect((await s.getAccount(addr(`0x${(0xa000 + i).toString(16).padStart(40, '0')}`)))!.balance).toBe(1n);
      }
    }
  });
});
