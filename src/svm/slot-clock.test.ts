/**
 * The SVM slot clock is read, not ticked: an idle ledger runs no timer, and the slots due by the
 * wall clock close when the ledger is next read, each stamped with the time it was due. A timer
 * runs only for a live slot listener (slotSubscribe) or an open slot holding a tx.
 */
import { getTransferSolInstruction } from '@solana-program/system';
import { createKeyPairSignerFromBytes, lamports } from '@solana/kit';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedWire } from '../../test/svm/helpers.js';
import { startSvmChain } from '../chains/svm/start.js';
import { DEV_MNEMONIC } from '../genesis/dev-accounts.js';
import { openSvmStore } from './journal.js';
import { SvmLedger } from './ledger.js';

const SOMEONE = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const T0 = 1_800_000_000_000;

/** A ledger on a hand-moved clock. */
async function ledgerAt(): Promise<{ ledger: SvmLedger; advance: (ms: number) => void }> {
  let now = T0;
  const ledger = await SvmLedger.create({ mnemonic: DEV_MNEMONIC, accounts: 2, now: () => now });
  return { ledger, advance: (ms) => void (now += ms) };
}

/** A signed transfer between the first two dev accounts, on the ledger's latest blockhash. */
async function transfer(ledger: SvmLedger): Promise<Uint8Array> {
  const payer = await createKeyPairSignerFromBytes(ledger.devAccounts[0]!.secretKey);
  const send = getTransferSolInstruction({ source: payer, destination: ledger.devAccounts[1]!.address as never, amount: lamports(1_000n) });
  return Buffer.from(await signedWire(payer, [send], ledger.latestBlockhash() as never), 'base64');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the SVM slot clock', () => {
  it('runs no timer while idle and closes the due slots when read, each at its due time', async () => {
    const { ledger, advance } = await ledgerAt();
    ledger.startClock(400);
    expect(ledger.clockArmed).toBe(false);
    advance(4_000 + 399);
    expect(ledger.slot).toBe(10n);
    expect(ledger.blockHeight).toBe(10n);
    expect(ledger.clockArmed).toBe(false);
    // Slot n started when slot n - 1 was due: T0 + 400·n.
    for (const n of [1n, 5n, 10n]) expect(ledger.slotInfo(n)?.timeMs).toBe(T0 + 400 * Number(n));
    expect(ledger.history.block(9n)?.block.timeMs).toBe(T0 + 3_600);
    advance(1);
    expect(ledger.slot).toBe(11n);
    // `advanceSlot` (mine) closes a slot at once without moving the clock's own schedule.
    ledger.advanceSlot();
    expect(ledger.slot).toBe(12n);
    advance(400);
    expect(ledger.slot).toBe(13n);
    ledger.stopClock();
  });

  it('tells slot listeners of every slot in order, a run of them at once with `more` on all but the last', async () => {
    const { ledger, advance } = await ledgerAt();
    ledger.startClock(400);
    const heard: [bigint, boolean][] = [];
    const off = ledger.onSlot((s, more) => heard.push([s, more]));
    advance(1_200);
    expect(heard).toEqual([]);
    expect(ledger.clockArmed).toBe(false);
    void ledger.slot;
    expect(heard).toEqual([
      [1n, true],
      [2n, true],
      [3n, false],
    ]);
    off();
    ledger.stopClock();
  });

  it('arms a timer only for a live slot listener or an open slot with a tx', async () => {
    const { ledger, advance } = await ledgerAt();
    const wire = await transfer(ledger);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    ledger.startClock(400);
    expect(vi.getTimerCount()).toBe(0);

    const live: bigint[] = [];
    const off = ledger.onSlot((s) => live.push(s), { live: true });
    expect(vi.getTimerCount()).toBe(1);
    advance(400);
    vi.advanceTimersByTime(400);
    expect(live).toEqual([1n]);
    expect(vi.getTimerCount()).toBe(1);
    off();
    advance(400);
    vi.advanceTimersByTime(400);
    expect(live).toEqual([1n]);
    expect(vi.getTimerCount()).toBe(0);

    // An airdrop makes no block line: no timer.
    ledger.airdrop(SOMEONE, 1_000n);
    expect(vi.getTimerCount()).toBe(0);
    // A tx in the open slot: its block closes on time, then the clock is idle again.
    expect(ledger.send(wire).err).toBeNull();
    expect(vi.getTimerCount()).toBe(1);
    const closed: bigint[] = [];
    ledger.onSlot((s) => closed.push(s));
    advance(400);
    vi.advanceTimersByTime(400);
    expect(closed).toEqual([3n]);
    expect(ledger.history.block(2n)?.txs.length).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
    ledger.stopClock();
  });

  it('journals a run of slots closed at once, and a kill -9 after it loses none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainlet-svm-clock-'));
    try {
      let now = T0;
      const opts = { mnemonic: DEV_MNEMONIC, accounts: 2, now: () => now };
      const a = await openSvmStore({ dir, ledger: opts });
      a.ledger.startClock(400);
      now += 400 * 20;
      expect(a.ledger.slot).toBe(20n);
      a.ledger.stopClock();
      // No close(): as after a kill -9.
      const b = await openSvmStore({ dir, ledger: opts });
      expect(b.ledger.slot).toBe(20n);
      expect(b.ledger.slotInfo(20n)).toEqual(a.ledger.slotInfo(20n));
      expect(b.ledger.latestBlockhash().blockhash).toBe(a.ledger.latestBlockhash().blockhash);
      b.close();
      a.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('journals slots in order when a clock slot falls due while `advanceSlot` closes one (a listener reads the ledger)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainlet-svm-clock-'));
    try {
      let now = T0;
      // Every read of the clock moves it on: slots fall due in the middle of closing one (a long `mine`).
      const opts = { mnemonic: DEV_MNEMONIC, accounts: 2, now: () => (now += 150) };
      const a = await openSvmStore({ dir, ledger: opts });
      a.ledger.startClock(400);
      for (let i = 0; i < 20; i++) a.ledger.advanceSlot();
      const slot = a.ledger.slot;
      a.ledger.stopClock();
      // No close(): as after a kill -9; the journal replays slot after slot.
      const b = await openSvmStore({ dir, ledger: opts });
      expect(b.ledger.slot).toBe(slot);
      b.close();
      a.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an idle SVM chain starts no timer (the slot clock is read, not ticked)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'] });
    const chain = await startSvmChain({ kind: 'svm', rpc: '', accounts: 2 });
    try {
      expect(vi.getTimerCount()).toBe(0);
      expect(chain.height).toBe(0);
    } finally {
      await chain.stop();
    }
  });
});
