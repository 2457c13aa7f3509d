/**
 * eth_subscribe's fan-out with fake sessions: a block's logs and a pending tx are serialized once
 * for every subscriber, and each notification is the bytes of the whole object as before.
 */
import { createTx } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EvmBlock, EvmReceipt } from '../../app/views/evm-view.js';
import type { EthEnv } from './env.js';
import { formatLog, formatTx } from './format.js';
import { subscribe } from './pubsub.js';
import type { WsSession } from './route.js';
import { SubscriptionRegistry } from './subscriptions.js';

type BlockListener = (b: EvmBlock, r: EvmReceipt[]) => void;

function fakeEnv(pending?: { tx: ReturnType<typeof createTx>; sender: Address; hash: Uint8Array }) {
  const blocks = new Set<BlockListener>();
  const txs = new Set<(h: Uint8Array) => void>();
  const env = {
    view: { onBlock: (l: BlockListener) => (blocks.add(l), () => blocks.delete(l)) },
    txpool: { onNewTx: (l: (h: Uint8Array) => void) => (txs.add(l), () => txs.delete(l)), pending: () => pending },
    subscriptions: new SubscriptionRegistry(),
  } as unknown as EthEnv;
  return { env, block: (b: EvmBlock, r: EvmReceipt[]) => blocks.forEach((l) => l(b, r)), newTx: (h: Uint8Array) => txs.forEach((l) => l(h)) };
}

let nextSession = 0;
function session(): WsSession & { sent: string[] } {
  const sent: string[] = [];
  return { id: ++nextSession, sent, send: (t) => (sent.push(t), true), onClose: () => undefined };
}

const ADDRESS = new Address(new Uint8Array(20).fill(0xaa));
const TOPIC = new Uint8Array(32).fill(0x11);
const block = { number: 5, timestamp: 1_700_000_000n, logsBloom: new Uint8Array(256).fill(0xff) } as unknown as EvmBlock;
const receipt = {
  txHash: new Uint8Array(32).fill(2),
  txIndex: 0,
  blockNumber: 5,
  blockHash: new Uint8Array(32).fill(3),
  logs: [
    { address: ADDRESS, topics: [TOPIC], data: new Uint8Array([1, 2]), logIndex: 0, transactionIndex: 0 },
    { address: new Address(new Uint8Array(20).fill(0xbb)), topics: [], data: new Uint8Array(), logIndex: 1, transactionIndex: 0 },
  ],
} as unknown as EvmReceipt;

const stringify = vi.spyOn(JSON, 'stringify');
afterEach(() => stringify.mockClear());

/** The notification as it was built before: JSON.stringify of the whole object. */
const whole = (id: string, result: unknown) => JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: id, result } });

describe('eth_subscribe fan-out', () => {
  it('serializes each log once however many logs subscribers it matches', () => {
    const { env, block: emit } = fakeEnv();
    const subs = [session(), session(), session()];
    const ids = subs.map((s, i) => subscribe(env, ['logs', i === 2 ? { address: `0x${'aa'.repeat(20)}` } : {}], { session: s }));
    stringify.mockClear();
    emit(block, [receipt]);
    // Two logs: each encoded once, for three subscribers (the third matches only the first log).
    expect(stringify).toHaveBeenCalledTimes(2);
    const [l0, l1] = receipt.logs.map((l) => formatLog(l, receipt, block.timestamp));
    expect(subs[0]!.sent).toEqual([whole(ids[0]!, l0), whole(ids[0]!, l1)]);
    expect(subs[1]!.sent).toEqual([whole(ids[1]!, l0), whole(ids[1]!, l1)]);
    expect(subs[2]!.sent).toEqual([whole(ids[2]!, l0)]);
    const resultOf = (t: string) => t.slice(t.indexOf(',"result":'));
    expect(resultOf(subs[1]!.sent[0]!)).toBe(resultOf(subs[0]!.sent[0]!));
  });

  it('serializes a pending tx once per form (hash, full tx) however many subscribers', () => {
    const key = new Uint8Array(32).fill(7);
    const tx = createTx({ nonce: 0n, gasLimit: 21_000n, gasPrice: 1n, to: ADDRESS, value: 1n }).sign(key);
    const hash = tx.hash();
    const { env, newTx } = fakeEnv({ tx, sender: tx.getSenderAddress(), hash });
    const hashSubs = [session(), session(), session()];
    const fullSubs = [session(), session()];
    const hashIds = hashSubs.map((s) => subscribe(env, ['newPendingTransactions', undefined], { session: s }));
    const fullIds = fullSubs.map((s) => subscribe(env, ['newPendingTransactions', true], { session: s }));
    stringify.mockClear();
    newTx(hash);
    expect(stringify).toHaveBeenCalledTimes(2);
    hashSubs.forEach((s, i) => expect(s.sent).toEqual([whole(hashIds[i]!, `0x${Buffer.from(hash).toString('hex')}`)]));
    fullSubs.forEach((s, i) => expect(s.sent).toEqual([whole(fullIds[i]!, formatTx(tx, tx.getSenderAddress(), hash))]));
  });
});
