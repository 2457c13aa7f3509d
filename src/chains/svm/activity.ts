/**
 * The SVM chain's activity lines, from its ledger: a line per tx, and per slot that had txs (empty
 * slots pass every 400 ms).
 */
import type { SvmLedger } from '../../svm/ledger.js';
import type { SvmTxRecord } from '../../svm/history.js';
import type { ActivityBlockLine, ActivityEvent, ActivityTxLine } from '../types.js';

/** A tx line of the SVM chain: the fee payer sends; the recipient is the account whose lamports rose most, else the last one written. */
export function svmTxLine(r: SvmTxRecord): ActivityTxLine {
  const payer = r.accountKeys[0];
  let to: string | undefined;
  let best = 0n;
  r.accountKeys.forEach((k, i) => {
    const gain = (r.postBalances[i] ?? 0n) - (r.preBalances[i] ?? 0n);
    if (i > 0 && gain > best) [best, to] = [gain, k];
  });
  to ??= r.changed.filter((k) => k !== payer).pop();
  const line: ActivityTxLine = {
    hash: r.signature,
    from: payer,
    to,
    gasUsed: Number(r.computeUnits),
    status: r.err === null ? 'success' : 'failed',
    block: Number(r.slot),
  };
  if (r.err !== null) line.error = JSON.stringify(r.err);
  return line;
}

export function svmActivity(ledger: SvmLedger, write: (e: ActivityEvent) => void): () => void {
  const offTx = ledger.onTransaction((r) => write({ event: 'tx', line: svmTxLine(r) }));
  const offSlot = ledger.onSlot((next) => {
    const slot = next - 1n;
    const info = ledger.slotInfo(slot);
    if (!info || info.txs === 0) return;
    const line: ActivityBlockLine = { height: Number(slot), hash: info.blockhash, txs: info.txs, gasUsed: 0, time: new Date(info.timeMs).toISOString() };
    write({ event: 'block', line });
  });
  return () => {
    offTx();
    offSlot();
  };
}
