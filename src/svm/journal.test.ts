import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEV_MNEMONIC } from '../genesis/dev-accounts.js';
import { JOURNAL_FILE, openSvmStore, SNAPSHOT_FILE } from './journal.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'chainlet-svm-journal-'));
  dirs.push(d);
  return d;
};
const opts = { mnemonic: DEV_MNEMONIC, accounts: 2 };
const SOMEONE = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

describe('the SVM journal', () => {
  it('replays airdrops and slots written since the snapshot, without a clean close', async () => {
    const dir = tmp();
    const a = await openSvmStore({ dir, ledger: opts });
    const sig = a.ledger.airdrop(SOMEONE, 5_000_000n);
    a.ledger.advanceSlot();
    a.ledger.advanceSlot();
    // No close(): as after a kill -9.
    const b = await openSvmStore({ dir, ledger: opts });
    expect(b.ledger.balance(SOMEONE)).toBe(5_000_000n);
    expect(b.ledger.transaction(sig)?.postBalances).toEqual([5_000_000n]);
    expect(b.ledger.slot).toBe(2n);
    expect(b.ledger.latestBlockhash().blockhash).toBe(a.ledger.latestBlockhash().blockhash);
    expect(b.ledger.history.block(1n)?.block.blockhash).toBe(a.ledger.history.block(1n)?.block.blockhash);
    b.close();
    a.close();
  });

  it('cuts off a torn last line and keeps appending after it', async () => {
    const dir = tmp();
    const a = await openSvmStore({ dir, ledger: opts });
    a.ledger.airdrop(SOMEONE, 1_000_000n);
    appendFileSync(join(dir, JOURNAL_FILE), '{"n":99,"k":"tx","a":[{"addr');
    const b = await openSvmStore({ dir, ledger: opts });
    expect(b.ledger.balance(SOMEONE)).toBe(1_000_000n);
    b.ledger.airdrop(SOMEONE, 2_000_000n);
    const c = await openSvmStore({ dir, ledger: opts });
    expect(c.ledger.balance(SOMEONE)).toBe(3_000_000n);
    expect(readFileSync(join(dir, JOURNAL_FILE), 'utf8').endsWith('\n')).toBe(true);
    a.close();
  });

  it('folds the journal into a snapshot once it passes maxJournalBytes, and at close', async () => {
    const dir = tmp();
    const a = await openSvmStore({ dir, ledger: opts, maxJournalBytes: 2000 });
    for (let i = 0; i < 10; i++) a.ledger.airdrop(SOMEONE, 1_000_000n);
    expect(statSync(join(dir, JOURNAL_FILE)).size).toBeGreaterThan(2000);
    a.ledger.advanceSlot();
    expect(statSync(join(dir, JOURNAL_FILE)).size).toBe(0);
    a.ledger.airdrop(SOMEONE, 1_000_000n);
    const b = await openSvmStore({ dir, ledger: opts });
    expect(b.ledger.balance(SOMEONE)).toBe(11_000_000n);
    a.close();
    expect(statSync(join(dir, JOURNAL_FILE)).size).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, SNAPSHOT_FILE), 'utf8')).slot).toBe('1');
  });
});
