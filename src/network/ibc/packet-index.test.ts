import { createHash } from 'node:crypto';
import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import type { AbciEvent } from '../../abci/types.js';
import { EventBus } from '../../events/bus.js';
import { Query } from '../../events/query/query.js';
import type { TxResult } from '../../events/types.js';
import { createTxIndexer } from '../../store/tx-indexer.js';
import { PacketIndex, type IndexedChain } from './packet-index.js';

const A = 'chain-a';
const B = 'chain-b';

const ev = (type: string, kv: Record<string, string>): AbciEvent => ({
  type,
  attributes: Object.entries(kv).map(([key, value]) => ({ key, value, index: true })),
});

/** ibc-go's packet attributes of a transfer of `amount` from A's channel-0 to B's channel-1. */
const packet = (seq: number, amount = String(seq)) => ({
  packet_data_hex: Buffer.from(JSON.stringify({ amount, denom: 'ua', receiver: 'r', sender: 's' })).toString('hex'),
  packet_timeout_height: '0-0',
  packet_timeout_timestamp: '0',
  packet_sequence: String(seq),
  packet_src_port: 'transfer',
  packet_src_channel: 'channel-0',
  packet_dst_port: 'transfer',
  packet_dst_channel: 'channel-1',
});
const send = (seq: number) => ev('send_packet', packet(seq));
const recv = (seq: number, ack = '{"result":"AQ=="}') => [
  ev('recv_packet', packet(seq)),
  ev('write_acknowledgement', { ...packet(seq), packet_ack_hex: Buffer.from(ack).toString('hex') }),
];
const acked = (seq: number) => ev('acknowledge_packet', packet(seq));

interface TestChain {
  chain: IndexedChain;
  /** Commits one tx with these events: indexed, and published to subscribers unless `missed`. */
  commit(events: AbciEvent[], missed?: boolean): Promise<{ hash: Uint8Array; height: number; hex: string }>;
  reads: { get: number; search: number };
}

async function testChain(chainId: string, indexed = true): Promise<TestChain> {
  const bus = new EventBus();
  const idx = await createTxIndexer(new MemoryLevel());
  let height = 0;
  const reads = { get: 0, search: 0 };
  const chain: IndexedChain = {
    chainId,
    subscribe: (q, s) => bus.subscribe(s ?? 'test', q),
    height: () => height,
    blockTime: async (h) => (h <= height ? new Date(Date.UTC(2025, 0, 1, 0, 0, h)).toISOString() : undefined),
    latestTimeNs: async () => 0n,
    ...(indexed
      ? {
          txs: {
            get: (hash: Uint8Array) => (reads.get++, idx.get(hash)),
            search: (q: string) => (reads.search++, idx.search(Query.parse(q))),
          },
        }
      : {}),
  };
  return {
    chain,
    reads,
    async commit(events, missed = false) {
      height++;
      const tx = new TextEncoder().encode(`${chainId} tx ${height}`);
      const r: TxResult = {
        height,
        index: 0,
        tx,
        result: { code: 0, data: new Uint8Array(), log: '', info: '', gasWanted: 0, gasUsed: 0, events, codespace: '' },
      };
      await idx.index([r]);
      if (!missed) bus.publishTx(r);
      const hash = createHash('sha256').update(tx).digest();
      return { hash, height, hex: hash.toString('hex').toUpperCase() };
    },
  };
}

function indexOver(a: TestChain, b: TestChain): PacketIndex {
  const index = new PacketIndex([a.chain, b.chain], (h) => `link/${h}`);
  index.connect({ chainId: A, port: 'transfer', channel: 'channel-0' }, { chainId: B, port: 'transfer', channel: 'channel-1' });
  return index;
}

describe('PacketIndex', () => {
  it('reads back a transfer sent before it started from the tx indexes, and reads nothing at start', async () => {
    const [a, b] = [await testChain(A), await testChain(B)];
    const sent = await a.commit([send(1)]);
    const received = await b.commit(recv(1, '{"error":"ABCI code: 5: insufficient funds"}'));
    const ack = await a.commit([acked(1)]);
    const index = indexOver(a, b);
    expect([a.reads, b.reads]).toEqual([
      { get: 0, search: 0 },
      { get: 0, search: 0 },
    ]);

    const [t, ...rest] = await index.transfersOf(A, sent.hash, sent.height);
    expect(rest).toEqual([]);
    expect(t).toMatchObject({
      srcChainId: A,
      dstChainId: B,
      sequence: 1n,
      amount: '1',
      send: { chainId: A, txHash: sent.hex, height: sent.height, explorerLink: `link/${sent.hex}`, time: '2025-01-01T00:00:01Z' },
      receive: { chainId: B, txHash: received.hex, ackError: 'ABCI code: 5: insufficient funds' },
      acknowledge: { chainId: A, txHash: ack.hex, ackError: 'ABCI code: 5: insufficient funds' },
    });
    // Settled: a second status reads only the entry.
    const before = { ...a.reads };
    expect(await index.transfersOf(A, sent.hash, sent.height)).toEqual([t]);
    expect(a.reads).toEqual(before);
    index.stop();
  });

  it('looks nothing up for a tx above its start height (it saw those live)', async () => {
    const [a, b] = [await testChain(A), await testChain(B)];
    const index = indexOver(a, b);
    const plain = await a.commit([ev('transfer', { amount: '1ua' })]);
    expect(await index.transfersOf(A, plain.hash, plain.height)).toEqual([]);
    const sent = await a.commit([send(1)]);
    expect((await index.transfersOf(A, sent.hash, sent.height)).map((t) => t.send.txHash)).toEqual([sent.hex]);
    expect(a.reads).toEqual({ get: 0, search: 0 });
    index.stop();
  });

  it('completes a packet in flight at its start: steps before the read found in the indexes, later ones live', async () => {
    const [a, b] = [await testChain(A), await testChain(B)];
    const sent = await a.commit([send(1)]);
    const index = indexOver(a, b);
    // Received after the start, before any status asked: the live event finds no entry yet.
    await b.commit(recv(1));
    const [pending] = await index.transfersOf(A, sent.hash, sent.height);
    expect(pending?.receive?.chainId).toBe(B);
    expect(pending?.acknowledge).toBeUndefined();
    // An acknowledgement whose event the index did not hear (committed while a read was under way) is searched again.
    const ack = await a.commit([acked(1)], true);
    const [done] = await index.transfersOf(A, sent.hash, sent.height);
    expect(done?.acknowledge?.txHash).toBe(ack.hex);
    index.stop();
  });

  it('follows a read-back packet with live events once it has an entry', async () => {
    const [a, b] = [await testChain(A), await testChain(B)];
    const sent = await a.commit([send(1)]);
    const index = indexOver(a, b);
    expect((await index.transfersOf(A, sent.hash, sent.height))[0]?.receive).toBeUndefined();
    const received = await b.commit(recv(1));
    const ack = await a.commit([acked(1)]);
    const [done] = await index.transfersOf(A, sent.hash, sent.height);
    expect([done?.receive?.txHash, done?.acknowledge?.txHash]).toEqual([received.hex, ack.hex]);
    index.stop();
  });

  it('finds nothing from before its start on a chain without a tx index', async () => {
    const [a, b] = [await testChain(A, false), await testChain(B, false)];
    const sent = await a.commit([send(1)]);
    const index = indexOver(a, b);
    expect(await index.transfersOf(A, sent.hash, sent.height)).toEqual([]);
    expect(await index.recent(10)).toEqual([]);
    index.stop();
  });

  it('lists the latest sends from before its start after the live ones, at most `limit`, read once', async () => {
    const [a, b] = [await testChain(A), await testChain(B)];
    for (let seq = 1; seq <= 5; seq++) await a.commit([send(seq)]);
    await b.commit(recv(5));
    const index = indexOver(a, b);
    await a.commit([send(6)]);
    expect((await index.recent(3)).map((t) => [t.sequence, t.receive?.chainId])).toEqual([
      [6n, undefined],
      [5n, B],
      [4n, undefined],
    ]);
    const searches = a.reads.search;
    expect((await index.recent(3)).map((t) => t.sequence)).toEqual([6n, 5n, 4n]);
    // Only the unsettled read-back packets' steps are searched again, not the sends.
    expect(a.reads.search - searches).toBe(4);
    index.stop();
  });
});
