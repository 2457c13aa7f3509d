/**
 * logsSubscribe (WebSocket): each executed tx's logs as a `logsNotification`
 * `{context: {slot}, value: {signature, err, logs}}`, for the filter `all`, `allWithVotes` (there
 * are no vote txs here) or `{mentions: [address]}` (one address, as on Solana). Airdrops are
 * credits without a tx: they are not reported.
 */
import type { SvmLedger, SvmTxRecord } from '../../svm/ledger.js';
import { SolanaRpcError } from './errors.js';
import { config, pubkey } from './params.js';

/** A logsNotification's result for a tx. */
export function logsResult(r: SvmTxRecord): unknown {
  return { context: { slot: r.slot }, value: { signature: r.signature, err: r.err, logs: r.logs } };
}

/** Calls `notify` with each tx the filter in `params` selects (checked here: a bad filter throws). */
export function subscribeLogs(ledger: SvmLedger, params: unknown[], notify: (r: SvmTxRecord) => void): () => void {
  const filter = params[0];
  let mention: string | undefined;
  if (filter !== 'all' && filter !== 'allWithVotes') {
    const f = typeof filter === 'object' && filter !== null && !Array.isArray(filter) ? (filter as Record<string, unknown>) : undefined;
    const mentions = f?.['mentions'];
    if (!Array.isArray(mentions)) throw new SolanaRpcError(-32602, 'Invalid params: expected "all", "allWithVotes" or {"mentions": [address]}');
    if (mentions.length !== 1) throw new SolanaRpcError(-32602, 'Invalid Request: Only 1 address supported');
    mention = pubkey(mentions[0], 'mention');
  }
  config(params[1]);
  return ledger.onTransaction((r) => {
    if (r.wire.length === 0) return;
    if (mention !== undefined && !r.accountKeys.includes(mention)) return;
    notify(r);
  });
}
