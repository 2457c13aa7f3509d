/**
 * The raw @ethereumjs/vm figure that the node's block throughput is compared with: the same txs
 * run through plain `runTx` on an in-memory MerkleStateManager with caches, the native ecrecover
 * and one Common, in one journal checkpoint, followed by the state root. No node: no events,
 * receipts, persistence or ABCI.
 *
 * Timed: decoding + sender recovery + execution + state root (genesis setup excluded). Txs are
 * decoded the plain ethereumjs way (`createTxFromRLP(bytes, { common })`); `fastDecode: true` uses
 * the app's shared tx Common instead (saves the per-tx Common copy, ~35 µs/tx).
 *
 *   npx tsx bench/raw-vm.ts [txCount] [rounds]   raw figure and, beside it, the EvmApp's
 *                                                FinalizeBlock + Commit of the same block (medians)
 */
import { createBlock } from '@ethereumjs/block';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { createTxFromRLP } from '@ethereumjs/tx';
import { Address, createAccount } from '@ethereumjs/util';
import { createVM, runTx } from '@ethereumjs/vm';
import { BTreeLevel } from '../src/store/btree-level.js';
import { pathToFileURL } from 'node:url';
import { CheckTxType } from '../src/abci/types.js';
import type { AppLevel } from '../src/app/stores/app-store.js';
import { createEvmApp } from '../src/app/abci/evm-app.js';
import { defaultConsensusParams } from '../src/types/params.js';
import { createChainCommon, sharedTxCommon } from '../src/app/chain-common.js';
import { buildEthTransferBlock, type AllocJson } from '../src/app/fixtures/signed-txs.js';

export interface RawVmOpts {
  chainId?: bigint;
  fastDecode?: boolean;
  baseFee?: bigint;
  gasLimit?: bigint;
}

export async function rawVmFigure(txs: Uint8Array[], genesisAlloc: AllocJson, opts: RawVmOpts = {}): Promise<{ ms: number; txPerSec: number }> {
  const common = createChainCommon({ chainId: opts.chainId ?? 9000n, hardfork: 'prague' });
  const state = new MerkleStateManager({ common, caches: new Caches() });
  for (const [addr, acc] of Object.entries(genesisAlloc)) {
    const address = new Address(Buffer.from(addr.slice(2), 'hex'));
    await state.putAccount(address, createAccount({ balance: BigInt(acc.balance), nonce: BigInt(acc.nonce ?? 0) }));
    if (acc.code !== undefined) await state.putCode(address, Buffer.from(acc.code.slice(2), 'hex'));
    for (const [slot, value] of Object.entries(acc.storage ?? {})) {
      await state.putStorage(address, Buffer.from(slot.slice(2).padStart(64, '0'), 'hex'), Buffer.from(value.slice(2), 'hex'));
    }
  }
  await state.getStateRoot();
  const vm = await createVM({ common, stateManager: state });
  const block = createBlock(
    { header: { number: 1n, timestamp: 1n, gasLimit: opts.gasLimit ?? 4_294_967_295n, baseFeePerGas: opts.baseFee ?? 1_000_000_000n } },
    { common, skipConsensusFormatValidation: true },
  );

  const started = performance.now();
  const txCommon = opts.fastDecode === true ? sharedTxCommon(common) : common;
  const decoded = txs.map((bytes) => createTxFromRLP(bytes, { common: txCommon }));
  for (const tx of decoded) tx.getSenderAddress();
  await vm.evm.journal.checkpoint();
  let gasUsed = 0n;
  for (const tx of decoded) {
    const r = await runTx(vm, { tx, block, blockGasUsed: gasUsed, skipHardForkValidation: true });
    gasUsed += r.totalGasSpent;
  }
  await vm.evm.journal.commit();
  await state.getStateRoot();
  const ms = performance.now() - started;
  return { ms, txPerSec: (txs.length / ms) * 1000 };
}

/** FinalizeBlock + Commit of `txs` on a fresh EvmApp (memory-level) whose genesis is `alloc`. */
export async function appBlockFigure(
  txs: Uint8Array[],
  alloc: AllocJson,
  opts: { checkTxFirst?: boolean } = {},
): Promise<{ ms: number; finalizeMs: number; commitMs: number }> {
  const db = new BTreeLevel({ keyEncoding: 'view', valueEncoding: 'view' }) as unknown as AppLevel;
  const app = await createEvmApp({ db });
  await app.initChain({
    time: { seconds: 1, nanos: 0 },
    chainId: 'chainlet_9000-1',
    consensusParams: defaultConsensusParams(),
    validators: [],
    appStateBytes: new TextEncoder().encode(JSON.stringify({ evm: { alloc } })),
    initialHeight: 1,
  });
  if (opts.checkTxFirst === true) for (const tx of txs) await app.checkTx({ tx, type: CheckTxType.New });
  const started = performance.now();
  const res = await app.finalizeBlock({
    txs,
    decidedLastCommit: { round: 0, votes: [] },
    misbehavior: [],
    hash: new Uint8Array(32).fill(1),
    height: 1,
    time: { seconds: 2, nanos: 0 },
    nextValidatorsHash: new Uint8Array(32),
    proposerAddress: new Uint8Array(20),
  });
  const finalized = performance.now();
  await app.commit();
  const ms = performance.now() - started;
  await app.close();
  const failed = res.txResults.find((r) => r.code !== 0);
  if (failed !== undefined) throw new Error(`tx failed in the app: ${failed.log}`);
  return { ms, finalizeMs: finalized - started, commitMs: ms - (finalized - started) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const count = Number(process.argv[2] ?? 1000);
  const rounds = Number(process.argv[3] ?? 5);
  const { txs, alloc } = buildEthTransferBlock(count);
  const raw: number[] = [];
  const rawFast: number[] = [];
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < rounds; i++) {
    raw.push((await rawVmFigure(txs, alloc)).ms);
    rawFast.push((await rawVmFigure(txs, alloc, { fastDecode: true })).ms);
    cold.push((await appBlockFigure(txs, alloc)).ms);
    warm.push((await appBlockFigure(txs, alloc, { checkTxFirst: true })).ms);
  }
  const median = (a: number[]) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
  const best = (a: number[]) => Math.min(...a);
  const line = (name: string, a: number[]) =>
    `${name.padEnd(44)} median ${median(a).toFixed(0).padStart(5)} ms (${((count / median(a)) * 1000).toFixed(0).padStart(5)} tx/s)  best ${best(a).toFixed(0).padStart(5)} ms  runs: ${a.map((x) => x.toFixed(0)).join(' ')}`;
  console.log(`${count} ETH transfers from ${count} senders, median of ${rounds}`);
  console.log(line('raw vm (decode+recover+runTx+root)', raw));
  console.log(line('raw vm, app-style tx decoding (fastDecode)', rawFast));
  console.log(line('EvmApp FinalizeBlock+Commit (cold cache)', cold));
  console.log(line('EvmApp FinalizeBlock+Commit (after CheckTx)', warm));
  const ratio = (a: number[], b: number[]) => `${(median(a) / median(b)).toFixed(2)} (best ${(best(a) / best(b)).toFixed(2)})`;
  console.log(`ratio raw/app: cold ${ratio(raw, cold)}, after CheckTx ${ratio(raw, warm)}`);
  console.log(`ratio raw(fastDecode)/app: cold ${ratio(rawFast, cold)}, after CheckTx ${ratio(rawFast, warm)}`);
}
