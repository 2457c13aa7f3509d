/** A tx record as JSON (u64 values as decimal strings, wire bytes as base64), for snapshots and the journal. */
import type { SvmTxRecord } from './history.js';
import type { TxErrorJson } from './tx-errors.js';

export interface SavedRecord {
  signature: string;
  slot: string;
  blockTime: string;
  wire: string;
  fee: string;
  accountKeys: string[];
  preBalances: string[];
  postBalances: string[];
  logs: string[];
  computeUnits: string;
  err: TxErrorJson | null;
  changed: string[];
}

export function recordToJson(r: SvmTxRecord): SavedRecord {
  return {
    signature: r.signature,
    slot: r.slot.toString(),
    blockTime: r.blockTime.toString(),
    wire: Buffer.from(r.wire.buffer, r.wire.byteOffset, r.wire.byteLength).toString('base64'),
    fee: r.fee.toString(),
    accountKeys: r.accountKeys,
    preBalances: r.preBalances.map(String),
    postBalances: r.postBalances.map(String),
    logs: r.logs,
    computeUnits: r.computeUnits.toString(),
    err: r.err,
    changed: r.changed,
  };
}

export function recordFromJson(s: SavedRecord): SvmTxRecord {
  return {
    signature: s.signature,
    slot: BigInt(s.slot),
    blockTime: BigInt(s.blockTime),
    wire: Uint8Array.from(Buffer.from(s.wire, 'base64')),
    fee: BigInt(s.fee),
    accountKeys: s.accountKeys,
    preBalances: s.preBalances.map(BigInt),
    postBalances: s.postBalances.map(BigInt),
    logs: s.logs,
    computeUnits: BigInt(s.computeUnits),
    err: s.err,
    changed: s.changed ?? [],
  };
}
