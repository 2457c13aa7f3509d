/**
 * The validator and cluster methods a wallet calls: getSupply (every lamport is circulating),
 * getRecentPrioritizationFees (per closed slot of the last 150: the lowest compute-unit price paid
 * in it, or for the named accounts the highest of their lowest), getIdentity, getClusterNodes (this
 * one node, with the addresses it serves).
 */
import { createHash } from 'node:crypto';
import type { SvmTxRecord } from '../../svm/ledger.js';
import { keypairFromSeed } from '../../svm/keys.js';
import type { SolanaEnv } from './env.js';
import { invalidParams } from './errors.js';
import type { Method } from './methods.js';
import { config, pubkey, wrap } from './params.js';
import { decodeRecord, roleOf } from './tx-json.js';

/** agave's prioritization fee cache depth and MAX_TX_ACCOUNT_LOCKS. */
const FEE_SLOTS = 150n;
export const MAX_FEE_ACCOUNTS = 128;
const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111';
const SET_COMPUTE_UNIT_PRICE = 3;

let fallbackIdentity: string | undefined;
function identityOf(env: SolanaEnv): string {
  return env.identity ?? (fallbackIdentity ??= keypairFromSeed(createHash('sha256').update('chainlet svm validator identity').digest()).address);
}

/** The tx's compute-unit price (micro-lamports) and the accounts it write-locks. */
function priceOf(r: SvmTxRecord): { price: bigint; writable: string[] } {
  const { msg } = decodeRecord(r);
  let price = 0n;
  for (const ix of msg.instructions) {
    const data = ix.data;
    if (msg.staticAccounts[ix.programAddressIndex] === COMPUTE_BUDGET && data && data[0] === SET_COMPUTE_UNIT_PRICE && data.length >= 9) {
      price = Buffer.from(data.buffer, data.byteOffset, data.byteLength).readBigUInt64LE(1);
    }
  }
  return { price, writable: msg.staticAccounts.filter((_, i) => roleOf(msg, i).writable) };
}

function slotFee(txs: SvmTxRecord[], accounts: string[]): bigint {
  const withWire = txs.filter((r) => r.wire.length > 0);
  if (withWire.length === 0) return 0n;
  const priced = withWire.map(priceOf);
  let fee = priced.reduce((m, t) => (t.price < m ? t.price : m), priced[0]!.price);
  for (const a of accounts) {
    const mine = priced.filter((t) => t.writable.includes(a));
    if (mine.length === 0) continue;
    const least = mine.reduce((m, t) => (t.price < m ? t.price : m), mine[0]!.price);
    if (least > fee) fee = least;
  }
  return fee;
}

export const CLUSTER_METHODS: Readonly<Record<string, Method>> = {
  getSupply: (env, p) => {
    config(p[0]);
    // No account is non-circulating here, so the list is empty with or without excludeNonCirculatingAccountsList.
    const total = env.ledger.totalLamports();
    return wrap(env, { total, circulating: total, nonCirculating: 0n, nonCirculatingAccounts: [] });
  },
  getRecentPrioritizationFees: (env, p) => {
    const raw = p[0] ?? [];
    if (!Array.isArray(raw)) throw invalidParams('expected an array of account addresses');
    if (raw.length > MAX_FEE_ACCOUNTS) throw invalidParams(`Too many inputs provided; max ${MAX_FEE_ACCOUNTS}`);
    const accounts = raw.map((a) => pubkey(a));
    const last = env.ledger.slot - 1n;
    const out: { slot: bigint; prioritizationFee: bigint }[] = [];
    for (let s = last - FEE_SLOTS + 1n < 0n ? 0n : last - FEE_SLOTS + 1n; s <= last; s++) {
      out.push({ slot: s, prioritizationFee: slotFee(env.ledger.history.block(s)?.txs ?? [], accounts) });
    }
    return out;
  },
  getIdentity: (env) => ({ identity: identityOf(env) }),
  getClusterNodes: (env) => [
    {
      pubkey: identityOf(env),
      gossip: null,
      tvu: null,
      tpu: null,
      tpuQuic: null,
      tpuForwards: null,
      tpuForwardsQuic: null,
      tpuVote: null,
      serveRepair: null,
      rpc: env.endpoints?.rpc ?? null,
      pubsub: env.endpoints?.pubsub ?? null,
      version: env.version,
      featureSet: env.featureSet,
      shredVersion: null,
    },
  ],
};
