/**
 * npm run bench:micro — the unit costs behind a height's hot paths, each beside the upstream or
 * plain way where the code has one, measured in one process in alternating random order:
 *
 *   account lookup   an account missing the caches, 2500 accounts in the trie: MerkleStateManager
 *                    (MerklePatriciaTrie.get) against FastReadStateManager (readTrie)
 *   tx decode        createTxFromRLP against decodeAppTx (which also hashes the bytes twice)
 *   header hash      headerHash of a full header (14 fields, 27 SHA-256)
 *   typed arrays     `new Uint8Array(n)` for n = 64 (on the V8 heap) and 65, 512 (an ArrayBuffer each)
 *
 * Prints µs per operation and, last, one JSON line with every figure. Env: BENCH_ROUNDS (default 20).
 */
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { createTxFromRLP } from '@ethereumjs/tx';
import { createAddressFromString, type Address } from '@ethereumjs/util';
import { createChainCommon, sharedTxCommon, TX_DECODE_OPTS } from '../src/app/chain-common.js';
import { FastReadStateManager } from '../src/app/stores/fast-read-state.js';
import { DEV_ADDRESS_1, DEV_KEY_0, signErc20Transfer, signEthTransfer } from '../src/app/fixtures/signed-txs.js';
import { decodeAppTx } from '../src/app/execution/tx-decode.js';
import { startNode } from '../src/node/node.js';
import { headerHash } from '../src/types/header.js';
import type { Header } from '../src/types/block.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 20);
const WARM = 3;

/** Runs each variant ROUNDS times in random order; µs per op of the rounds after WARM. */
async function compare(ops: number, variants: Record<string, () => unknown>): Promise<Record<string, number>> {
  const total: Record<string, number> = Object.fromEntries(Object.keys(variants).map((k) => [k, 0]));
  for (let r = 0; r < ROUNDS + WARM; r++) {
    const order = Object.keys(variants).sort(() => Math.random() - 0.5);
    for (const k of order) {
      const t = performance.now();
      await variants[k]!();
      if (r >= WARM) total[k]! += performance.now() - t;
    }
  }
  return Object.fromEntries(Object.entries(total).map(([k, ms]) => [k, Number(((ms * 1000) / ROUNDS / ops).toFixed(2))]));
}

async function accountLookups(): Promise<Record<string, number>> {
  const node = await startNode({ servers: false, config: { consensus: { mode: 'manual' } } });
  try {
    const addrs: Address[] = [];
    let nonce = 0n;
    for (let block = 0; block < 5; block++) {
      for (let i = 0; i < 500; i++) {
        const a = `0x${(0xbeef0000000n + BigInt(block * 500 + i)).toString(16).padStart(40, '0')}`;
        addrs.push(createAddressFromString(a));
        const r = await node.broadcastTx(signEthTransfer(DEV_KEY_0, a, 1n, { nonce: nonce++ }));
        if (r.code !== 0) throw new Error(r.log);
      }
      await node.mine(1);
    }
    const rt = (
      node.internals.app as unknown as {
        rt: { common: never; state: { _trie: { root(): Uint8Array; shallowCopy(b: boolean): { root(r: Uint8Array): void } } } };
      }
    ).rt;
    const root = rt.state._trie.root();
    const at = (Kind: typeof MerkleStateManager) => {
      const trie = rt.state._trie.shallowCopy(false);
      trie.root(root);
      return new Kind({ common: rt.common, trie: trie as never, caches: new Caches() });
    };
    const lookAll = async (sm: MerkleStateManager) => {
      for (const a of addrs) if ((await sm.getAccount(a)) === undefined) throw new Error('account missing');
    };
    return await compare(addrs.length, {
      upstream: () => lookAll(at(MerkleStateManager)),
      readTrie: () => lookAll(at(FastReadStateManager)),
    });
  } finally {
    await node.stop();
  }
}

async function txDecodes(): Promise<Record<string, number>> {
  const common = sharedTxCommon(createChainCommon({ chainId: 9000n, hardfork: 'prague' }));
  const txs = Array.from({ length: 2000 }, (_, i) =>
    i % 2
      ? signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1n, { nonce: BigInt(i) })
      : signErc20Transfer(DEV_KEY_0, DEV_ADDRESS_1, DEV_ADDRESS_1, 5n, { nonce: BigInt(i) }),
  );
  return compare(txs.length, {
    createTxFromRLP: () => {
      for (const b of txs) createTxFromRLP(b, { common, ...TX_DECODE_OPTS, freeze: false });
    },
    decodeAppTx: () => {
      for (const b of txs) decodeAppTx(b, common);
    },
  });
}

async function headerHashes(): Promise<Record<string, number>> {
  const b = (n: number, v: number) => new Uint8Array(n).fill(v);
  const header: Header = {
    version: { block: 11, app: 0 },
    chainId: 'chainlet_9000-1',
    height: 1234,
    time: { seconds: 1764000000, nanos: 123456789 },
    lastBlockId: { hash: b(32, 1), partSetHeader: { total: 1, hash: b(32, 2) } },
    lastCommitHash: b(32, 3),
    dataHash: b(32, 4),
    validatorsHash: b(32, 5),
    nextValidatorsHash: b(32, 5),
    consensusHash: b(32, 6),
    appHash: b(32, 7),
    lastResultsHash: b(32, 8),
    evidenceHash: b(32, 9),
    proposerAddress: b(20, 10),
  };
  return compare(2000, {
    headerHash: () => {
      for (let i = 0; i < 2000; i++) headerHash(header);
    },
  });
}

async function typedArrays(): Promise<Record<string, number>> {
  const make = (n: number) => () => {
    let keep: Uint8Array | undefined;
    for (let i = 0; i < 20000; i++) keep = new Uint8Array(n);
    return keep;
  };
  return compare(20000, { 'new Uint8Array(64)': make(64), 'new Uint8Array(65)': make(65), 'new Uint8Array(512)': make(512) });
}

const results: Record<string, Record<string, number>> = {};
console.log(`bench:micro — ${ROUNDS} rounds each, alternating in random order (node ${process.version}); µs per operation`);
for (const [name, run] of [
  ['accountLookup', accountLookups],
  ['txDecode', txDecodes],
  ['headerHash', headerHashes],
  ['typedArray', typedArrays],
] as const) {
  results[name] = await run();
  console.log(
    `${name.padEnd(14)} ${Object.entries(results[name]!)
      .map(([k, v]) => `${k} ${v}`)
      .join('   ')}`,
  );
}
console.log(JSON.stringify({ bench: 'micro', rounds: ROUNDS, node: process.version, ...results }));
