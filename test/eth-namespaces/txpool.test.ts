/**
 * The txpool namespace over HTTP with viem, on a node that does not mine (manual production):
 * pending and queued txs in geth's shapes, and the refusal while the namespace is not enabled.
 */
import { BaseError, createPublicClient, createTestClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_KEY_0, signTx } from '../../src/app/fixtures/signed-txs.js';
import { DEV_ADDRESS_1, startTraceChain, type TraceChain } from '../helpers/trace-chain.js';

const SENDER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

type Client = ReturnType<typeof createPublicClient>;
const request = (c: Client, method: string, params: unknown[] = []) => c.request({ method: method as never, params: params as never });

describe('txpool namespace when not enabled', () => {
  let chain: TraceChain;
  beforeAll(async () => {
    chain = await startTraceChain({ servers: true, config: { jsonRpc: { api: ['eth', 'web3', 'net'] } } });
  });
  afterAll(() => chain?.stop());

  it('answers every txpool method as an unknown method', async () => {
    const client = createPublicClient({ transport: http(chain.rpcUrl!) });
    for (const method of ['txpool_content', 'txpool_contentFrom', 'txpool_inspect', 'txpool_status']) {
      const e = await request(client, method, []).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(BaseError);
      const inner = (e as BaseError).walk((x) => typeof (x as { code?: unknown }).code === 'number') as unknown as { code: number; details: string };
      expect(inner.code).toBe(-32601);
      expect(inner.details).toMatch(
        new RegExp(`^the method ${method} does not exist/is not available \\(the txpool namespace is off: start with --json-rpc\\.api \\S*,txpool, `),
      );
    }
  });
});

describe('txpool namespace over HTTP', () => {
  let chain: TraceChain;
  let client: Client;
  let base: bigint;

  beforeAll(async () => {
    chain = await startTraceChain({ servers: true, config: { jsonRpc: { api: ['eth', 'web3', 'net', 'txpool'] } } });
    client = createPublicClient({ transport: http(chain.rpcUrl!) });
    base = chain.nonce();
    for (const tx of [
      chain.sign({ to: DEV_ADDRESS_1, value: 1n }, { gasLimit: 21_000n }),
      signTx(DEV_KEY_0, { to: DEV_ADDRESS_1, value: 2n }, { nonce: base + 2n, gasLimit: 21_000n }),
    ]) {
      expect((await chain.node.broadcastTx(tx)).code).toBe(0);
    }
  });
  afterAll(() => chain?.stop());

  it('txpool_status', async () => {
    expect(await request(client, 'txpool_status')).toEqual({ pending: '0x1', queued: '0x1' });
  });

  it('txpool_content and txpool_contentFrom', async () => {
    const c = (await request(client, 'txpool_content')) as {
      pending: Record<string, Record<string, { hash: string; blockHash: null }>>;
      queued: Record<string, unknown>;
    };
    expect(Object.keys(c.pending)).toEqual([SENDER]);
    const pending = c.pending[SENDER]![base.toString()]!;
    expect(pending.blockHash).toBeNull();
    // The pending tx is the one eth_getTransactionByHash finds in the pool.
    const byHash = await client.getTransaction({ hash: pending.hash as `0x${string}` });
    expect(byHash.nonce).toBe(Number(base));
    expect(Object.keys(c.queued)).toEqual([SENDER]);
    const from = (await request(client, 'txpool_contentFrom', [SENDER])) as { pending: Record<string, unknown>; queued: Record<string, unknown> };
    expect(Object.keys(from.pending)).toEqual([base.toString()]);
    expect(Object.keys(from.queued)).toEqual([(base + 2n).toString()]);
  });

  it.each(['anvil', 'hardhat'] as const)("viem's test client (%s mode): getTxpoolStatus, getTxpoolContent, inspectTxpool", async (mode) => {
    const test = createTestClient({ mode, transport: http(chain.rpcUrl!) });
    expect(await test.getTxpoolStatus()).toEqual({ pending: 1, queued: 1 });
    const content = await test.getTxpoolContent();
    expect(Object.keys(content.pending[SENDER]!)).toEqual([base.toString()]);
    expect(content.queued[SENDER]![(base + 2n).toString()]!.nonce).toBe(`0x${(base + 2n).toString(16)}`);
    const inspect = await test.inspectTxpool();
    expect(inspect.pending[SENDER]![base.toString()]).toBe(`${RECIPIENT}: 1 wei + 21000 gas × 10000000000 wei`);
  });

  it('txpool_inspect', async () => {
    const c = (await request(client, 'txpool_inspect')) as { pending: Record<string, Record<string, string>>; queued: Record<string, Record<string, string>> };
    expect(c.pending[SENDER]![base.toString()]).toBe(`${RECIPIENT}: 1 wei + 21000 gas × 10000000000 wei`);
    expect(c.queued[SENDER]![(base + 2n).toString()]).toBe(`${RECIPIENT}: 2 wei + 21000 gas × 10000000000 wei`);
  });
});
