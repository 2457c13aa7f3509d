/**
 * The SVM chain on a home, crash-safe: a snapshot (`svm-state.json`: accounts, slot, blockhash
 * window, signatures, tx records, blocks) plus an append-only journal (`svm-journal.log`, one JSON
 * line per entry) of what happened since:
 *
 *   tx    the accounts the tx (or airdrop) changed, with their new state, and its record: one line,
 *         written (write(2), synchronous) before the tx's sender gets its answer, so a kill -9
 *         loses nothing that was answered
 *   slot  a closed slot (the next slot's blockhash and start time); the journal is fsynced here, so
 *         a power loss loses at most the open slot
 *   slots a run of empty slots closed in one step after a long idle stretch (slots.ts): one line,
 *         however long the stretch
 *
 * Start: the snapshot, then the journal's entries newer than it (a torn last line, from a crash
 * mid-write, is cut off). The journal is folded into a new snapshot when it passes
 * `maxJournalBytes` (at a slot boundary) and at a clean stop.
 */
import { closeSync, existsSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, statSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { SvmLedger, type SvmLedgerOptions, type SvmLedgerState, type SvmSavedAccount } from './ledger.js';
import { recordFromJson, recordToJson, type SavedRecord } from './record-json.js';

export const SNAPSHOT_FILE = 'svm-state.json';
export const JOURNAL_FILE = 'svm-journal.log';
export const DEFAULT_MAX_JOURNAL_BYTES = 64 * 1024 * 1024;

type Entry =
  | { n: number; k: 'tx'; a: SvmSavedAccount[]; r: SavedRecord }
  | { n: number; k: 'slot'; s: string; h: string; t: number }
  | { n: number; k: 'slots'; from: string; to: string; t: number };
type Snapshot = SvmLedgerState & { journalSeq?: number };

export interface SvmStoreOptions {
  /** The home's data folder. */
  dir: string;
  ledger: SvmLedgerOptions;
  /** Journal size that triggers a new snapshot (default 64 MiB). */
  maxJournalBytes?: number;
}

export interface SvmStore {
  readonly ledger: SvmLedger;
  /** Writes a snapshot and empties the journal (a clean stop); the store stays usable. */
  checkpoint(): void;
  /** A final checkpoint; the journal is closed. */
  close(): void;
}

export async function openSvmStore(o: SvmStoreOptions): Promise<SvmStore> {
  mkdirSync(o.dir, { recursive: true });
  const snapFile = join(o.dir, SNAPSHOT_FILE);
  const journalFile = join(o.dir, JOURNAL_FILE);
  const snapshot = existsSync(snapFile) ? (JSON.parse(readFileSync(snapFile, 'utf8')) as Snapshot) : undefined;
  const ledger = snapshot ? SvmLedger.restore(snapshot, o.ledger) : await SvmLedger.create(o.ledger);
  let seq = replay(ledger, journalFile, snapshot?.journalSeq ?? 0);
  const maxBytes = o.maxJournalBytes ?? DEFAULT_MAX_JOURNAL_BYTES;

  let fd = -1;
  let bytes = 0;
  const checkpoint = () => {
    const tmp = `${snapFile}.tmp`;
    const f = openSync(tmp, 'w');
    try {
      writeSync(f, JSON.stringify({ ...ledger.save(), journalSeq: seq } satisfies Snapshot));
      fsyncSync(f);
    } finally {
      closeSync(f);
    }
    renameSync(tmp, snapFile);
    syncDir(o.dir);
    // The snapshot holds every entry up to `seq`: the journal can start over.
    if (fd >= 0) closeSync(fd);
    fd = openSync(journalFile, 'w');
    bytes = 0;
  };
  if (!snapshot)
    checkpoint(); // the genesis
  else {
    fd = openSync(journalFile, 'a');
    bytes = statSync(journalFile).size;
  }

  const append = (e: Entry) => {
    const line = `${JSON.stringify(e)}\n`;
    bytes += writeSync(fd, line);
  };
  const offTx = ledger.onTransaction((r) => {
    const accounts: SvmSavedAccount[] = [];
    for (const k of r.changed) {
      const a = ledger.savedAccount(k);
      if (a) accounts.push(a);
    }
    append({ n: ++seq, k: 'tx', a: accounts, r: recordToJson(r) });
  });
  const offSlot = ledger.onSlot((slot, more) => {
    const info = ledger.slotInfo(slot)!;
    append({ n: ++seq, k: 'slot', s: slot.toString(), h: info.blockhash, t: info.timeMs });
    // The clock closes the slots of an idle stretch together: one sync at the last of them.
    if (more) return;
    if (bytes > maxBytes) checkpoint();
    else fdatasyncSync(fd);
  });
  // Always followed by the run's last slots, the last of which syncs.
  const offSkip = ledger.onSkip((from, to, t) => append({ n: ++seq, k: 'slots', from: from.toString(), to: to.toString(), t }));

  let closed = false;
  return {
    ledger,
    checkpoint,
    close() {
      if (closed) return;
      closed = true;
      offTx();
      offSlot();
      offSkip();
      checkpoint();
      closeSync(fd);
    },
  };
}

/** Applies the journal's entries newer than `after`; cuts a torn last line off. Returns the last seq. */
function replay(ledger: SvmLedger, file: string, after: number): number {
  if (!existsSync(file)) return after;
  const text = readFileSync(file, 'utf8');
  let seq = after;
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    let e: Entry;
    try {
      if (nl < 0) throw new Error('torn');
      e = JSON.parse(text.slice(pos, nl)) as Entry;
    } catch {
      if (nl >= 0 && nl < text.length - 1) throw new Error(`${file}: unreadable entry at byte ${pos} (not the last line: the journal is damaged)`);
      // A crash mid-write left a partial last line: what it held was never answered.
      truncateSync(file, Buffer.byteLength(text.slice(0, pos)));
      break;
    }
    pos = nl + 1;
    if (e.n <= seq) continue;
    seq = e.n;
    if (e.k === 'tx') {
      for (const a of e.a) ledger.replayAccount(a);
      ledger.replayRecord(recordFromJson(e.r));
    } else if (e.k === 'slots') ledger.replaySkip(BigInt(e.from), BigInt(e.to), e.t);
    else ledger.replaySlot(BigInt(e.s), e.h, e.t);
  }
  return seq;
}

function syncDir(dir: string): void {
  try {
    const d = openSync(dir, 'r');
    try {
      fsyncSync(d);
    } finally {
      closeSync(d);
    }
  } catch {
    // Some file systems refuse to fsync a directory; the rename is still atomic.
  }
}
