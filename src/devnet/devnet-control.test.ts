import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAddressFromString, createContractAddress } from '@ethereumjs/util';
import { afterEach, describe, expect, it } from 'vitest';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, DEV_KEY_0, signEthTransfer, signTx } from '../app/fixtures/signed-txs.js';
import { impersonatedTx } from '../app/execution/impersonation.js';
import { Query } from '../events/query/query.js';
import { initHome } from '../genesis/home.js';
import { makeBlockId } from '../types/part-set.js';
import { timestampFromMs } from '../types/time.js';
import { buildEmptySegment } from '../consensus/empty-segment.js';
import type { SegmentBlockStore } from '../store/segments/segment-stores.js';
import { startNode, type ChainletNode } from '../node/node.js';
import { evmAppHash } from '../ibc/app-stores.js';

const nodes: ChainletNode[] = [];
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((n) => n.stop()));
});

async function manualNode(opts: Parameters<typeof startNode>[0] = {}): Promise<ChainletNode> {
  const n = await startNode({ servers: false, ...opts, config: { consensus: { mode: 'manual' }, ...(opts.config ?? {}) } });
  nodes.push(n);
  return n;
}

const balanceOf = async (n: ChainletNode, a: string) =>
  (await (await n.internals.app.evm.stateAt(n.height)).getAccount(createAddressFromString(a)))?.balance ?? 0n;
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Every stored block links to its parent and hashes to its stored id; commits verify by height. */
async function checkChain(n: ChainletNode, heights: number[]): Promise<void> {
  const bs = n.internals.blockStore;
  for (const h of heights) {
    const block = (await bs.loadBlock(h))!;
    const meta = (await bs.loadBlockMeta(h))!;
    expect(hex(makeBlockId(block).blockId.hash)).toBe(hex(meta.blockId.hash));
    if (h > 1) expect(hex(block.header.lastBlockId.hash)).toBe(hex((await bs.loadBlockMeta(h - 1))!.blockId.hash));
    if (h < n.height) expect(hex((await bs.loadBlockCommit(h))!.blockId.hash)).toBe(hex(meta.blockId.hash));
    expect(await bs.heightByHash(meta.blockId.hash)).toBe(h);
    const evm = (await n.internals.app.evm.getBlock(h))!;
    expect(hex(evm.hash)).toBe(hex(meta.blockId.hash));
    expect((await n.internals.app.evm.getBlockByHash(meta.blockId.hash))?.number).toBe(h);
    expect(await n.internals.stateStore.loadValidators(h)).toBeDefined();
    expect(await n.internals.stateStore.loadFinalizeBlockResponse(h)).toBeDefined();
  }
}

describe('mining many blocks', () => {
  it('mines 10 000 empty blocks that every store answers for, and blocks continue on top', async () => {
    const n = await manualNode();
    await n.mine(1); // after the block at initial_height, made at start
    const r = await n.internals.devnet.mine(10_000);
    expect(r).toEqual({ from: 3, to: 10_002 });
    expect(n.height).toBe(10_002);
    expect(n.internals.app.evm.latestHeight()).toBe(10_002);
    expect(n.internals.blockStore.height()).toBe(10_002);
    await n.mine(1);
    await checkChain(n, [1, 2, 3, 4, 5_000, 10_001, 10_002, 10_003]);
    // One second apart, base fee falling as after empty blocks.
    const a = (await n.internals.app.evm.getBlock(100))!;
    const b = (await n.internals.app.evm.getBlock(101))!;
    expect(b.timestamp - a.timestamp).toBe(1n);
    expect(b.baseFeePerGas).toBeLessThanOrEqual(a.baseFeePerGas);
    // block_search sees the segment heights.
    const found = await n.internals.blockIndexer!.search(Query.parse('block.height >= 9999 AND block.height <= 10001'));
    expect(found).toEqual([9_999, 10_000, 10_001]);
    // A tx after the segment executes and is found.
    await n.broadcastTx(signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 5n, { nonce: 0n }));
    await n.mine(1);
    expect((await n.internals.app.evm.getTransactionsOfBlock(n.height)).length).toBe(1);
  });

  it('mines pending txs first, then the empty rest', async () => {
    const n = await manualNode();
    await n.broadcastTx(signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 5n, { nonce: 0n }));
    await n.internals.devnet.mine(5, { timestamp: 2_000_000_000 });
    expect(n.height).toBe(6);
    expect((await n.internals.app.evm.getTransactionsOfBlock(2)).length).toBe(1);
    expect((await n.internals.app.evm.getBlock(2))!.timestamp).toBe(2_000_000_000n);
    expect((await n.internals.app.evm.getBlock(6))!.timestamp).toBe(2_000_000_004n);
    await checkChain(n, [1, 2, 3, 4, 5, 6]);
  });

  it('keeps segments across a restart of a node on disk', async () => {
    const home = mkdtempSync(join(tmpdir(), 'chainlet-devnet-'));
    try {
      initHome(home, {});
      let n = await startNode({ home, servers: false, config: { consensus: { mode: 'manual' } } });
      await n.internals.devnet.mine(50);
      await n.internals.devnet.setBalance(createAddressFromString('0x00000000000000000000000000000000000000aa'), 77n);
      const head = hex((await n.internals.blockStore.loadBlockMeta(51))!.blockId.hash);
      await n.stop();
      n = await startNode({ home, servers: false, config: { consensus: { mode: 'manual' } } });
      nodes.push(n);
      expect(n.height).toBe(51);
      expect(hex((await n.internals.blockStore.loadBlockMeta(51))!.blockId.hash)).toBe(head);
      expect(await balanceOf(n, '0x00000000000000000000000000000000000000aa')).toBe(77n);
      await n.mine(1);
      await checkChain(n, [1, 2, 25, 51, 52]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
  it('gives blocks BLOCKHASH of segment blocks, after a restart and a revert too', async () => {
    // A contract creation that stores BLOCKHASH(50) in slot 0: PUSH2 50, BLOCKHASH, PUSH1 0, SSTORE, STOP.
    const storeBlockhash50 = async (n: ChainletNode, nonce: bigint): Promise<string> => {
      await n.broadcastTx(signTx(DEV_KEY_0, { data: Buffer.from('6100324060005500', 'hex') }, { nonce, gasLimit: 200_000n }));
      await n.mine(1);
      const created = createContractAddress(createAddressFromString(DEV_ADDRESS_0), nonce);
      const state = await n.internals.app.evm.stateAt(n.height);
      return `0x${hex(await state.getStorage(created, new Uint8Array(32)))}`;
    };
    const home = mkdtempSync(join(tmpdir(), 'chainlet-devnet-'));
    try {
      initHome(home, {});
      let n = await startNode({ home, servers: false, config: { consensus: { mode: 'manual' } } });
      await n.internals.devnet.mine(60); // heights 2…61, one segment
      const hash50 = `0x${hex((await n.internals.blockStore.loadBlockMeta(50))!.blockId.hash)}`;
      await n.stop();
      n = await startNode({ home, servers: false, config: { consensus: { mode: 'manual' } } });
      nodes.push(n);
      const id = await n.internals.devnet.snapshot();
      expect(await storeBlockhash50(n, 0n)).toBe(hash50);
      expect(await n.internals.devnet.revert(id)).toBe(true);
      expect(await storeBlockhash50(n, 0n)).toBe(hash50);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('a crash inside the commit of an empty segment', () => {
  it.each(['block store only', 'block store and app'])('is finished at the next start (%s written)', async (written) => {
    const home = mkdtempSync(join(tmpdir(), 'chainlet-devnet-'));
    try {
      initHome(home, {});
      let n = await startNode({ home, servers: false, config: { consensus: { mode: 'manual' } } });
      await n.mine(1);
      // What commitEmptySegment writes first, without the rest: the process dies there.
      const { admin } = n.internals.consensus;
      const { state, lastCommit } = admin.head();
      const { results, app } = n.internals.app.prepareEmptyBlocks(20);
      const { segment, after } = await buildEmptySegment({
        state,
        lastCommit,
        signers: n.internals.validators,
        count: 20,
        firstTime: timestampFromMs((state.lastBlockTime.seconds + 1) * 1000),
        intervalMs: 1000,
        results,
        app,
      });
      await admin.exclusive(async () => {
        await (n.internals.blockStore as SegmentBlockStore).saveEmptySegment(segment);
        if (written === 'block store and app') await n.internals.app.commitEmptySegment(segment);
      });
      await n.stop();
      n = await startNode({ home, servers: false, config: { consensus: { mode: 'manual' } } });
      nodes.push(n);
      expect([n.height, n.internals.app.evm.latestHeight()]).toEqual([segment.to, segment.to]);
      expect(hex(n.internals.consensus.admin.head().state.lastBlockId.hash)).toBe(hex(after.lastBlockId.hash));
      await n.mine(1);
      await checkChain(n, [2, 3, 12, segment.to, segment.to + 1]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('snapshots', () => {
  it('restores height, state, mempool and clock; drops later snapshots; reuses ids', async () => {
    const n = await manualNode();
    const d = n.internals.devnet;
    const pendingTx = signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1n, { nonce: 0n });
    await n.broadcastTx(pendingTx);
    const id1 = await d.snapshot();
    const clock = n.internals.consensus.admin.clock();
    const before = await balanceOf(n, DEV_ADDRESS_1);

    await n.mine(1); // includes the pending tx
    await d.mine(20);
    d.increaseTime(3600);
    await d.setBalance(createAddressFromString(DEV_ADDRESS_1), 1n);
    const id2 = await d.snapshot();
    expect(id2).toBe(id1 + 1);

    expect(await d.revert(id1)).toBe(true);
    expect(n.height).toBe(1);
    expect(await balanceOf(n, DEV_ADDRESS_1)).toBe(before);
    expect(n.internals.mempool.size()).toBe(1);
    expect(n.internals.consensus.admin.clock()).toEqual(clock);
    expect(await n.internals.blockStore.loadBlock(2)).toBeUndefined();
    expect(await n.internals.app.evm.getBlock(2)).toBeUndefined();
    expect(await d.revert(id2)).toBe(false); // deleted with the earlier one
    expect(await d.revert(id1)).toBe(false);
    expect(await d.snapshot()).toBe(id1); // usable again

    // The chain goes on from the restored head, with the restored mempool.
    await n.mine(1);
    expect(n.height).toBe(2);
    expect((await n.internals.app.evm.getTransactionsOfBlock(2)).length).toBe(1);
    await checkChain(n, [1, 2]);
  });
});

describe('state surgery', () => {
  it('edits the latest state at once and the next header names the new root', async () => {
    const n = await manualNode();
    const d = n.internals.devnet;
    const who = createAddressFromString('0x000000000000000000000000000000000000bEEF');
    await d.setBalance(who, 10n ** 18n);
    await d.setNonce(who, 9n);
    await d.setCode(who, new Uint8Array([0x60, 0x01]));
    const slot = new Uint8Array(32);
    slot[31] = 1;
    await d.setStorageAt(who, slot, new Uint8Array([0x42]));
    const state = await n.internals.app.evm.stateAt(n.height);
    const acct = (await state.getAccount(who))!;
    expect(acct.balance).toBe(10n ** 18n);
    expect(acct.nonce).toBe(9n);
    expect(await state.getCode(who)).toEqual(new Uint8Array([0x60, 0x01]));
    expect(await state.getStorage(who, slot)).toEqual(new Uint8Array([0x42]));
    const root = n.internals.consensus.admin.head().state.appHash;
    expect(hex(root)).toBe(hex(evmAppHash(await state.getStateRoot(), undefined)));
    await n.mine(1);
    expect(hex((await n.internals.blockStore.loadBlock(2))!.header.appHash)).toBe(hex(root));
  });

  it('sets the gas limit, minimum gas price and coinbase of the next blocks', async () => {
    const n = await manualNode();
    const d = n.internals.devnet;
    await d.setBlockGasLimit(12_345_678n);
    const coinbase = createAddressFromString('0x00000000000000000000000000000000000c01b5');
    d.setCoinbase(coinbase);
    await n.mine(1);
    const b = (await n.internals.app.evm.getBlock(n.height))!;
    expect(b.gasLimit).toBe(12_345_678n);
    expect(b.coinbase.toString()).toBe(coinbase.toString());
    expect(n.internals.consensus.admin.head().state.consensusParams.block.maxGas).toBe(12_345_678);
    await d.setMinGasPrice(50_000_000_000n);
    const res = await n.broadcastTx(signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1n, { nonce: 0n, maxFeePerGas: 10_000_000_000n }));
    expect(res.code).not.toBe(0);
  });
});

describe('impersonation', () => {
  it('accepts marker-signed txs only while the sender is impersonated', async () => {
    const n = await manualNode();
    const d = n.internals.devnet;
    const who = createAddressFromString('0x000000000000000000000000000000000000cafe');
    await d.setBalance(who, 10n ** 18n);
    const common = n.internals.app.evm.common;
    const tx = (nonce: bigint) =>
      impersonatedTx(
        {
          type: 2,
          nonce,
          to: createAddressFromString(DEV_ADDRESS_0),
          value: 7n,
          gasLimit: 21_000n,
          maxFeePerGas: 10n ** 10n,
          maxPriorityFeePerGas: 1n,
          chainId: 9000n,
        },
        who,
        common,
      ).serialize();
    expect((await n.broadcastTx(tx(0n))).code).not.toBe(0);
    d.impersonate(who);
    expect((await n.broadcastTx(tx(0n))).code).toBe(0);
    await n.mine(1);
    const [mined] = await n.internals.app.evm.getTransactionsOfBlock(n.height);
    expect(mined!.sender.toString()).toBe(who.toString());
    expect(d.stopImpersonating(who)).toBe(true);
    expect((await n.broadcastTx(tx(1n))).code).not.toBe(0);
  });
});

describe('mining modes', () => {
  it('miner stop pauses automine and start resumes it', async () => {
    const n = await startNode({ servers: false });
    nodes.push(n);
    const d = n.internals.devnet;
    d.mining.stop();
    expect(n.internals.consensus.productionMode).toBe('manual');
    await n.broadcastTx(signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1n, { nonce: 0n }));
    await new Promise((r) => setTimeout(r, 100));
    expect(n.height).toBe(1);
    d.mining.start();
    await n.waitForHeight(2);
    expect(n.internals.consensus.productionMode).toBe('automine');
    d.mining.setAutomine(false);
    d.mining.setInterval(20);
    expect(n.internals.consensus.productionMode).toBe('interval');
    await n.waitForHeight(4);
    d.mining.setInterval(0);
    expect(n.internals.consensus.productionMode).toBe('manual');
  });
});

describe('state dumps', () => {
  it('loads into another node with blocks, receipts and logs', async () => {
    const a = await manualNode();
    await a.broadcastTx(signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 3n, { nonce: 0n }));
    await a.mine(1);
    await a.internals.devnet.mine(99);
    const [tx] = await a.internals.app.evm.getTransactionsOfBlock(2);
    const dump = await a.internals.devnet.dumpState();

    const b = await manualNode({ devnet: { genesisTime: a.genesis.genesisTime } });
    await b.mine(3);
    await b.internals.devnet.loadState(dump);
    expect(b.height).toBe(101);
    const loc = await b.internals.app.evm.getTransaction(tx!.tx.hash());
    expect(loc?.height).toBe(2);
    expect((await b.internals.app.evm.getReceipts(2)).length).toBe(1);
    expect(await balanceOf(b, DEV_ADDRESS_1)).toBe(await balanceOf(a, DEV_ADDRESS_1));
    await b.mine(1);
    await checkChain(b, [1, 50, 101, 102]);
    await expect(b.internals.devnet.loadState(new Uint8Array([1, 2, 3]))).rejects.toThrow(/invalid state dump/);
  });
});
