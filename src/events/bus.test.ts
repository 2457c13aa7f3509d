import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AbciEvent, ExecTxResult } from '../abci/types.js';
import { EventBus } from './bus.js';
import { AlreadySubscribedError, EventBusClosedError, SubscriptionNotFoundError } from './errors.js';
import { flattenEvents } from './flatten.js';
import { Query } from './query/query.js';
import { EventType, queryForEvent, type EventMessage, type TxResult } from './types.js';

function execResult(events: AbciEvent[] = []): ExecTxResult {
  return { code: 0, data: new Uint8Array(), log: '', info: '', gasWanted: 0, gasUsed: 0, events, codespace: '' };
}

function txResult(height: number, index: number, events: AbciEvent[] = []): TxResult {
  return { height, index, tx: new TextEncoder().encode(`tx-${height}-${index}`), result: execResult(events) };
}

const transfer = (sender: string): AbciEvent => ({
  type: 'transfer',
  attributes: [
    { key: 'sender', value: sender, index: true },
    { key: 'amount', value: '10atom', index: false },
  ],
});

const round = (height: number) => ({ height, round: 0, step: 'RoundStepPropose' });

describe('flattenEvents', () => {
  it('joins type and key, keeps value order and skips empty types and keys', () => {
    const events: AbciEvent[] = [
      transfer('a'),
      transfer('b'),
      { type: '', attributes: [{ key: 'x', value: '1', index: true }] },
      {
        type: 'm',
        attributes: [
          { key: '', value: '2', index: true },
          { key: 'k', value: '3', index: false },
        ],
      },
    ];
    expect(flattenEvents(events)).toEqual({
      'transfer.sender': ['a', 'b'],
      'transfer.amount': ['10atom', '10atom'],
      'm.k': ['3'],
    });
    const into = { 'tm.event': ['Tx'] };
    expect(flattenEvents([transfer('c')], into)).toBe(into);
    expect(into).toEqual({ 'tm.event': ['Tx'], 'transfer.sender': ['c'], 'transfer.amount': ['10atom'] });
  });
});

describe('EventBus', () => {
  it('delivers matching events in publish order with tm.event in the map', async () => {
    const bus = new EventBus();
    const sub = bus.subscribe('c1', queryForEvent(EventType.NewRoundStep));
    for (let h = 1; h <= 3; h++) bus.publish(EventType.NewRoundStep, round(h));
    bus.publish(EventType.Lock, round(9));
    const got = [await sub.next(), await sub.next(), await sub.next()];
    expect(got.map((m) => m?.data.value)).toEqual([round(1), round(2), round(3)]);
    expect(got[0]!.events).toEqual({ 'tm.event': ['NewRoundStep'] });
    expect(sub.buffered).toBe(0);
  });

  it('publishTx builds tx.hash, tx.height and flattened attributes', async () => {
    const bus = new EventBus();
    const sub = bus.subscribe('c1', "tm.event = 'Tx' AND transfer.sender CONTAINS 'x'");
    const r1 = txResult(5, 0, [transfer('alice')]);
    const r2 = txResult(5, 1, [transfer('xavier')]);
    bus.publishTx(r1);
    bus.publishTx(r2);
    const m = (await sub.next())!;
    expect(m.data).toEqual({ type: 'Tx', value: { txResult: r2 } });
    expect(m.events).toEqual({
      'transfer.sender': ['xavier'],
      'transfer.amount': ['10atom'],
      'tx.hash': [createHash('sha256').update(r2.tx).digest('hex').toUpperCase()],
      'tx.height': ['5'],
      'tm.event': ['Tx'],
    });
    expect(sub.buffered).toBe(0);
  });

  it('filters by the whole query, including tx.height ranges', async () => {
    const bus = new EventBus();
    const high = bus.subscribe('c1', "tm.event = 'Tx' AND tx.height > 5");
    const all = bus.subscribe('c2', "tm.event = 'Tx'");
    for (let h = 4; h <= 7; h++) bus.publishTx(txResult(h, 0));
    expect(high.buffered).toBe(2);
    expect(all.buffered).toBe(4);
    expect((await high.next())!.events['tx.height']).toEqual(['6']);
  });

  it('publishes block events with their flattened attributes', async () => {
    const bus = new EventBus();
    const sub = bus.subscribe('c1', "tm.event = 'NewBlockEvents' AND transfer.sender = 'bob'");
    const other = bus.subscribe('c1', "transfer.sender = 'bob'");
    bus.publishNewBlockEvents({ height: 3, events: [transfer('bob')], numTxs: 0 });
    bus.publishNewBlockEvents({ height: 4, events: [transfer('eve')], numTxs: 1 });
    expect(sub.buffered).toBe(1);
    expect(other.buffered).toBe(1);
    expect((await sub.next())!.events).toEqual({
      'transfer.sender': ['bob'],
      'transfer.amount': ['10atom'],
      'tm.event': ['NewBlockEvents'],
    });
  });

  it('adds extra keys to generic publishes without touching the caller map', async () => {
    const bus = new EventBus();
    const sub = bus.subscribe('c1', "validator.address = 'AB'");
    const extra = { 'validator.address': ['AB'] };
    bus.publish(EventType.ValidatorOffline, { height: 2, address: new Uint8Array([0xab]) }, extra);
    expect(extra).toEqual({ 'validator.address': ['AB'] });
    expect((await sub.next())!.events).toEqual({ 'validator.address': ['AB'], 'tm.event': ['ValidatorOffline'] });
  });

  it('does no work for events nobody wants', () => {
    const bus = new EventBus();
    const poisoned = {
      get tx(): Uint8Array {
        throw new Error('tx must not be read');
      },
      height: 1,
      index: 0,
      result: execResult(),
    } as TxResult;
    expect(bus.hasSubscribers()).toBe(false);
    expect(() => bus.publishTx(poisoned)).not.toThrow();
    bus.subscribe('c1', queryForEvent(EventType.NewBlock));
    expect(bus.wants(EventType.Tx)).toBe(false);
    expect(() => bus.publishTx(poisoned)).not.toThrow();
    bus.subscribe('c2', 'tx.height > 0');
    expect(bus.wants(EventType.Tx)).toBe(true);
  });

  it('rejects duplicate subscriptions by canonical query, per subscriber', () => {
    const bus = new EventBus();
    bus.subscribe('c1', "tm.event='Tx'");
    expect(() => bus.subscribe('c1', "tm.event = 'Tx'")).toThrow(AlreadySubscribedError);
    expect(() => bus.subscribe('c1', "tm.event = 'Tx'")).toThrow('already subscribed');
    bus.subscribe('c2', "tm.event='Tx'");
    bus.subscribe('c1', Query.parse("tm.event='NewBlock'"));
    expect(bus.numClients()).toBe(2);
    expect(bus.numClientSubscriptions('c1')).toBe(2);
    expect(bus.numClientSubscriptions('nobody')).toBe(0);
  });

  it('unsubscribes one query or all, and reports unknown ones', async () => {
    const bus = new EventBus();
    const a = bus.subscribe('c1', "tm.event='Tx'");
    const b = bus.subscribe('c1', "tm.event='NewBlockHeader'");
    const pending = a.next();
    bus.unsubscribe('c1', "tm.event = 'Tx'");
    expect(await pending).toBeUndefined();
    expect(a.canceled).toBe(true);
    expect(a.cancelReason).toBe('client unsubscribed');
    expect(bus.numClientSubscriptions('c1')).toBe(1);
    expect(() => bus.unsubscribe('c1', "tm.event='Tx'")).toThrow(SubscriptionNotFoundError);
    expect(() => bus.unsubscribe('c1', "tm.event='Tx'")).toThrow('subscription not found');

    bus.publishTx(txResult(1, 0));
    expect(a.buffered).toBe(0);
    bus.unsubscribeAll('c1');
    expect(b.canceled).toBe(true);
    expect(bus.numClients()).toBe(0);
    expect(() => bus.unsubscribeAll('c1')).toThrow(SubscriptionNotFoundError);
    // The same query can be subscribed again after unsubscribing.
    expect(bus.subscribe('c1', "tm.event='Tx'").canceled).toBe(false);
  });

  it('cancels a pull subscriber whose buffer overflows, keeping what was buffered', async () => {
    const bus = new EventBus();
    const sub = bus.subscribe('slow', queryForEvent(EventType.NewRoundStep), { bufferSize: 2 });
    const reasons: string[] = [];
    sub.onCancel((r) => reasons.push(r));
    for (let h = 1; h <= 3; h++) bus.publish(EventType.NewRoundStep, round(h));
    expect(sub.canceled).toBe(true);
    expect(sub.cancelReason).toBe('client is not pulling messages fast enough');
    expect(reasons).toEqual(['client is not pulling messages fast enough']);
    expect(bus.numClients()).toBe(0);
    expect((await sub.next())?.data.value).toEqual(round(1));
    expect((await sub.next())?.data.value).toEqual(round(2));
    expect(await sub.next()).toBeUndefined();
  });

  it('hands events straight to a waiting next() without using the buffer', async () => {
    const bus = new EventBus();
    const sub = bus.subscribe('c1', queryForEvent(EventType.Polka), { bufferSize: 1 });
    const waiting = [sub.next(), sub.next()];
    bus.publish(EventType.Polka, round(1));
    bus.publish(EventType.Polka, round(2));
    bus.publish(EventType.Polka, round(3));
    expect((await Promise.all(waiting)).map((m) => m?.data.value)).toEqual([round(1), round(2)]);
    expect(sub.buffered).toBe(1);
    expect(sub.canceled).toBe(false);
  });

  it('supports for-await iteration and ends it on cancel', async () => {
    const bus = new EventBus();
    const sub = bus.subscribe('c1', queryForEvent(EventType.NewRound));
    const seen: number[] = [];
    const loop = (async () => {
      for await (const m of sub) {
        seen.push((m.data.value as { height: number }).height);
        if (seen.length === 2) setImmediate(() => bus.close());
      }
    })();
    const proposer = { address: new Uint8Array(20), index: 0 };
    bus.publish(EventType.NewRound, { ...round(1), proposer });
    bus.publish(EventType.NewRound, { ...round(2), proposer });
    await loop;
    expect(seen).toEqual([1, 2]);
    expect(sub.cancelReason).toBe('CometBFT exited');
  });

  it('breaking out of for-await unsubscribes', async () => {
    const bus = new EventBus();
    const sub = bus.subscribe('c1', queryForEvent(EventType.Lock));
    bus.publish(EventType.Lock, round(1));
    for await (const m of sub) {
      expect(m.data.type).toBe('Lock');
      break;
    }
    expect(sub.canceled).toBe(true);
    expect(bus.numClients()).toBe(0);
  });

  it('push mode delivers synchronously, flushing what was buffered first', () => {
    const bus = new EventBus();
    const sub = bus.subscribe('ws', queryForEvent(EventType.NewRoundStep), { bufferSize: 1 });
    bus.publish(EventType.NewRoundStep, round(1));
    const got: EventMessage[] = [];
    sub.setListener((m) => got.push(m));
    expect(got).toHaveLength(1);
    for (let h = 2; h <= 10; h++) bus.publish(EventType.NewRoundStep, round(h));
    expect(got.map((m) => (m.data.value as { height: number }).height)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(sub.canceled).toBe(false);
  });

  it('a throwing listener cancels only its own subscription', () => {
    const bus = new EventBus();
    const bad = bus.subscribe('ws1', queryForEvent(EventType.Relock));
    const good = bus.subscribe('ws2', queryForEvent(EventType.Relock));
    bad.setListener(() => {
      throw new Error('socket gone');
    });
    let count = 0;
    good.setListener(() => count++);
    bus.publish(EventType.Relock, round(1));
    bus.publish(EventType.Relock, round(2));
    expect(bad.cancelReason).toBe('listener failed: socket gone');
    expect(count).toBe(2);
  });

  it('close cancels everything with the reason and refuses new subscriptions', async () => {
    const bus = new EventBus();
    const subs = [bus.subscribe('a', "tm.event='Tx'"), bus.subscribe('b', 'x.y EXISTS')];
    const pending = subs[1]!.next();
    bus.close();
    expect(await pending).toBeUndefined();
    expect(subs.map((s) => s.cancelReason)).toEqual(['CometBFT exited', 'CometBFT exited']);
    expect(() => bus.subscribe('a', "tm.event='Tx'")).toThrow(EventBusClosedError);
    expect(bus.numClients()).toBe(0);
    expect(() => bus.publishTx(txResult(1, 0))).not.toThrow();
  });

  it('a listener may unsubscribe others while an event is being delivered', () => {
    const bus = new EventBus();
    const first = bus.subscribe('a', queryForEvent(EventType.Unlock));
    const second = bus.subscribe('b', queryForEvent(EventType.Unlock));
    first.setListener(() => bus.unsubscribeAll('b'));
    bus.publish(EventType.Unlock, round(1));
    expect(second.canceled).toBe(true);
    expect(second.buffered).toBe(0);
  });
});

describe('EventBus event maps on demand', () => {
  /** A tx result that counts how often its events are read (once per map built). */
  function countingTx(): { tx: TxResult; reads: () => number } {
    let reads = 0;
    const result = execResult();
    const events = [transfer('alice')];
    Object.defineProperty(result, 'events', { get: () => (reads++, events) });
    return { tx: { height: 3, index: 0, tx: new TextEncoder().encode('tx-3-0'), result }, reads: () => reads };
  }

  it('builds no map for a `tm.event` subscriber until its message is read, then once', () => {
    const bus = new EventBus();
    const got: EventMessage[] = [];
    bus.subscribe('relayer', queryForEvent(EventType.Tx)).setListener((m) => got.push(m));
    const { tx, reads } = countingTx();
    bus.publishTx(tx);
    expect(got).toHaveLength(1);
    expect(reads()).toBe(0);
    const hash = createHash('sha256').update('tx-3-0').digest('hex').toUpperCase();
    expect(got[0]!.events).toEqual({ 'transfer.sender': ['alice'], 'transfer.amount': ['10atom'], 'tx.hash': [hash], 'tx.height': ['3'], 'tm.event': ['Tx'] });
    expect(reads()).toBe(1);
    expect(got[0]!.events).toBe(got[0]!.events); // built once
    // JSON (a WebSocket envelope) sees the map as a plain property.
    expect(JSON.parse(JSON.stringify(got[0])).events['tm.event']).toEqual(['Tx']);
  });

  it('builds the map once to match conditions, and shares it among subscribers', () => {
    const bus = new EventBus();
    const got: string[] = [];
    bus.subscribe('a', `tm.event = 'Tx' AND transfer.sender = 'alice'`).setListener(() => got.push('a'));
    bus.subscribe('b', `tm.event = 'Tx' AND transfer.sender = 'bob'`).setListener(() => got.push('b'));
    bus.subscribe('c', `transfer.sender EXISTS`).setListener(() => got.push('c'));
    bus.subscribe('d', queryForEvent(EventType.Tx)).setListener((m) => got.push(m.events['tx.height']![0]!));
    const { tx, reads } = countingTx();
    bus.publishTx(tx);
    expect(got.sort()).toEqual(['3', 'a', 'c']);
    expect(reads()).toBe(1);
  });
});
