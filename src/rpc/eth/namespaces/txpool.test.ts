/**
 * The txpool routes through the real eth dispatcher, in process, on a node that does not mine
 * (manual production), so what is sent stays in the mempool. Over HTTP: test/eth-namespaces.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, startTraceChain, type TraceChain } from '../../../../test/helpers/trace-chain.js';
import { DEV_KEY_0, DEV_KEY_1, signTx } from '../../../app/fixtures/signed-txs.js';
import { EthDispatcher } from '../dispatcher.js';
import type { EthEnv } from '../env.js';
import { EthRpcError } from '../errors.js';
import { ETH_ROUTES } from '../routes.js';
import { TXPOOL_ROUTES } from './txpool.js';

const CHECKSUM_0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const CHECKSUM_1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let chain: TraceChain;
let env: EthEnv;
let rpc: EthDispatcher;
let base: bigint;
const call = (method: string, params: unknown[] = [], d = rpc) => d.call(method, params, {});

beforeAll(async () => {
  chain = await startTraceChain();
  env = chain.node.internals.eth.env;
  rpc = new EthDispatcher(env, new Set(['eth', 'txpool']), [...ETH_ROUTES, ...TXPOOL_ROUTES]);
  base = chain.nonce();
  const send = async (tx: Uint8Array) => expect((await chain.node.broadcastTx(tx)).code).toBe(0);
  await send(chain.sign({ to: DEV_ADDRESS_1, value: 1000n }, { gasLimit: 21_000n, type: 2, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 5n }));
  await send(chain.sign({ to: DEV_ADDRESS_1, value: 2n }, { gasLimit: 21_000n, type: 0, maxFeePerGas: 3_000_000_000n }));
  await send(signTx(DEV_KEY_0, { to: DEV_ADDRESS_1, value: 9n }, { nonce: base + 3n, gasLimit: 21_000n })); // nonce gap: queued
  await send(signTx(DEV_KEY_1, { data: new Uint8Array([0x60, 0x00]) }, { nonce: 0n, gasLimit: 60_000n }));
});
afterAll(async () => {
  await chain?.stop();
});

describe('txpool', () => {
  it('txpool_status counts pending and queued txs', async () => {
    expect(await call('txpool_status')).toEqual({ pending: '0x3', queued: '0x1' });
  });

  it('txpool_content groups txs by checksummed sender and decimal nonce', async () => {
    const c = (await call('txpool_content')) as {
      pending: Record<string, Record<string, Record<string, unknown>>>;
      queued: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(Object.keys(c.pending).sort()).toEqual([CHECKSUM_0, CHECKSUM_1].sort());
    expect(Object.keys(c.pending[CHECKSUM_0]!)).toEqual([base.toString(), (base + 1n).toString()]);
    expect(Object.keys(c.queued)).toEqual([CHECKSUM_0]);
    expect(Object.keys(c.queued[CHECKSUM_0]!)).toEqual([(base + 3n).toString()]);
    const tx = c.pending[CHECKSUM_0]![base.toString()]!;
    expect(tx).toMatchObject({
      blockHash: null,
      blockNumber: null,
      transactionIndex: null,
      from: DEV_ADDRESS_0,
      to: DEV_ADDRESS_1,
      value: '0x3e8',
      nonce: `0x${base.toString(16)}`,
      type: '0x2',
      gasPrice: '0x77359400', // pending: the fee cap
      maxFeePerGas: '0x77359400',
      maxPriorityFeePerGas: '0x5',
    });
    expect(tx['hash']).toMatch(/^0x[0-9a-f]{64}$/);
    expect(c.pending[CHECKSUM_1]!['0']).toMatchObject({ to: null, input: '0x6000' });
  });

  it('txpool_contentFrom gives one sender', async () => {
    const c = (await call('txpool_contentFrom', [DEV_ADDRESS_0])) as { pending: Record<string, unknown>; queued: Record<string, unknown> };
    expect(Object.keys(c.pending)).toEqual([base.toString(), (base + 1n).toString()]);
    expect(Object.keys(c.queued)).toEqual([(base + 3n).toString()]);
    expect(await call('txpool_contentFrom', ['0x000000000000000000000000000000000000beef'])).toEqual({ pending: {}, queued: {} });
    const e = await call('txpool_contentFrom', ['0x12']).catch((err: unknown) => err);
    expect((e as EthRpcError).toJsonRpc().code).toBe(-32602);
  });

  it('txpool_inspect summarises each tx as geth does', async () => {
    const c = (await call('txpool_inspect')) as { pending: Record<string, Record<string, string>>; queued: Record<string, Record<string, string>> };
    expect(c.pending[CHECKSUM_0]![base.toString()]).toBe(`${CHECKSUM_1}: 1000 wei + 21000 gas × 2000000000 wei`);
    expect(c.pending[CHECKSUM_0]![(base + 1n).toString()]).toBe(`${CHECKSUM_1}: 2 wei + 21000 gas × 3000000000 wei`);
    expect(c.pending[CHECKSUM_1]!['0']).toBe('contract creation: 0 wei + 60000 gas × 10000000000 wei');
    expect(c.queued[CHECKSUM_0]![(base + 3n).toString()]).toBe(`${CHECKSUM_1}: 9 wei + 21000 gas × 10000000000 wei`);
  });

  it('empties as txs are mined', async () => {
    await chain.node.mine(1);
    expect(await call('txpool_status')).toEqual({ pending: '0x0', queued: '0x1' });
  });
});
