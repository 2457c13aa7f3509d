import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppConnMempool } from '../abci/application.js';
import { CheckTxType, type ExecTxResult, type RequestCheckTx, type ResponseCheckTx } from '../abci/types.js';
import {
  ACCOUNT_LIMIT_EXCEEDED_LOG,
  CODE_ACCOUNT_LIMIT_EXCEEDED,
  CODE_REPLACEMENT_UNDERPRICED,
  CODE_TXPOOL_FULL,
  MEMPOOL_CODESPACE,
  MempoolFullError,
  TXPOOL_FULL_LOG,
  MempoolNotLockedError,
  TxInCacheError,
  TxTooLargeError,
} from './errors.js';
import { DEFAULT_MEMPOOL_CONFIG, Mempool, type MempoolConfig, type MempoolTx } from './mempool.js';
import { protoTxSize } from './reap.js';

// ── a fake app: txs are JSON, the app keeps one nonce per sender ───────────────────────────

interface FakeTx {
  id: string;
  from?: string;
  nonce?: number;
  /** maxFeePerGas */
  fee?: number;
  /** priority */
  tip?: number;
  gas?: number;
  /** extra bytes, to make a tx bigger */
  pad?: number;
  bad?: boolean;
}

const enc = (t: FakeTx): Uint8Array => new TextEncoder().encode(JSON.stringify({ ...t, pad: 'x'.repeat(t.pad ?? 0) }));
const dec = (tx: Uint8Array): FakeTx & { pad: string } => JSON.parse(new TextDecoder().decode(tx));
const ids = (txs: Uint8Array[]): string[] => txs.map((tx) => dec(tx).id);
const sha256 = (tx: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(tx).digest());
const ethHashOf = (tx: Uint8Array): Uint8Array => sha256(Buffer.concat([Buffer.from('eth'), tx]));

class FakeApp implements AppConnMempool {
  readonly nonces = new Map<string, bigint>();
  readonly calls: Array<{ id: string; type: CheckTxType }> = [];
  readonly failOnRecheck = new Set<string>();
  /** id → priority to answer from now on (e.g. after a base-fee change). */
  readonly tipOverride = new Map<string, number>();

  async checkTx(req: RequestCheckTx): Promise<ResponseCheckTx> {
    const t = dec(req.tx);
    this.calls.push({ id: t.id, type: req.type });
    const base = { data: new Uint8Array(), log: '', info: '', gasWanted: t.gas ?? 21_000, gasUsed: 0, events: [], codespace: '' };
    if (t.bad || (req.type === CheckTxType.Recheck && this.failOnRecheck.has(t.id))) {
      return { ...base, code: 5, log: 'bad tx', codespace: 'fake' };
    }
    if (t.from === undefined) return { ...base, code: 0 };
    const state = this.nonces.get(t.from) ?? 0n;
    if (BigInt(t.nonce ?? 0) < state) return { ...base, code: 3, log: 'nonce too low', codespace: 'fake' };
    return {
      ...base,
      code: 0,
      sender: t.from,
      nonce: BigInt(t.nonce ?? 0),
      priority: BigInt(this.tipOverride.get(t.id) ?? t.tip ?? 1),
      maxFeePerGas: BigInt(t.fee ?? 10),
      senderStateNonce: state,
      ethHash: ethHashOf(req.tx),
    };
  }

  /** "Executes" a block: each ok tx advances its sender's nonce. */
  execute(txs: Uint8Array[], codes: number[] = []): ExecTxResult[] {
    return txs.map((tx, i) => {
      const code = codes[i] ?? 0;
      const t = dec(tx);
      if (code === 0 && t.from !== undefined) this.nonces.set(t.from, BigInt((t.nonce ?? 0) + 1));
      return { code, data: new Uint8Array(), log: '', info: '', gasWanted: 0, gasUsed: 0, events: [], codespace: '' };
    });
  }

  rechecks(): string[] {
    return this.calls.filter((c) => c.type === CheckTxType.Recheck).map((c) => c.id);
  }
}

let app: FakeApp;
let mp: Mempool;
let height = 0;

function setup(config: Partial<MempoolConfig> = {}): void {
  app = new FakeApp();
  mp = new Mempool(app, { ...DEFAULT_MEMPOOL_CONFIG, ...config });
  height = 0;
}

/** What the block executor does: lock, (app commit), update, release. */
async function commit(txs: Uint8Array[], codes: number[] = []): Promise<void> {
  const results = app.execute(txs, codes);
  const release = await mp.lock();
  try {
    await mp.update(++height, txs, results);
  } finally {
    release();
  }
}

async function add(t: FakeTx): Promise<Uint8Array> {
  const tx = enc(t);
  const res = await mp.checkTx(tx);
  expect(res.code).toBe(0);
  return tx;
}

const nonceIds = (m: Map<string, MempoolTx[]>, sender: string): string[] => (m.get(sender) ?? []).map((t) => dec(t.tx).id);

beforeEach(() => setup());

// ── admission ──────────────────────────────────────────────────────────────────────────────

describe('checkTx pre-checks', () => {
  it('rejects a tx over maxTxBytes with CometBFT text, before asking the app', async () => {
    setup({ maxTxBytes: 50 });
    const tx = enc({ id: 'big', pad: 100 });
    const err = await mp.checkTx(tx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TxTooLargeError);
    expect((err as TxTooLargeError).message).toBe(`Tx too large. Max size is 50, but got ${tx.length}`);
    expect(err).toMatchObject({ max: 50, actual: tx.length });
    expect(app.calls).toEqual([]);
  });

  it('rejects when the tx count is at the limit', async () => {
    setup({ size: 1 });
    const first = await add({ id: 'a', from: '0xa', nonce: 0 });
    const err = await mp.checkTx(enc({ id: 'b', from: '0xb', nonce: 0 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MempoolFullError);
    expect((err as Error).message).toBe(`mempool is full: number of txs 1 (max: 1), total txs bytes ${first.length} (max: 1073741824)`);
    expect(err).toMatchObject({ numTxs: 1, maxTxs: 1, txsBytes: first.length, maxTxsBytes: 1_073_741_824 });
    expect(app.calls.map((c) => c.id)).toEqual(['a']);
  });

  it('rejects when the bytes would exceed maxTxsBytes', async () => {
    const first = enc({ id: 'a', from: '0xa', nonce: 0 });
    setup({ maxTxsBytes: first.length + 10 });
    await mp.checkTx(first);
    await expect(mp.checkTx(enc({ id: 'b', from: '0xb', nonce: 0 }))).rejects.toThrow(
      `mempool is full: number of txs 1 (max: 5000), total txs bytes ${first.length} (max: ${first.length + 10})`,
    );
  });

  it('checks fullness before size, as CometBFT does', async () => {
    setup({ size: 1, maxTxBytes: 50 });
    await add({ id: 'a' });
    await expect(mp.checkTx(enc({ id: 'big', pad: 100 }))).rejects.toBeInstanceOf(MempoolFullError);
  });

  it('two concurrent checks cannot both take the last slot', async () => {
    setup({ size: 1 });
    const results = await Promise.allSettled([mp.checkTx(enc({ id: 'a' })), mp.checkTx(enc({ id: 'b' }))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(mp.size()).toBe(1);
  });
});

describe('seen-tx cache', () => {
  it('rejects a tx seen before without asking the app again', async () => {
    const tx = await add({ id: 'a', from: '0xa', nonce: 0 });
    const err = await mp.checkTx(tx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TxInCacheError);
    expect((err as Error).message).toBe('tx already exists in cache');
    expect(app.calls).toHaveLength(1);
  });

  it('returns an app rejection as a response and forgets the tx, so it can be retried', async () => {
    const tx = enc({ id: 'bad', bad: true });
    const res = await mp.checkTx(tx);
    expect(res).toMatchObject({ code: 5, log: 'bad tx', codespace: 'fake' });
    expect(mp.size()).toBe(0);
    expect((await mp.checkTx(tx)).code).toBe(5);
    expect(app.calls).toHaveLength(2);
  });

  it('keeps rejected txs cached with keepInvalidTxsInCache', async () => {
    setup({ keepInvalidTxsInCache: true });
    const tx = enc({ id: 'bad', bad: true });
    expect((await mp.checkTx(tx)).code).toBe(5);
    await expect(mp.checkTx(tx)).rejects.toBeInstanceOf(TxInCacheError);
  });

  it('cacheSize 0 disables the cache but never stores a tx twice', async () => {
    setup({ cacheSize: 0 });
    const tx = await add({ id: 'a', from: '0xa', nonce: 0 });
    expect((await mp.checkTx(tx)).code).toBe(0);
    expect(app.calls).toHaveLength(2);
    expect(mp.size()).toBe(1);
    expect(mp.sizeBytes()).toBe(tx.length);
  });
});

describe('same-nonce replacement', () => {
  it('replaces when fee cap and priority both rise by at least 10%', async () => {
    const seen: string[] = [];
    mp.onNewTx((t) => seen.push(dec(t.tx).id));
    const old = await add({ id: 'old', from: '0xa', nonce: 0, fee: 100, tip: 10 });
    const next = await add({ id: 'new', from: '0xa', nonce: 0, fee: 110, tip: 11 });
    expect(mp.size()).toBe(1);
    expect(mp.sizeBytes()).toBe(next.length);
    expect(mp.has(sha256(old))).toBe(false);
    expect(mp.get(sha256(next))?.maxFeePerGas).toBe(110n);
    expect(ids(mp.reapMaxTxs(-1))).toEqual(['new']);
    expect(seen).toEqual(['old', 'new']);
  });

  it.each([
    ['both below the bump', { fee: 105, tip: 10 }],
    ['fee bumped, priority not', { fee: 200, tip: 10 }],
    ['priority bumped, fee not', { fee: 109, tip: 50 }],
  ])('answers "replacement transaction underpriced" when %s', async (_label, fees) => {
    await add({ id: 'old', from: '0xa', nonce: 0, fee: 100, tip: 10 });
    const tx = enc({ id: 'new', from: '0xa', nonce: 0, ...fees });
    const res = await mp.checkTx(tx);
    expect(res).toMatchObject({ code: CODE_REPLACEMENT_UNDERPRICED, codespace: 'mempool', log: 'replacement transaction underpriced' });
    expect(ids(mp.reapMaxTxs(-1))).toEqual(['old']);
    // An underpriced tx leaves the cache, so it reaches the app (and the rule) again.
    expect((await mp.checkTx(tx)).code).toBe(CODE_REPLACEMENT_UNDERPRICED);
  });
});

// ── ordering ───────────────────────────────────────────────────────────────────────────────

describe('nonce ordering', () => {
  it('hasPending and pendingNonce count only executable txs, without reaping', async () => {
    expect(mp.hasPending()).toBe(false);
    expect(mp.pendingNonce('0xa')).toBeUndefined();
    await add({ id: 'a2', from: '0xa', nonce: 2 });
    expect(mp.hasPending()).toBe(false);
    expect(mp.pendingNonce('0xa')).toBeUndefined();
    await add({ id: 'a0', from: '0xa', nonce: 0 });
    expect(mp.hasPending()).toBe(true);
    expect(mp.pendingNonce('0xa')).toBe(1n);
    await add({ id: 'a1', from: '0xa', nonce: 1 });
    expect(mp.pendingNonce('0xa')).toBe(3n);
  });

  it('holds a tx behind a nonce gap as queued and promotes it once the gap is filled', async () => {
    await add({ id: 'a0', from: '0xa', nonce: 0 });
    await add({ id: 'a2', from: '0xa', nonce: 2 });
    let c = mp.content();
    expect(nonceIds(c.pending, '0xa')).toEqual(['a0']);
    expect(nonceIds(c.queued, '0xa')).toEqual(['a2']);
    expect(ids(mp.reapMaxBytesMaxGas(-1, -1))).toEqual(['a0']);

    await add({ id: 'a1', from: '0xa', nonce: 1 });
    c = mp.content();
    expect(nonceIds(c.pending, '0xa')).toEqual(['a0', 'a1', 'a2']);
    expect(c.queued.size).toBe(0);
    expect(ids(mp.reapMaxBytesMaxGas(-1, -1))).toEqual(['a0', 'a1', 'a2']);
  });

  it('starts a sender at its state nonce', async () => {
    app.nonces.set('0xa', 5n);
    await add({ id: 'a6', from: '0xa', nonce: 6 });
    expect(mp.reapMaxBytesMaxGas(-1, -1)).toEqual([]);
    await add({ id: 'a5', from: '0xa', nonce: 5 });
    expect(ids(mp.reapMaxBytesMaxGas(-1, -1))).toEqual(['a5', 'a6']);
  });

  it('reaps across senders by priority, ties first-come, each sender in nonce order', async () => {
    await add({ id: 'a0', from: '0xa', nonce: 0, tip: 5 });
    await add({ id: 'a1', from: '0xa', nonce: 1, tip: 50 });
    await add({ id: 'b0', from: '0xb', nonce: 0, tip: 10 });
    await add({ id: 'c0', from: '0xc', nonce: 0, tip: 5 });
    await add({ id: 'd1', from: '0xd', nonce: 1, tip: 99 }); // queued: never reaped
    expect(ids(mp.reapMaxBytesMaxGas(-1, -1))).toEqual(['b0', 'a0', 'a1', 'c0']);
  });

  it('lists pending then queued for unconfirmed_txs, up to a limit', async () => {
    await add({ id: 'a0', from: '0xa', nonce: 0, tip: 1 });
    await add({ id: 'a2', from: '0xa', nonce: 2, tip: 1 });
    await add({ id: 'b0', from: '0xb', nonce: 0, tip: 9 });
    expect(ids(mp.reapMaxTxs(-1))).toEqual(['b0', 'a0', 'a2']);
    expect(ids(mp.reapMaxTxs(2))).toEqual(['b0', 'a0']);
    expect(mp.reapMaxTxs(0)).toEqual([]);
  });

  it('keeps txs without a sender FIFO, each its own sender, out of content()', async () => {
    await add({ id: 'x' });
    await add({ id: 'a0', from: '0xa', nonce: 0, tip: 0 });
    await add({ id: 'y' });
    expect(ids(mp.reapMaxBytesMaxGas(-1, -1))).toEqual(['x', 'a0', 'y']);
    const c = mp.content();
    expect([...c.pending.keys()]).toEqual(['0xa']);
    expect(c.queued.size).toBe(0);
  });
});

describe('reap limits', () => {
  it('stops at maxBytes, counting proto-encoded sizes', async () => {
    const a = await add({ id: 'a', from: '0xa', nonce: 0, tip: 3 });
    const b = await add({ id: 'b', from: '0xb', nonce: 0, tip: 2, pad: 20 });
    await add({ id: 'c', from: '0xc', nonce: 0, tip: 1 });
    const two = protoTxSize(a.length) + protoTxSize(b.length);
    expect(ids(mp.reapMaxBytesMaxGas(two, -1))).toEqual(['a', 'b']);
    expect(ids(mp.reapMaxBytesMaxGas(two - 1, -1))).toEqual(['a', 'c']);
    expect(mp.reapMaxBytesMaxGas(0, -1)).toEqual([]);
  });

  it('skips the rest of a sender once one of its txs does not fit, and goes on with others', async () => {
    const a0 = await add({ id: 'a0', from: '0xa', nonce: 0, tip: 10 });
    await add({ id: 'a1', from: '0xa', nonce: 1, tip: 10, pad: 500 });
    await add({ id: 'a2', from: '0xa', nonce: 2, tip: 10 });
    const b0 = await add({ id: 'b0', from: '0xb', nonce: 0, tip: 1 });
    const budget = protoTxSize(a0.length) + protoTxSize(b0.length) + 100;
    expect(ids(mp.reapMaxBytesMaxGas(budget, -1))).toEqual(['a0', 'b0']);
  });

  it('stops at maxGas (sum of gasWanted), per sender likewise', async () => {
    await add({ id: 'a0', from: '0xa', nonce: 0, tip: 10, gas: 30_000 });
    await add({ id: 'a1', from: '0xa', nonce: 1, tip: 10, gas: 50_000 });
    await add({ id: 'a2', from: '0xa', nonce: 2, tip: 10, gas: 10_000 });
    await add({ id: 'b0', from: '0xb', nonce: 0, tip: 1, gas: 30_000 });
    expect(ids(mp.reapMaxBytesMaxGas(-1, 60_000))).toEqual(['a0', 'b0']);
    expect(ids(mp.reapMaxBytesMaxGas(-1, 90_000))).toEqual(['a0', 'a1', 'a2']);
    expect(ids(mp.reapMaxBytesMaxGas(-1, -1))).toEqual(['a0', 'a1', 'a2', 'b0']);
  });
});

// ── block commit ───────────────────────────────────────────────────────────────────────────

describe('update', () => {
  it('removes committed txs, caches them, and rechecks the rest in admission order', async () => {
    const a0 = await add({ id: 'a0', from: '0xa', nonce: 0 });
    await add({ id: 'b0', from: '0xb', nonce: 0 });
    await add({ id: 'a1', from: '0xa', nonce: 1 });
    await commit([a0]);
    expect(mp.size()).toBe(2);
    expect(mp.has(sha256(a0))).toBe(false);
    expect(app.rechecks()).toEqual(['b0', 'a1']);
    expect(ids(mp.reapMaxBytesMaxGas(-1, -1))).toEqual(['b0', 'a1']);
    await expect(mp.checkTx(a0)).rejects.toBeInstanceOf(TxInCacheError);
  });

  it('drops txs that fail the recheck; a sender gap makes its later txs queued', async () => {
    await add({ id: 'a0', from: '0xa', nonce: 0 });
    const a1 = await add({ id: 'a1', from: '0xa', nonce: 1 });
    await add({ id: 'a2', from: '0xa', nonce: 2 });
    app.failOnRecheck.add('a1');
    await commit([]);
    const c = mp.content();
    expect(nonceIds(c.pending, '0xa')).toEqual(['a0']);
    expect(nonceIds(c.queued, '0xa')).toEqual(['a2']);
    app.failOnRecheck.clear();
    // The dropped tx left the cache too, so it can come back and close the gap.
    await mp.checkTx(a1);
    expect(ids(mp.reapMaxBytesMaxGas(-1, -1))).toEqual(['a0', 'a1', 'a2']);
  });

  it('drops txs whose nonce the committed state has passed', async () => {
    await add({ id: 'a0', from: '0xa', nonce: 0 });
    await add({ id: 'a1', from: '0xa', nonce: 1 });
    await add({ id: 'a2', from: '0xa', nonce: 2 });
    app.nonces.set('0xa', 2n); // a block from elsewhere used nonces 0 and 1
    await commit([]);
    expect(ids(mp.reapMaxTxs(-1))).toEqual(['a2']);
  });

  it('refreshes priorities from the recheck answers', async () => {
    await add({ id: 'a0', from: '0xa', nonce: 0, tip: 1 });
    await add({ id: 'b0', from: '0xb', nonce: 0, tip: 5 });
    expect(ids(mp.reapMaxBytesMaxGas(-1, -1))).toEqual(['b0', 'a0']);
    app.tipOverride.set('a0', 9);
    await commit([]);
    expect(ids(mp.reapMaxBytesMaxGas(-1, -1))).toEqual(['a0', 'b0']);
  });

  it('without recheck, advances sender nonces from the committed txs alone', async () => {
    setup({ recheck: false });
    const a0 = await add({ id: 'a0', from: '0xa', nonce: 0 });
    await add({ id: 'a1', from: '0xa', nonce: 1 });
    await commit([a0]);
    expect(app.rechecks()).toEqual([]);
    expect(ids(mp.reapMaxBytesMaxGas(-1, -1))).toEqual(['a1']);
  });

  it('takes a tx that failed in the block out of the cache', async () => {
    const a0 = await add({ id: 'a0', from: '0xa', nonce: 0 });
    await commit([a0], [7]);
    expect(mp.size()).toBe(0);
    expect((await mp.checkTx(a0)).code).toBe(0);
  });

  it('refuses to run without the lock, or with mismatched results', async () => {
    await expect(mp.update(1, [], [])).rejects.toBeInstanceOf(MempoolNotLockedError);
    const release = await mp.lock();
    await expect(mp.update(1, [enc({ id: 'x' })], [])).rejects.toBeInstanceOf(RangeError);
    release();
  });
});

describe('lock', () => {
  it('makes checkTx wait until the executor releases it', async () => {
    const release = await mp.lock();
    const pending = mp.checkTx(enc({ id: 'a', from: '0xa', nonce: 0 }));
    await new Promise((r) => setImmediate(r));
    expect(app.calls).toEqual([]);
    release();
    expect((await pending).code).toBe(0);
    expect(app.calls.map((c) => c.id)).toEqual(['a']);
  });

  it('makes the executor wait for an in-flight checkTx', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const inner = app.checkTx.bind(app);
    app.checkTx = async (req) => {
      await gate;
      return inner(req);
    };
    const checking = mp.checkTx(enc({ id: 'a' }));
    let sizeWhenLocked = -1;
    const locking = mp.lock().then((release) => {
      sizeWhenLocked = mp.size();
      release();
    });
    await new Promise((r) => setImmediate(r));
    expect(sizeWhenLocked).toBe(-1); // the app is still checking: no lock yet
    open();
    await Promise.all([checking, locking]);
    expect(sizeWhenLocked).toBe(1); // granted only after the tx was admitted
  });
});

// ── control and notifications ──────────────────────────────────────────────────────────────

describe('flush and removeTx', () => {
  it('flush empties the pool and the cache', async () => {
    const tx = await add({ id: 'a', from: '0xa', nonce: 0 });
    mp.flush();
    expect(mp.size()).toBe(0);
    expect(mp.sizeBytes()).toBe(0);
    expect(mp.reapMaxTxs(-1)).toEqual([]);
    expect((await mp.checkTx(tx)).code).toBe(0);
  });

  it('removeTx takes the sha256 or the EVM hash, and the tx may be sent again', async () => {
    const a0 = await add({ id: 'a0', from: '0xa', nonce: 0 });
    const a1 = await add({ id: 'a1', from: '0xa', nonce: 1 });
    expect(mp.get(ethHashOf(a1))?.nonce).toBe(1n);
    expect(mp.removeTx(ethHashOf(a0))).toBe(true);
    expect(mp.removeTx(sha256(a0))).toBe(false);
    expect(nonceIds(mp.content().queued, '0xa')).toEqual(['a1']);
    expect(mp.removeTx(sha256(a1))).toBe(true);
    expect(mp.size()).toBe(0);
    expect(mp.sizeBytes()).toBe(0);
    expect(mp.content().queued.size).toBe(0);
    expect((await mp.checkTx(a0)).code).toBe(0);
  });
});

describe('notifications', () => {
  it('onTxsAvailable fires once per height, on the first pending tx and after update', async () => {
    let fired = 0;
    const off = mp.onTxsAvailable(() => fired++);
    await add({ id: 'a1', from: '0xa', nonce: 1 }); // queued only
    expect(fired).toBe(0);
    const a0 = await add({ id: 'a0', from: '0xa', nonce: 0 }); // fills the gap
    expect(fired).toBe(1);
    await add({ id: 'b0', from: '0xb', nonce: 0 });
    expect(fired).toBe(1);

    await commit([a0]); // pending txs remain
    expect(fired).toBe(2);
    await commit(mp.reapMaxBytesMaxGas(-1, -1)); // pool emptied: no signal
    expect(mp.size()).toBe(0);
    expect(fired).toBe(2);
    await add({ id: 'c0', from: '0xc', nonce: 0 });
    expect(fired).toBe(3);

    off();
    await commit([]);
    expect(fired).toBe(3);
  });

  it('onNewTx gets every admitted tx with its ordering fields', async () => {
    const seen: MempoolTx[] = [];
    const off = mp.onNewTx((t) => seen.push(t));
    const tx = await add({ id: 'a', from: '0xA', nonce: 3, fee: 40, tip: 7, gas: 50_000 });
    await mp.checkTx(enc({ id: 'bad', bad: true }));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      tx,
      hash: sha256(tx),
      ethHash: ethHashOf(tx),
      sender: '0xa',
      nonce: 3n,
      priority: 7n,
      maxFeePerGas: 40n,
      gasWanted: 50_000,
    });
    expect(typeof seen[0]!.addedAt).toBe('number');
    off();
    await add({ id: 'b', from: '0xb', nonce: 0 });
    expect(seen).toHaveLength(1);
  });
});

// ── queued (nonce-gapped) txs: geth's accountqueue / globalqueue ─────────────────────────────

describe('queue limits', () => {
  const queuedIds = (sender: string): string[] => nonceIds(mp.content().queued, sender);
  const pendingIds = (sender: string): string[] => nonceIds(mp.content().pending, sender);

  it('a gap flood of 500 future-nonce txs from one account locks out neither other accounts nor the gap-filler', async () => {
    setup({ size: 500 });
    const codes: number[] = [];
    for (let n = 1; n <= 500; n++) codes.push((await mp.checkTx(enc({ id: `f${n}`, from: '0xf', nonce: n }))).code);
    // The first 64 (geth's default accountqueue) wait behind the gap; the further ones are refused.
    expect(codes.filter((c) => c === 0)).toHaveLength(64);
    expect(codes.slice(64).every((c) => c === CODE_ACCOUNT_LIMIT_EXCEEDED)).toBe(true);
    const refused = await mp.checkTx(enc({ id: 'f501', from: '0xf', nonce: 501 }));
    expect(refused).toMatchObject({ code: CODE_ACCOUNT_LIMIT_EXCEEDED, codespace: MEMPOOL_CODESPACE, log: 'account limit exceeded' });
    expect(ACCOUNT_LIMIT_EXCEEDED_LOG).toBe('account limit exceeded');
    expect(mp.size()).toBe(64);

    expect((await mp.checkTx(enc({ id: 'other', from: '0xb', nonce: 0 }))).code).toBe(0);
    expect((await mp.checkTx(enc({ id: 'f0', from: '0xf', nonce: 0 }))).code).toBe(0);
    expect(pendingIds('0xf')).toEqual(Array.from({ length: 65 }, (_, n) => `f${n}`));
    expect(queuedIds('0xf')).toEqual([]);
    expect(pendingIds('0xb')).toEqual(['other']);
    // A refused tx is not cached: once there is room for it, it may be sent again.
    expect((await mp.checkTx(enc({ id: 'f65', from: '0xf', nonce: 65 }))).code).toBe(0);
  });

  it('the per-account cap at its edge: N queued accepted, a further N+1th refused, a nearer one evicts the furthest', async () => {
    setup({ accountQueue: 3 });
    for (const n of [2, 3, 4]) await add({ id: `a${n}`, from: '0xa', nonce: n });
    expect(queuedIds('0xa')).toEqual(['a2', 'a3', 'a4']);
    expect(await mp.checkTx(enc({ id: 'a5', from: '0xa', nonce: 5 }))).toMatchObject({ code: CODE_ACCOUNT_LIMIT_EXCEEDED, log: 'account limit exceeded' });
    expect(queuedIds('0xa')).toEqual(['a2', 'a3', 'a4']);
    const evicted = enc({ id: 'a4', from: '0xa', nonce: 4 });
    await add({ id: 'a1', from: '0xa', nonce: 1 });
    expect(queuedIds('0xa')).toEqual(['a1', 'a2', 'a3']);
    expect(mp.has(sha256(evicted))).toBe(false);
    // Pending txs never count: the gap-filler makes all four pending, and the evicted tx may come back.
    await add({ id: 'a0', from: '0xa', nonce: 0 });
    expect((await mp.checkTx(evicted)).code).toBe(0);
    for (const n of [6, 7, 8]) await add({ id: `a${n}`, from: '0xa', nonce: n });
    expect(pendingIds('0xa')).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
    expect(queuedIds('0xa')).toEqual(['a6', 'a7', 'a8']);
    // Replacing a queued tx is not a new slot.
    await add({ id: 'a8+', from: '0xa', nonce: 8, fee: 20, tip: 2 });
    expect(queuedIds('0xa')).toEqual(['a6', 'a7', 'a8+']);
  });

  it('the global cap at its edge: the furthest tx of the sender with the most queued goes', async () => {
    setup({ accountQueue: 10, globalQueue: 4 });
    for (const n of [1, 2, 3]) await add({ id: `a${n}`, from: '0xa', nonce: n });
    await add({ id: 'b1', from: '0xb', nonce: 1 });
    expect(mp.size()).toBe(4);
    // A fifth queued tx: 0xa holds the most, its furthest (a3) goes.
    await add({ id: 'b2', from: '0xb', nonce: 2 });
    expect(queuedIds('0xa')).toEqual(['a1', 'a2']);
    expect(queuedIds('0xb')).toEqual(['b1', 'b2']);
    // 0xa would hold the most again, and the new tx is its furthest: refused.
    expect(await mp.checkTx(enc({ id: 'a9', from: '0xa', nonce: 9 }))).toMatchObject({
      code: CODE_TXPOOL_FULL,
      codespace: MEMPOOL_CODESPACE,
      log: 'txpool is full',
    });
    expect(TXPOOL_FULL_LOG).toBe('txpool is full');
    expect(mp.size()).toBe(4);
    // Executable txs are not queued: they never count against the cap.
    await add({ id: 'c0', from: '0xc', nonce: 0 });
    expect(mp.size()).toBe(5);
  });

  it('an executable tx evicts queued ones from a full pool; a queued one is refused; pending ones are never evicted', async () => {
    setup({ size: 3 });
    for (const n of [1, 2, 3]) await add({ id: `a${n}`, from: '0xa', nonce: n });
    await add({ id: 'b0', from: '0xb', nonce: 0 });
    expect(queuedIds('0xa')).toEqual(['a1', 'a2']);
    await expect(mp.checkTx(enc({ id: 'b2', from: '0xb', nonce: 2 }))).rejects.toBeInstanceOf(MempoolFullError);
    await add({ id: 'a0', from: '0xa', nonce: 0 });
    expect(pendingIds('0xa')).toEqual(['a0', 'a1']);
    expect(pendingIds('0xb')).toEqual(['b0']);
    // Only pending txs left: the pool is full for everyone.
    await expect(mp.checkTx(enc({ id: 'c0', from: '0xc', nonce: 0 }))).rejects.toBeInstanceOf(MempoolFullError);
    expect(mp.size()).toBe(3);
  });

  it('frees room by bytes as well as by count', async () => {
    const one = enc({ id: 'a1', from: '0xa', nonce: 1 }).length;
    setup({ maxTxsBytes: one * 2 + 5 });
    await add({ id: 'a1', from: '0xa', nonce: 1 });
    await add({ id: 'a2', from: '0xa', nonce: 2 });
    await add({ id: 'b0', from: '0xb', nonce: 0 });
    expect(queuedIds('0xa')).toEqual(['a1']);
    expect(pendingIds('0xb')).toEqual(['b0']);
  });

  it('update() trims a queue that a recheck gap made longer than the cap', async () => {
    setup({ accountQueue: 2 });
    for (const n of [0, 1, 2, 3, 4]) await add({ id: `a${n}`, from: '0xa', nonce: n });
    app.failOnRecheck.add('a1');
    await commit([]);
    expect(pendingIds('0xa')).toEqual(['a0']);
    expect(queuedIds('0xa')).toEqual(['a2', 'a3']);
  });
});
