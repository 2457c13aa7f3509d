/**
 * Transactions as getTransaction and getBlock write them (EncodedTransactionWithStatusMeta):
 * `json` (the compiled message), `jsonParsed` (account keys with their roles; instructions
 * partially decoded: programId, accounts, data), `base64`, `base58`; and the `accounts` detail of
 * getBlock. A v0 tx needs `maxSupportedTransactionVersion`, as on Solana.
 */
import { getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit';
import type { SvmTxRecord } from '../../svm/ledger.js';
import type { SolanaEnv } from './env.js';
import { invalidParam, SolanaRpcError } from './errors.js';
import { b58, b64, FINALITY_DEPTH } from './params.js';

export interface CompiledMessage {
  version: 'legacy' | number;
  header: { numSignerAccounts: number; numReadonlySignerAccounts: number; numReadonlyNonSignerAccounts: number };
  staticAccounts: string[];
  lifetimeToken: string;
  instructions: { programAddressIndex: number; accountIndices?: number[]; data?: Uint8Array }[];
}

export function decodeRecord(r: SvmTxRecord): { signatures: string[]; msg: CompiledMessage } {
  const tx = getTransactionDecoder().decode(r.wire);
  const msg = getCompiledTransactionMessageDecoder().decode(tx.messageBytes) as unknown as CompiledMessage;
  return { signatures: Object.values(tx.signatures).map((s) => (s ? b58.decode(s) : '')), msg };
}

/** Signer and writable flags of account `i` of a compiled message (its header's ranges). */
export function roleOf(msg: CompiledMessage, i: number): { signer: boolean; writable: boolean } {
  const h = msg.header;
  const n = msg.staticAccounts.length;
  const signer = i < h.numSignerAccounts;
  return { signer, writable: signer ? i < h.numSignerAccounts - h.numReadonlySignerAccounts : i < n - h.numReadonlyNonSignerAccounts };
}

export function status(env: SolanaEnv, r: SvmTxRecord) {
  const finalized = env.ledger.slot - r.slot >= FINALITY_DEPTH;
  return {
    slot: r.slot,
    confirmations: finalized ? null : env.ledger.slot - r.slot,
    err: r.err,
    status: r.err === null ? { Ok: null } : { Err: r.err },
    confirmationStatus: finalized ? 'finalized' : 'confirmed',
  };
}

export type TxEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58';

export function txEncoding(v: unknown): TxEncoding {
  const e = v ?? 'json';
  if (e === 'json' || e === 'jsonParsed' || e === 'base64' || e === 'base58') return e;
  if (e === 'binary') return 'base58';
  throw invalidParam(`unsupported encoding: ${String(e)}. Supported encodings: json, jsonParsed, base58, base64`);
}

/** undefined: the client named no version (legacy txs only); else the highest it reads. */
export function maxVersion(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 255) throw invalidParam('maxSupportedTransactionVersion must be a version number');
  return v;
}

function checkVersion(msg: CompiledMessage, max: number | undefined): void {
  const v = msg.version === 'legacy' ? -1 : msg.version;
  if (v >= 0 && (max === undefined || v > max)) {
    throw new SolanaRpcError(
      -32015,
      `Transaction version (${v}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${v}`,
    );
  }
}

function meta(r: SvmTxRecord, full: boolean, rewards: boolean) {
  const m: Record<string, unknown> = {
    err: r.err,
    status: r.err === null ? { Ok: null } : { Err: r.err },
    fee: r.fee,
    preBalances: r.preBalances,
    postBalances: r.postBalances,
  };
  if (full) {
    m['innerInstructions'] = [];
    m['logMessages'] = r.logs;
  }
  m['preTokenBalances'] = [];
  m['postTokenBalances'] = [];
  if (rewards) m['rewards'] = [];
  if (full) {
    m['loadedAddresses'] = { writable: [], readonly: [] };
    m['computeUnitsConsumed'] = r.computeUnits;
  }
  return m;
}

/** One tx with its status meta; `version` only when the client named a max version. */
export function encodeTx(r: SvmTxRecord, o: { encoding: TxEncoding; maxVersion: number | undefined; rewards?: boolean }) {
  const { signatures, msg } = decodeRecord(r);
  checkVersion(msg, o.maxVersion);
  let transaction: unknown;
  if (o.encoding === 'base64') transaction = [b64.decode(r.wire), 'base64'];
  else if (o.encoding === 'base58') transaction = [b58.decode(r.wire), 'base58'];
  else {
    const parsed = o.encoding === 'jsonParsed';
    const header = {
      numRequiredSignatures: msg.header.numSignerAccounts,
      numReadonlySignedAccounts: msg.header.numReadonlySignerAccounts,
      numReadonlyUnsignedAccounts: msg.header.numReadonlyNonSignerAccounts,
    };
    const accountKeys = parsed ? msg.staticAccounts.map((pubkey, i) => ({ pubkey, ...roleOf(msg, i), source: 'transaction' })) : msg.staticAccounts;
    const instructions = msg.instructions.map((i) => {
      const data = b58.decode(i.data ?? new Uint8Array(0));
      const accounts = i.accountIndices ?? [];
      return parsed
        ? { programId: msg.staticAccounts[i.programAddressIndex], accounts: accounts.map((k) => msg.staticAccounts[k]), data, stackHeight: null }
        : { programIdIndex: i.programAddressIndex, accounts, data, stackHeight: null };
    });
    transaction = {
      signatures,
      message: {
        accountKeys,
        ...(parsed ? {} : { header }),
        recentBlockhash: msg.lifetimeToken,
        instructions,
        ...(msg.version !== 'legacy' && !parsed ? { addressTableLookups: [] } : {}),
      },
    };
  }
  return { transaction, meta: meta(r, true, o.rewards ?? true), ...(o.maxVersion !== undefined ? { version: msg.version } : {}) };
}

/** getBlock's `accounts` detail: signatures and account keys with their roles, a lighter meta. */
export function encodeTxAccounts(r: SvmTxRecord, o: { maxVersion: number | undefined; rewards: boolean }) {
  const { signatures, msg } = decodeRecord(r);
  checkVersion(msg, o.maxVersion);
  const accountKeys = msg.staticAccounts.map((pubkey, i) => ({ pubkey, ...roleOf(msg, i), source: 'transaction' }));
  return { transaction: { signatures, accountKeys }, meta: meta(r, false, o.rewards), ...(o.maxVersion !== undefined ? { version: msg.version } : {}) };
}
