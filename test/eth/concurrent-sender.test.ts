/**
 * One sender's txs sent by many clients at once (nonces arrive out of order), to the low addresses
 * 0x…01–0x…190, the precompiles among them: every tx is admitted and mined, and the state stays
 * readable. A value transfer to 0x…0a (EIP-4844 point evaluation, no KZG library configured) threw
 * inside runTx, which left a checkpoint open: every read of the latest state then failed with
 * "Missing node in DB".
 */
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainletNode } from '../../src/node/node.js';
import { startTestNode } from '../helpers/node.js';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
let node: ChainletNode;
let url: string;
let id = 0;

async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
  });
  const j = (await r.json()) as { result?: T; error?: { message: string } };
  if (j.error) throw new Error(j.error.message);
  return j.result as T;
}

beforeAll(async () => {
  node = await startTestNode();
  url = node.urls.jsonRpc!;
});
afterAll(async () => {
  await node.stop();
});

const acct = privateKeyToAccount(KEY);

/** Signs transfers of 1 wei from the dev key, from its pending nonce on, one per recipient. */
async function signTransfers(recipients: `0x${string}`[], gas = 21_000n): Promise<{ raws: string[]; start: number }> {
  const chainId = Number(await rpc<string>('eth_chainId'));
  const start = Number(await rpc<string>('eth_getTransactionCount', [acct.address, 'pending']));
  const fee = BigInt(await rpc<string>('eth_gasPrice')) * 2n;
  const raws: string[] = [];
  for (const [i, to] of recipients.entries())
    raws.push(await acct.signTransaction({ chainId, nonce: start + i, to, value: 1n, gas, maxFeePerGas: fee, maxPriorityFeePerGas: 1n, type: 'eip1559' }));
  return { raws, start };
}

describe('txs to the precompiles', () => {
  it('a transfer to 0x…0a fails as a call (all its gas used) and the state stays readable; eth_call answers an execution error', async () => {
    const to = '0x000000000000000000000000000000000000000a';
    const {
      raws: [raw],
      start: nonce,
    } = await signTransfers([to], 100_000n);
    const hash = await rpc<string>('eth_sendRawTransaction', [raw]);
    let receipt: { status: string; gasUsed: string } | null = null;
    for (let t = 0; t < 500 && receipt === null; t++) {
      receipt = await rpc('eth_getTransactionReceipt', [hash]);
      if (receipt === null) await new Promise((r) => setTimeout(r, 10));
    }
    expect(receipt).toMatchObject({ status: '0x0', gasUsed: '0x186a0' });
    expect(BigInt(await rpc<string>('eth_getBalance', [acct.address, 'latest']))).toBeGreaterThan(0n);
    expect(Number(await rpc<string>('eth_getTransactionCount', [acct.address, 'latest']))).toBe(nonce + 1);
    await expect(rpc('eth_call', [{ to, data: '0x' }, 'latest'])).rejects.toThrow(/invalid input length/);
  });
});

describe('one sender, many concurrent clients', () => {
  it('admits and mines every tx, and the latest state stays readable', async () => {
    const N = 400;
    const { raws, start } = await signTransfers(Array.from({ length: N }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}` as const));
    let next = 0;
    const errors: string[] = [];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = next++; i < N; i = next++) await rpc('eth_sendRawTransaction', [raws[i]]).catch((e: Error) => errors.push(e.message));
      }),
    );
    expect(errors).toEqual([]);
    for (let t = 0; t < 500 && Number(await rpc<string>('eth_getTransactionCount', [acct.address, 'latest'])) < start + N; t++)
      await new Promise((r) => setTimeout(r, 20));
    expect(Number(await rpc<string>('eth_getTransactionCount', [acct.address, 'latest']))).toBe(start + N);
    expect(BigInt(await rpc<string>('eth_getBalance', [acct.address, 'latest']))).toBeGreaterThan(0n);
  });
});
