import { createHash } from 'node:crypto';
import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import type { AbciEvent, EventAttribute, ExecTxResult } from '../abci/types.js';
import { Query } from '../events/query/query.js';
import type { TxResult } from '../events/types.js';
import { InvalidHashQueryError, ReservedEventKeyError } from './errors.js';
import { createTxIndexer, type TxIndexer } from './tx-indexer.js';

const attr = (key: string, value: string, index = true): EventAttribute => ({ key, value, index });
const ev = (type: string, ...attributes: EventAttribute[]): AbciEvent => ({ type, attributes });

function execResult(events: AbciEvent[], code = 0): ExecTxResult {
  return { code, data: new Uint8Array([1, 2]), log: '', info: '', gasWanted: 21000, gasUsed: 21000, events, codespace: '' };
}

function txr(height: number, index: number, events: AbciEvent[]): TxResult {
  return { height, index, tx: new TextEncoder().encode(`tx ${height}/${index}`), result: execResult(events) };
}

const hashOf = (r: TxResult) => createHash('sha256').update(r.tx).digest();
const at = (rs: TxResult[]) => rs.map((r) => `${r.height}/${r.index}`);

/** Heights 1..4, two txs each; amounts grow with height, senders alternate. */
async function seeded(): Promise<{ idx: TxIndexer; all: TxResult[] }> {
  const idx = await createTxIndexer(new MemoryLevel());
  const all: TxResult[] = [];
  for (let h = 1; h <= 4; h++) {
    const block = [0, 1].map((i) =>
      txr(h, i, [
        ev('message', attr('action', i === 0 ? 'send' : 'call'), attr('sender', i === 0 ? 'alice' : 'bob')),
        ev('transfer', attr('recipient', `cosmos1r${h}${i}`), attr('amount', `${h * 100 + i}atom`), attr('memo', 'secret', false)),
      ]),
    );
    await idx.index(block);
    all.push(...block);
  }
  return { idx, all };
}

const search = (idx: TxIndexer, q: string) => idx.search(Query.parse(q)).then(at);

describe('TxIndexer', () => {
  it('gets by hash and round-trips the result', async () => {
    const { idx, all } = await seeded();
    const got = await idx.get(hashOf(all[3]!));
    expect(got).toEqual(all[3]);
    expect(got!.tx).toBeInstanceOf(Uint8Array);
    expect(await idx.get(new Uint8Array(32))).toBeUndefined();
    expect(await idx.get(new Uint8Array())).toBeUndefined();
  });

  it('answers tx.hash queries by hash (upper or lower case) and ignores other conditions', async () => {
    const { idx, all } = await seeded();
    const hex = hashOf(all[5]!).toString('hex');
    expect(await search(idx, `tx.hash = '${hex.toUpperCase()}'`)).toEqual(['3/1']);
    expect(await search(idx, `tm.event = 'Tx' AND tx.hash = '${hex}' AND tx.height = 99`)).toEqual(['3/1']);
    expect(await search(idx, `tx.hash = '${'00'.repeat(32)}'`)).toEqual([]);
    await expect(idx.search(Query.parse("tx.hash = 'XYZ'"))).rejects.toBeInstanceOf(InvalidHashQueryError);
  });

  it('checks other operators on tx.hash against the upper-case hex hash', async () => {
    const { idx, all } = await seeded();
    const hex = hashOf(all[2]!).toString('hex').toUpperCase();
    expect(await search(idx, `tx.hash CONTAINS '${hex.slice(10, 30)}'`)).toEqual(['2/0']);
    expect(await search(idx, `tx.hash CONTAINS '${hex.slice(10, 30).toLowerCase()}'`)).toEqual([]);
    expect(await search(idx, "tx.hash EXISTS AND message.sender = 'bob'")).toEqual(['1/1', '2/1', '3/1', '4/1']);
  });

  it('searches by height with =, ranges and no event conditions', async () => {
    const { idx } = await seeded();
    expect(await search(idx, 'tx.height = 2')).toEqual(['2/0', '2/1']);
    expect(await search(idx, "tm.event = 'Tx' AND tx.height > 2")).toEqual(['3/0', '3/1', '4/0', '4/1']);
    expect(await search(idx, 'tx.height >= 2 AND tx.height < 4')).toEqual(['2/0', '2/1', '3/0', '3/1']);
    expect(await search(idx, 'tx.height <= 1.5')).toEqual(['1/0', '1/1']);
    expect(await search(idx, 'tx.height = 2.5')).toEqual([]);
    expect(await search(idx, 'tx.height > 99999999999999999999')).toEqual([]);
    expect(await search(idx, 'tx.height EXISTS')).toHaveLength(8);
    // tm.event is not indexed and is ignored: every tx matches.
    expect(await search(idx, "tm.event = 'Tx'")).toHaveLength(8);
  });

  it('searches event attributes by exact value, CONTAINS, EXISTS and numeric ranges', async () => {
    const { idx } = await seeded();
    expect(await search(idx, "message.sender = 'alice'")).toEqual(['1/0', '2/0', '3/0', '4/0']);
    expect(await search(idx, "message.sender = 'alice' AND tx.height >= 3")).toEqual(['3/0', '4/0']);
    expect(await search(idx, "transfer.recipient CONTAINS 'r3'")).toEqual(['3/0', '3/1']);
    expect(await search(idx, 'transfer.amount > 300')).toEqual(['3/1', '4/0', '4/1']);
    expect(await search(idx, 'transfer.amount >= 201 AND transfer.amount <= 300')).toEqual(['2/1', '3/0']);
    expect(await search(idx, 'transfer.amount = 401')).toEqual(['4/1']);
    expect(await search(idx, 'message.action EXISTS AND tx.height < 2')).toEqual(['1/0', '1/1']);
    expect(await search(idx, "message.sender = 'carol'")).toEqual([]);
  });

  it('does not index attributes with index: false', async () => {
    const { idx } = await seeded();
    expect(await search(idx, "transfer.memo = 'secret'")).toEqual([]);
    expect(await search(idx, 'transfer.memo EXISTS')).toEqual([]);
  });

  it('matches conditions within one event only (v0.38)', async () => {
    const idx = await createTxIndexer(new MemoryLevel());
    const r = txr(1, 0, [ev('transfer', attr('sender', 'bob'), attr('amount', '100')), ev('transfer', attr('sender', 'tom'), attr('amount', '200'))]);
    await idx.index([r]);
    expect(await search(idx, "transfer.sender = 'bob' AND transfer.amount = 100")).toEqual(['1/0']);
    expect(await search(idx, "transfer.sender = 'tom' AND transfer.amount > 150")).toEqual(['1/0']);
    expect(await search(idx, "transfer.sender = 'bob' AND transfer.amount = 200")).toEqual([]);
    expect(await search(idx, "transfer.sender = 'tom' AND transfer.sender = 'bob'")).toEqual([]);
  });

  it('rejects events that use reserved keys, writing nothing', async () => {
    const idx = await createTxIndexer(new MemoryLevel());
    const ok = txr(1, 0, [ev('a', attr('b', 'c'))]);
    const bad = txr(1, 1, [ev('tx', attr('height', '5', false))]);
    await expect(idx.index([ok, bad])).rejects.toBeInstanceOf(ReservedEventKeyError);
    await expect(idx.index([bad])).rejects.toThrow('event type and attribute key "tx.height" is reserved; please use a different key');
    expect(await idx.get(hashOf(ok))).toBeUndefined();
  });

  it('keeps values with separators, quotes and unicode searchable', async () => {
    const idx = await createTxIndexer(new MemoryLevel());
    const odd = ['a\u0000b', 'x\u0001y', 'path/with/slashes', 'ünï €', "it's"];
    await idx.index(odd.map((v, i) => txr(1, i, [ev('odd', attr('v', v))])));
    expect(await search(idx, "odd.v = 'a\u0000b'")).toEqual(['1/0']);
    expect(await search(idx, "odd.v = 'x\u0001y'")).toEqual(['1/1']);
    expect(await search(idx, "odd.v CONTAINS '/with/'")).toEqual(['1/2']);
    expect(await search(idx, "odd.v = 'ünï €'")).toEqual(['1/3']);
    expect(await search(idx, "odd.v CONTAINS 'b'")).toEqual(['1/0']);
    expect(await search(idx, "odd.v = 'a'")).toEqual([]);
  });

  it('lets a later result for the same tx win and applies limit', async () => {
    const idx = await createTxIndexer(new MemoryLevel());
    const first = txr(1, 0, [ev('m', attr('k', 'old'))]);
    const again = { ...first, height: 2, result: execResult([ev('m', attr('k', 'new'))]) };
    await idx.index([first]);
    await idx.index([again]);
    expect((await idx.get(hashOf(first)))?.height).toBe(2);
    expect(await search(idx, "m.k = 'old'")).toEqual([]);
    expect(await search(idx, "m.k = 'new'")).toEqual(['2/0']);
    expect(await search(idx, 'tx.height >= 1')).toEqual(['2/0']);
    const { idx: full } = await seeded();
    expect(at(await full.search(Query.parse('tx.height > 0'), { limit: 3 }))).toEqual(['1/0', '1/1', '2/0']);
  });

  it('indexes a block of 5000 txs in one batch and finds them', async () => {
    const db = new MemoryLevel();
    const idx = await createTxIndexer(db);
    const block = Array.from({ length: 5000 }, (_, i) =>
      txr(7, i, [ev('ethereum_tx', attr('txIndex', String(i)), attr('sender', `0x${(i % 50).toString(16).padStart(40, '0')}`))]),
    );
    let batches = 0;
    const batch = db.batch.bind(db);
    (db as { batch: unknown }).batch = (...args: Parameters<typeof batch>) => {
      batches++;
      return batch(...args);
    };
    await idx.index(block);
    expect(batches).toBe(1);
    expect(await full(idx, 'tx.height = 7')).toBe(5000);
    expect(await full(idx, `ethereum_tx.sender = '0x${'0'.repeat(39)}1'`)).toBe(100);
    expect(await search(idx, 'ethereum_tx.txIndex >= 4998')).toEqual(['7/4998', '7/4999']);
  });
});

async function full(idx: TxIndexer, q: string): Promise<number> {
  return (await idx.search(Query.parse(q))).length;
}
