import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, addr, ethHash, startTraceChain, type TraceChain } from '../../../test/helpers/trace-chain.js';
import { erc20TransferData } from '../fixtures/erc20.js';
import { bytesHex, hashHex, quantity, wordToBigInt, bigIntToWord } from './json.js';
import { traceTransaction } from './trace-tx.js';
import type { PrestateAccount } from './types.js';

type Pre = Record<string, PrestateAccount>;
type Diff = { pre: Pre; post: Pre };

let chain: TraceChain;
let transfer: Uint8Array;
let second: Uint8Array;
let toFresh: Uint8Array;
let transferHeight: number;
const FRESH = '0x00000000000000000000000000000000c0ffee01';

beforeAll(async () => {
  chain = await startTraceChain();
  transfer = chain.sign({ to: chain.token, data: erc20TransferData(DEV_ADDRESS_1, 10n) });
  second = chain.sign({ to: chain.token, data: erc20TransferData(DEV_ADDRESS_1, 20n) });
  transferHeight = await chain.block(transfer, second);
  toFresh = chain.sign({ to: FRESH, value: 123n }, { gasLimit: 21_000n });
  await chain.block(toFresh);
});
afterAll(() => chain?.stop());

const trace = async (tx: Uint8Array, tracerConfig: Record<string, unknown> = {}) =>
  traceTransaction(chain.source, ethHash(tx), { tracer: 'prestateTracer', tracerConfig });

describe('prestateTracer', () => {
  it('gives the touched accounts and slots as they were before the tx', async () => {
    const pre = (await trace(transfer)) as Pre;
    const coinbase = (await chain.view.getBlock(transferHeight))!.coinbase.toString();
    expect(Object.keys(pre).sort()).toEqual([DEV_ADDRESS_0, chain.token, coinbase].sort());
    // The tx is the block's first: its pre-state is the state after the previous block.
    const parent = await chain.view.stateAt(transferHeight - 1);
    const sender = (await parent.getAccount(addr(DEV_ADDRESS_0)))!;
    expect(pre[DEV_ADDRESS_0]).toEqual({ balance: quantity(sender.balance), nonce: Number(sender.nonce) });
    const token = pre[chain.token]!;
    const code = await parent.getCode(addr(chain.token));
    expect(token.code).toBe(bytesHex(code));
    expect(token.codeHash).toBe(bytesHex((await parent.getAccount(addr(chain.token)))!.codeHash));
    expect(token.nonce).toBe(1); // EIP-161: contracts start at nonce 1
    expect(token.balance).toBe('0x0');
    // Two balance slots: the sender's (its whole supply) and the recipient's (empty).
    const slots = Object.entries(token.storage!);
    expect(slots).toHaveLength(2);
    for (const [slot, value] of slots) {
      expect(slot).toMatch(/^0x[0-9a-f]{64}$/);
      const onChain = wordToBigInt(await parent.getStorage(addr(chain.token), bigIntToWord(BigInt(slot))));
      expect(value).toBe(hashHex(onChain));
    }
    expect(slots.map(([, v]) => BigInt(v)).sort()).toEqual([0n, 1000n]);
  });

  it('sees the effects of the earlier txs of the block', async () => {
    const pre = (await trace(second)) as Pre;
    const values = Object.values(pre[chain.token]!.storage!)
      .map((v) => BigInt(v))
      .sort((a, b) => Number(a - b));
    expect(values).toEqual([10n, 990n]);
    expect(pre[DEV_ADDRESS_0]!.nonce).toBe(Number((await chain.view.getTransaction(ethHash(second)))!.tx.nonce));
  });

  it('in diffMode shows only what changed, before and after', async () => {
    const { pre, post } = (await trace(transfer, { diffMode: true })) as Diff;
    const loc = (await chain.view.getTransaction(ethHash(transfer)))!;
    const receipt = (await chain.view.getReceipts(loc.height))[loc.index]!;
    const before = BigInt(pre[DEV_ADDRESS_0]!.balance!);
    expect(BigInt(post[DEV_ADDRESS_0]!.balance!)).toBe(before - receipt.gasUsed * receipt.effectiveGasPrice);
    expect(post[DEV_ADDRESS_0]!.nonce).toBe(pre[DEV_ADDRESS_0]!.nonce! + 1);
    // The token's code and balance did not change: post has only its storage.
    expect(Object.keys(post[chain.token]!)).toEqual(['storage']);
    expect(
      Object.values(post[chain.token]!.storage!)
        .map((v) => BigInt(v))
        .sort(),
    ).toEqual([10n, 990n]);
    // A slot that was empty before is left out of `pre`.
    expect(Object.values(pre[chain.token]!.storage!).map((v) => BigInt(v))).toEqual([1000n]);
  });

  it('leaves out accounts that did not exist, unless includeEmpty', async () => {
    const pre = (await trace(toFresh)) as Pre;
    expect(pre[FRESH]).toBeUndefined();
    expect(pre[DEV_ADDRESS_0]).toBeDefined();
    const withEmpty = (await trace(toFresh, { includeEmpty: true })) as Pre;
    expect(withEmpty[FRESH]).toEqual({ balance: '0x0' });
    const { post } = (await trace(toFresh, { diffMode: true })) as Diff;
    expect(post[FRESH]).toEqual({ balance: '0x7b' });
  });

  it('honours disableCode and disableStorage', async () => {
    const pre = (await trace(transfer, { disableCode: true, disableStorage: true })) as Pre;
    expect(pre[chain.token]!.code).toBeUndefined();
    expect(pre[chain.token]!.storage).toBeUndefined();
    expect(pre[chain.token]!.codeHash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('refuses a tracerConfig value of the wrong type as geth does', async () => {
    await expect(trace(transfer, { diffMode: 'yes' })).rejects.toThrow(
      'json: cannot unmarshal string into Go struct field prestateTracerConfig.diffMode of type bool',
    );
  });
});
