/**
 * npm run bench:seq — the path a test suite feels most: one transaction at a time with automine.
 * Each iteration sends a signed tx (eth_sendRawTransaction) and polls its receipt; every block is
 * real (proposal, signed votes, commit, stores, indexes, events).
 *
 *   in-process  through the EIP-1193 provider (no HTTP)
 *   http        over the node's JSON-RPC server (fetch, keep-alive)
 *
 * Workloads: ETH transfers and ERC20 transfers. Prints ms per tx and tx/s per path, and, last, one
 * JSON line with every figure. Env: BENCH_N (txs per workload and path, default 500), BENCH_WARMUP
 * (untimed ETH transfers sent first on each path, default 0: the default figure includes the JIT's
 * warm-up, as a fresh node's first txs do; some hundreds give the steady state).
 */
import { bytesToHex, type Hex } from 'viem';
import { createAddressFromString, createContractAddress } from '@ethereumjs/util';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, DEV_KEY_0, signErc20Deploy, signErc20Transfer, signEthTransfer } from '../src/app/fixtures/signed-txs.js';
import { createEip1193Provider } from '../src/node/rpc-eth.js';
import type { ChainletNode } from '../src/node/node.js';
import { startTestNode } from '../test/helpers/node.js';

const N = Number(process.env['BENCH_N'] ?? 500);
const WARMUP = Number(process.env['BENCH_WARMUP'] ?? 0);

type Send = (method: string, params: unknown[]) => Promise<unknown>;

function httpSend(url: string): Send {
  let id = 0;
  return async (method, params) => {
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const body = (await r.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };
}

async function loop(name: string, send: Send, txs: Uint8Array[]): Promise<{ msPerTx: number; txPerSec: number }> {
  const t0 = performance.now();
  for (const tx of txs) {
    const hash = (await send('eth_sendRawTransaction', [bytesToHex(tx)])) as Hex;
    // Automine makes the block right after admission; poll the receipt as a client does, without sleeping.
    let receipt: { status: string } | null = null;
    for (let i = 0; i < 100_000 && receipt === null; i++) {
      receipt = (await send('eth_getTransactionReceipt', [hash])) as { status: string } | null;
      if (receipt === null) await new Promise((r) => setImmediate(r));
    }
    if (!receipt || receipt.status !== '0x1') throw new Error(`${name}: tx ${hash} not mined with success`);
  }
  const ms = performance.now() - t0;
  const msPerTx = Number((ms / txs.length).toFixed(3));
  const txPerSec = Math.round((txs.length * 1000) / ms);
  console.log(`${name.padEnd(28)} ${msPerTx.toFixed(3)} ms/tx   ${txPerSec} tx/s`);
  return { msPerTx, txPerSec };
}

async function run(node: ChainletNode, via: 'inProcess' | 'http'): Promise<Record<string, { msPerTx: number; txPerSec: number }>> {
  const provider = via === 'inProcess' ? createEip1193Provider(node) : undefined;
  const send: Send = provider ? (method, params) => provider.request({ method, params }) : httpSend(node.urls.jsonRpc!);
  let nonce = BigInt((await send('eth_getTransactionCount', [DEV_ADDRESS_0, 'latest'])) as string);
  if (WARMUP > 0)
    await loop(
      `${via} warm-up (untimed)`,
      send,
      Array.from({ length: WARMUP }, () => signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1n, { nonce: nonce++ })),
    );
  const eth = Array.from({ length: N }, () => signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1n, { nonce: nonce++ }));
  const ethFig = await loop(`${via} ETH transfer`, send, eth);
  const token = createContractAddress(createAddressFromString(DEV_ADDRESS_0), nonce).toString();
  await loop(`${via} ERC20 deploy`, send, [signErc20Deploy(DEV_KEY_0, 10n ** 24n, { nonce: nonce++ })]);
  const erc20 = Array.from({ length: N }, () => signErc20Transfer(DEV_KEY_0, token, DEV_ADDRESS_1, 1n, { nonce: nonce++ }));
  const ercFig = await loop(`${via} ERC20 transfer`, send, erc20);
  provider?.close();
  return { eth: ethFig, erc20: ercFig };
}

const node = await startTestNode();
try {
  console.log(`bench:seq — N=${N} per workload${WARMUP > 0 ? `, after ${WARMUP} untimed` : ''}, automine, one tx at a time (send + receipt)`);
  const inProcess = await run(node, 'inProcess');
  const http = await run(node, 'http');
  console.log(JSON.stringify({ bench: 'seq', n: N, warmup: WARMUP, node: process.version, inProcess, http }));
} finally {
  await node.stop();
}
