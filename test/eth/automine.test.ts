/**
 * Automine's promise, as Hardhat and Anvil keep it: once eth_sendRawTransaction answers, the tx is
 * mined, and the very next request sees its receipt, the new block and the sender's next nonce
 * (hardhat-chai-matchers read the receipt at once and fail on null). The node makes the block in
 * the macrotask after the answer and serves no request before its commit; a turn of the event loop
 * inside the block would break this. The client runs in a process of its own, as a user's does:
 * in this process it could not send its next request before the block ended.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToHex } from 'viem';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, DEV_KEY_0, signEthTransfer } from '../../src/app/fixtures/signed-txs.js';
import { call, startEthTestNode, type EthTestNode } from './helpers.js';

let t: EthTestNode;
beforeAll(async () => {
  t = await startEthTestNode();
});
afterAll(async () => {
  await t?.stop();
});

// For each raw tx: send it, then at once and together ask for its receipt, the block number and
// the sender's nonce; print what came back.
const CLIENT = `
const [url, sender, ...raws] = process.argv.slice(1);
let id = 0;
const call = async (method, params) => {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) });
  const j = await r.json();
  if (j.error) throw new Error(method + ': ' + j.error.message);
  return j.result;
};
const out = [];
for (const raw of raws) {
  const hash = await call('eth_sendRawTransaction', [raw]);
  const [receipt, block, nonce] = await Promise.all([
    call('eth_getTransactionReceipt', [hash]),
    call('eth_blockNumber', []),
    call('eth_getTransactionCount', [sender, 'latest']),
  ]);
  out.push({ status: receipt?.status ?? null, receiptBlock: receipt ? Number(receipt.blockNumber) : null, block: Number(block), nonce: Number(nonce) });
}
console.log(JSON.stringify(out));
`;

describe('automine over HTTP', () => {
  it('answers the next requests with the tx mined: receipt, block number, nonce', async () => {
    const nonce = Number(await call<string>(t.url, 'eth_getTransactionCount', [DEV_ADDRESS_0, 'latest']));
    const height = Number(await call<string>(t.url, 'eth_blockNumber'));
    const raws = Array.from({ length: 40 }, (_, i) => bytesToHex(signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1n, { nonce: BigInt(nonce + i) })));
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CLIENT, t.url, DEV_ADDRESS_0, ...raws]);
    const seen = JSON.parse(stdout) as { status: string | null; receiptBlock: number | null; block: number; nonce: number }[];
    expect(seen).toEqual(raws.map((_, i) => ({ status: '0x1', receiptBlock: height + 1 + i, block: height + 1 + i, nonce: nonce + 1 + i })));
  });
});
