/**
 * npm run bench:block — block execution through the whole node, beside the raw VM.
 *
 * For 1000 and 5000 pre-signed ETH transfers and ERC20 transfers (distinct senders, one block):
 *   node: every tx through mempool.checkTx (CheckTx: decode, recover the sender), then one block
 *         through consensus (proposal, signed votes), FinalizeBlock, Commit, stores and events;
 *   raw:  the same txs through plain @ethereumjs/vm runTx + state root (decode and sender
 *         recovery included, native ecrecover, caches), no node — bench/raw-vm.ts.
 * Prints tx/s and ms per block for both and the ratio node/raw (tx/s); the last line is one JSON
 * object with every figure. `npx tsx bench/block.ts [rounds] [workload…]` (default 3 rounds, every
 * workload; medians are reported), e.g. `npx tsx bench/block.ts 5 eth-1000`.
 */
import { Address, createAccount } from '@ethereumjs/util';
import { createVM } from '@ethereumjs/vm';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { createChainCommon } from '../src/app/chain-common.js';
import { erc20DeployData } from '../src/app/fixtures/erc20.js';
import { addressOfKey, buildEthTransferBlock, signErc20Transfer, throwawayKeys, type AllocJson } from '../src/app/fixtures/signed-txs.js';
import { startNode } from '../src/node/node.js';
import { rawVmFigure } from './raw-vm.js';

interface Workload {
  name: string;
  txs: Uint8Array[];
  alloc: AllocJson;
}

const TOKEN = '0x00000000000000000000000000000000000c0ffe';

/** The token's runtime code, from running its constructor once in a scratch VM. */
async function erc20RuntimeCode(): Promise<string> {
  const common = createChainCommon({ chainId: 9000n, hardfork: 'prague' });
  const vm = await createVM({ common, stateManager: new MerkleStateManager({ common }) });
  const caller = new Address(new Uint8Array(20).fill(1));
  await vm.stateManager.putAccount(caller, createAccount({ balance: 10n ** 18n }));
  const r = await vm.evm.runCall({ caller, data: erc20DeployData(1n), gasLimit: 5_000_000n });
  if (r.execResult.exceptionError) throw new Error(`ERC20 constructor failed: ${r.execResult.exceptionError.error}`);
  return `0x${Buffer.from(r.execResult.returnValue).toString('hex')}`;
}

/** Storage slot of `balanceOf[owner]` (mapping at slot 1). */
function balanceSlot(owner: string): string {
  const key = new Uint8Array(64);
  key.set(Buffer.from(owner.slice(2).padStart(64, '0'), 'hex'), 0);
  key[63] = 1;
  return `0x${Buffer.from(keccak_256(key)).toString('hex')}`;
}

async function erc20Workload(count: number, runtime: string): Promise<Workload> {
  const keys = throwawayKeys(count, 'chainlet-bench-erc20');
  const alloc: AllocJson = {};
  const word = (v: bigint) => `0x${v.toString(16).padStart(64, '0')}`;
  const storage: Record<string, string> = { [`0x${'0'.repeat(64)}`]: word(10n ** 30n) };
  const txs = keys.map((k, i) => {
    const from = addressOfKey(k);
    alloc[from] = { balance: (10n ** 21n).toString() };
    storage[balanceSlot(from)] = word(10n ** 24n);
    const to = `0x${(0xbeef000000n + BigInt(i)).toString(16).padStart(40, '0')}`;
    return signErc20Transfer(k, TOKEN, to, 1n, { nonce: 0n });
  });
  alloc[TOKEN] = { balance: '0', code: runtime, storage };
  return { name: `erc20-${count}`, txs, alloc };
}

interface NodeFigure {
  checkTxMs: number;
  blockMs: number;
  totalMs: number;
}

async function nodeFigure(w: Workload): Promise<NodeFigure> {
  const node = await startNode({
    servers: false,
    config: { consensus: { mode: 'manual' }, mempool: { size: 20_000, cacheSize: 20_000 } },
    devnet: { accounts: 1, blockMaxGas: -1, extraAlloc: w.alloc },
  });
  try {
    const t0 = performance.now();
    for (const tx of w.txs) {
      const r = await node.broadcastTx(tx);
      if (r.code !== 0) throw new Error(`CheckTx failed: ${r.log}`);
    }
    const t1 = performance.now();
    await node.mine(1);
    const t2 = performance.now();
    const block = await node.internals.blockStore.loadBlock(node.height);
    const res = await node.internals.stateStore.loadFinalizeBlockResponse(node.height);
    if (block?.data.txs.length !== w.txs.length) throw new Error(`block holds ${block?.data.txs.length} txs, expected ${w.txs.length}`);
    const failed = res?.txResults.find((r) => r.code !== 0 || r.events.some((e) => e.attributes.some((a) => a.key === 'ethereumTxFailed')));
    if (failed) throw new Error(`a tx failed in the block: ${failed.log}`);
    return { checkTxMs: t1 - t0, blockMs: t2 - t1, totalMs: t2 - t0 };
  } finally {
    await node.stop();
  }
}

const median = (a: number[]) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)]!;

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const only = new Set(process.argv.slice(3));
  const wanted = (name: string) => only.size === 0 || only.has(name);
  const runtime = await erc20RuntimeCode();
  const workloads: Workload[] = [];
  for (const n of [1000, 5000]) {
    if (wanted(`eth-${n}`)) {
      const eth = buildEthTransferBlock(n);
      workloads.push({ name: `eth-${n}`, txs: eth.txs, alloc: eth.alloc });
    }
    if (wanted(`erc20-${n}`)) workloads.push(await erc20Workload(n, runtime));
  }
  if (workloads.length === 0) throw new Error(`no workload named ${[...only].join(', ')} (eth-1000, erc20-1000, eth-5000, erc20-5000)`);
  const results: Record<string, unknown>[] = [];
  console.log(`chainlet bench:block — median of ${rounds} round(s) per workload, one block each (node ${process.version})`);
  for (const w of workloads) {
    const raw: number[] = [];
    const node: NodeFigure[] = [];
    for (let i = 0; i < rounds; i++) {
      raw.push((await rawVmFigure(w.txs, w.alloc)).ms);
      node.push(await nodeFigure(w));
    }
    const rawMs = median(raw);
    const total = median(node.map((x) => x.totalMs));
    const checkTx = median(node.map((x) => x.checkTxMs));
    const blockMs = median(node.map((x) => x.blockMs));
    const n = w.txs.length;
    const r = {
      workload: w.name,
      txs: n,
      raw_ms: Math.round(rawMs),
      raw_tx_per_s: Math.round((n / rawMs) * 1000),
      node_ms: Math.round(total),
      node_checktx_ms: Math.round(checkTx),
      node_block_ms: Math.round(blockMs),
      node_tx_per_s: Math.round((n / total) * 1000),
      ratio: Number((rawMs / total).toFixed(3)),
    };
    results.push(r);
    console.log(
      `${w.name.padEnd(11)} raw vm ${String(r.raw_ms).padStart(6)} ms ${String(r.raw_tx_per_s).padStart(6)} tx/s | node ${String(r.node_ms).padStart(6)} ms ${String(r.node_tx_per_s).padStart(6)} tx/s (CheckTx ${r.node_checktx_ms} ms + block ${r.node_block_ms} ms/block) | node/raw ${r.ratio.toFixed(2)}`,
    );
  }
  console.log(JSON.stringify({ bench: 'block', node: process.version, rounds, results }));
}

await main();
