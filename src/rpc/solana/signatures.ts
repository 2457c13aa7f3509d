/**
 * getSignaturesForAddress: the txs naming an address, newest first, from the ledger's address
 * index (history.ts), with agave's paging (`before`, `until`, `limit` ≤ 1000) and commitment.
 * Airdrops are credits without a tx here: they are not listed.
 */
import type { Method } from './methods.js';
import { invalidParams } from './errors.js';
import { commitment, config, FINALITY_DEPTH, pubkey, signature } from './params.js';
import { decodeRecord, status } from './tx-json.js';
import type { SvmTxRecord } from '../../svm/ledger.js';

/** agave's MAX_GET_CONFIRMED_SIGNATURES_FOR_ADDRESS2_LIMIT. */
export const MAX_SIGNATURES_LIMIT = 1000;

const MEMO_PROGRAMS = new Set(['MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo']);

/** The tx's memos as agave lists them: "[len] text" per memo instruction, joined by "; ". */
function memoOf(r: SvmTxRecord): string | null {
  const { msg } = decodeRecord(r);
  const memos: string[] = [];
  for (const ix of msg.instructions) {
    if (!MEMO_PROGRAMS.has(msg.staticAccounts[ix.programAddressIndex] ?? '')) continue;
    const data = ix.data ?? new Uint8Array(0);
    memos.push(`[${data.length}] ${Buffer.from(data).toString('utf8')}`);
  }
  return memos.length > 0 ? memos.join('; ') : null;
}

export const SIGNATURE_METHODS: Readonly<Record<string, Method>> = {
  getSignaturesForAddress: (env, p) => {
    const address = pubkey(p[0], 'address');
    const cfg = config(p[1]);
    const limit = cfg['limit'] ?? MAX_SIGNATURES_LIMIT;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SIGNATURES_LIMIT)
      throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES_LIMIT}`);
    const before = cfg['before'] === undefined || cfg['before'] === null ? undefined : signature(cfg['before']);
    const until = cfg['until'] === undefined || cfg['until'] === null ? undefined : signature(cfg['until']);
    const c = commitment(cfg);
    if (c === 'processed') throw invalidParams('Method does not support commitment below `confirmed`');
    const maxSlot = c === 'finalized' ? env.ledger.slot - FINALITY_DEPTH : env.ledger.slot;
    return env.ledger.history.signaturesFor(address, { before, until, limit, maxSlot }).map((r) => {
      const s = status(env, r);
      return { signature: r.signature, slot: r.slot, err: r.err, memo: memoOf(r), blockTime: r.blockTime, confirmationStatus: s.confirmationStatus };
    });
  },
};
