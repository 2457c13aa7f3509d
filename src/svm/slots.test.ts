/**
 * Slots after a long idle stretch close compactly (only the last max(window, maxBlocks) one by
 * one), with the state closing every slot one by one leaves; and a tx is recorded in the slot it
 * ran in even when a slot falls due while it runs.
 */
import { getTransferSolInstruction } from '@solana-program/system';
import { createKeyPairSignerFromBytes, lamports } from '@solana/kit';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedWire } from '../../test/svm/helpers.js';
import { DEV_MNEMONIC } from '../genesis/dev-accounts.js';
import { JOURNAL_FILE, openSvmStore } from './journal.js';
import { BLOCKHASH_WINDOW, SvmLedger } from './ledger.js';

const SOMEONE = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const T0 = 1_800_000_000_000;
const SLOT_MS = 400;
const MAX_BLOCKS = 200;
const WEEK_SLOTS = (7 * 24 * 3600 * 1000) / SLOT_MS;

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Ledger options on a hand-moved clock. */
function clockOpts(): { opts: { mnemonic: string; accounts: number; maxBlocks: number; now: () => number }; advance: (ms: number) => void } {
  let now = T0;
  return { opts: { mnemonic: DEV_MNEMONIC, accounts: 2, maxBlocks: MAX_BLOCKS, now: () => now }, advance: (ms) => void (now += ms) };
}

async function transfer(ledger: SvmLedger): Promise<Uint8Array> {
  const payer = await createKeyPairSignerFromBytes(ledger.devAccounts[0]!.secretKey);
  const send = getTransferSolInstruction({ source: payer, destination: ledger.devAccounts[1]!.address as never, amount: lamports(1_000n) });
  return Buffer.from(await signedWire(payer, [send], ledger.latestBlockhash() as never), 'base64');
}

/** What a client can see of the ledger's slots: everything a compact catch-up must leave as one by one would. */
function observable(ledger: SvmLedger) {
  const slot = ledger.slot;
  const window: unknown[] = [];
  for (let s = slot - BigInt(BLOCKHASH_WINDOW) - 2n; s <= slot; s++) window.push([s, ledger.slotInfo(s)]);
  const blocks = [...ledger.history.allBlocks()];
  return {
    slot,
    blockHeight: ledger.blockHeight,
    latest: ledger.latestBlockhash(),
    window,
    blocks,
    first: ledger.history.firstAvailableBlock(),
    lastBlock: ledger.history.block(slot - 1n),
    clock: ledger.svm.getClock().slot,
  };
}

describe('closing a long idle run of slots', () => {
  it('closes only the last max(window, maxBlocks) slots one by one, leaving the state of closing each', async () => {
    const a = clockOpts();
    const b = clockOpts();
    const compact = await SvmLedger.create(a.opts);
    const oneByOne = await SvmLedger.create(b.opts);
    // The same tx (the same genesis blockhash, deterministic signatures) in slot 0 of both.
    const wire = await transfer(compact);
    expect(compact.send(wire).slot).toBe(0n);
    expect(oneByOne.send(wire).slot).toBe(0n);
    const oldHash = compact.latestBlockhash().blockhash;
    compact.startClock(SLOT_MS);
    oneByOne.startClock(SLOT_MS);
    const heard: bigint[] = [];
    const skips: [bigint, bigint][] = [];
    compact.onSlot((s) => heard.push(s));
    compact.onSkip((from, to) => skips.push([from, to]));

    const run = 1_000;
    a.advance(run * SLOT_MS + 123);
    for (let i = 0; i < run; i++) {
      b.advance(SLOT_MS);
      expect(oneByOne.slot).toBe(BigInt(i + 1));
    }
    b.advance(123);

    expect(observable(compact)).toEqual(observable(oneByOne));
    expect(compact.slot).toBe(BigInt(run));
    // The open slot's block, then one skip, then the last MAX_BLOCKS slots one by one.
    expect(skips).toEqual([[2n, BigInt(run - MAX_BLOCKS)]]);
    expect(heard.length).toBe(1 + MAX_BLOCKS);
    expect(heard[0]).toBe(1n);
    expect(heard.slice(1)).toEqual(Array.from({ length: MAX_BLOCKS }, (_, i) => BigInt(run - MAX_BLOCKS + 1 + i)));
    expect(compact.isBlockhashValid(oldHash)).toBe(false);
    expect(compact.transaction(compact.history.all().next().value!.signature)?.slot).toBe(0n);
    compact.stopClock();
    oneByOne.stopClock();
  });

  it('after a week idle writes a bounded journal, and a restart replays it to the same state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainlet-svm-slots-'));
    dirs.push(dir);
    const { opts, advance } = clockOpts();
    const a = await openSvmStore({ dir, ledger: opts });
    a.ledger.airdrop(SOMEONE, 7_000n);
    a.ledger.startClock(SLOT_MS);
    const closed: bigint[] = [];
    a.ledger.onSlot((s) => closed.push(s));
    advance(WEEK_SLOTS * SLOT_MS);
    expect(a.ledger.slot).toBe(BigInt(WEEK_SLOTS));
    expect(closed.length).toBe(1 + MAX_BLOCKS);
    const kinds = readFileSync(join(dir, JOURNAL_FILE), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { k: string }).k);
    expect(kinds).toEqual(['tx', 'slot', 'slots', ...Array<string>(MAX_BLOCKS).fill('slot')]);
    const before = observable(a.ledger);
    a.ledger.stopClock();
    // No close(): as after a kill -9.
    const b = await openSvmStore({ dir, ledger: opts });
    expect(observable(b.ledger)).toEqual(before);
    expect(b.ledger.balance(SOMEONE)).toBe(7_000n);
    b.close();
    a.close();
  });

  it('with maxBlocks below the blockhash window keeps the whole window', async () => {
    const { opts, advance } = clockOpts();
    const ledger = await SvmLedger.create({ ...opts, maxBlocks: 5 });
    ledger.startClock(SLOT_MS);
    const heard: bigint[] = [];
    ledger.onSlot((s) => heard.push(s));
    advance(10_000 * SLOT_MS);
    expect(ledger.slot).toBe(10_000n);
    expect(heard.length).toBe(1 + BLOCKHASH_WINDOW + 1);
    expect(ledger.slotInfo(10_000n - BigInt(BLOCKHASH_WINDOW))).toBeDefined();
    expect([...ledger.history.allBlocks()].map((b) => b.slot)).toEqual([9_994n, 9_995n, 9_996n, 9_997n, 9_998n, 9_999n].slice(1));
    ledger.stopClock();
  });
});

describe('a tx during which a slot falls due', () => {
  it('is recorded in the slot it ran in (its blockhash and Clock), and its block holds it', async () => {
    const { opts, advance } = clockOpts();
    const ledger = await SvmLedger.create(opts);
    const wire = await transfer(ledger);
    ledger.startClock(SLOT_MS);
    // The slot boundary passes while LiteSVM executes.
    const exec = ledger.svm.sendTransaction.bind(ledger.svm);
    vi.spyOn(ledger.svm, 'sendTransaction').mockImplementation((tx) => {
      expect(ledger.svm.getClock().slot).toBe(0n);
      advance(SLOT_MS);
      return exec(tx);
    });
    const rec = ledger.send(wire);
    expect(rec.slot).toBe(0n);
    expect(ledger.slot).toBe(1n);
    expect(ledger.history.block(0n)?.txs.map((t) => t.signature)).toEqual([rec.signature]);
    expect(ledger.history.block(1n)).toBeUndefined();

    const set = ledger.svm.setAccount.bind(ledger.svm);
    vi.spyOn(ledger.svm, 'setAccount').mockImplementation((a) => {
      advance(SLOT_MS);
      set(a);
    });
    const sig = ledger.airdrop(SOMEONE, 1_000n);
    expect(ledger.transaction(sig)?.slot).toBe(1n);
    expect(ledger.slot).toBe(2n);
    ledger.stopClock();
  });
});
