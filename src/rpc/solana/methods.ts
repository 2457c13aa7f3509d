/**
 * The Solana JSON-RPC methods this chain serves, in one table (params checked here, shapes as
 * solana-test-validator answers them): reads wrap their value in `{context:{slot}, value}`; u64
 * values are bigints, written as bare JSON numbers. Every method sees the chain only through
 * `SolanaEnv`.
 */
import { getBase58Codec, getBase64Codec, getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit';
import { parseMint, parseTokenAccount, SvmTxError, type SvmLedger, type SvmTxRecord } from '../../svm/ledger.js';
import { invalidParam, invalidParams, SEND_TRANSACTION_PREFLIGHT_FAILURE, SolanaRpcError } from './errors.js';

export interface SolanaEnv {
  ledger: SvmLedger;
  /** solana-core version reported by getVersion. */
  version: string;
  featureSet: number;
  /** Max lamports per requestAirdrop (solana-test-validator's faucet: unlimited by default here). */
  maxAirdropLamports: bigint;
}

type Params = unknown[];
export type Method = (env: SolanaEnv, params: Params) => unknown;

const b58 = getBase58Codec();
const b64 = getBase64Codec();
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

function pubkey(v: unknown, what = 'pubkey'): string {
  if (typeof v !== 'string' || !BASE58.test(v) || b58.encode(v).length !== 32) throw invalidParam(`Invalid ${what}: ${JSON.stringify(v)}`);
  return v;
}
function config(v: unknown): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidParams('config must be an object');
  return v as Record<string, unknown>;
}
function u64(v: unknown, what: string): bigint {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw invalidParam(`${what} must be a non-negative integer`);
  return BigInt(v);
}

const ctx = (env: SolanaEnv) => ({ slot: env.ledger.slot, apiVersion: env.version });
const wrap = (env: SolanaEnv, value: unknown) => ({ context: ctx(env), value });

function encodeAccount(env: SolanaEnv, addr: string, encoding: unknown) {
  const a = env.ledger.account(addr);
  if (!a) return null;
  let data: unknown;
  const enc = encoding ?? 'binary';
  if (enc === 'base64') data = [b64.decode(a.data), 'base64'];
  else if (enc === 'base58') data = [b58.decode(a.data), 'base58'];
  else if (enc === 'binary') data = b58.decode(a.data);
  else if (enc === 'jsonParsed') data = parsed(env, a.owner, a.data) ?? [b64.decode(a.data), 'base64'];
  else throw invalidParam(`unsupported encoding: ${String(enc)}. Supported encodings: base58, base64, jsonParsed`);
  return { data, executable: a.executable, lamports: a.lamports, owner: a.owner, rentEpoch: 18446744073709551615n, space: a.space };
}

function uiAmount(amount: bigint, decimals: number) {
  const s = amount.toString().padStart(decimals + 1, '0');
  const text = decimals === 0 ? s : `${s.slice(0, -decimals)}.${s.slice(-decimals)}`.replace(/\.?0+$/, '');
  return { amount: amount.toString(), decimals, uiAmount: Number(text), uiAmountString: text };
}

function decimalsOf(env: SolanaEnv, mint: string): number {
  const m = env.ledger.account(mint);
  return (m && parseMint(m.data)?.decimals) ?? 0;
}

function parsed(env: SolanaEnv, owner: string, data: Uint8Array): unknown {
  if (owner !== env.ledger.tokenProgram) return undefined;
  const acct = parseTokenAccount(data);
  if (acct) {
    return {
      program: 'spl-token',
      space: BigInt(data.length),
      parsed: { type: 'account', info: { isNative: acct.isNative, mint: acct.mint, owner: acct.owner, state: acct.state === 2 ? 'frozen' : 'initialized', tokenAmount: uiAmount(acct.amount, decimalsOf(env, acct.mint)) } },
    };
  }
  const mint = parseMint(data);
  if (mint) return { program: 'spl-token', space: BigInt(data.length), parsed: { type: 'mint', info: { decimals: mint.decimals, freezeAuthority: mint.freezeAuthority, isInitialized: mint.isInitialized, mintAuthority: mint.mintAuthority, supply: mint.supply.toString() } } };
  return undefined;
}

function wireOf(encoded: unknown, encoding: unknown): Uint8Array {
  if (typeof encoded !== 'string') throw invalidParams('transaction must be an encoded string');
  const enc = encoding ?? 'base58';
  try {
    if (enc === 'base64') return Uint8Array.from(b64.encode(encoded));
    if (enc === 'base58') return Uint8Array.from(b58.encode(encoded));
  } catch (e) {
    throw invalidParam(`invalid transaction: ${(e as Error).message}`);
  }
  throw invalidParam(`unsupported encoding: ${String(enc)}. Supported encodings: base58, base64`);
}

function status(env: SolanaEnv, r: SvmTxRecord) {
  const finalized = env.ledger.slot - r.slot >= 32n;
  return { slot: r.slot, confirmations: finalized ? null : env.ledger.slot - r.slot, err: r.err, status: r.err === null ? { Ok: null } : { Err: r.err }, confirmationStatus: finalized ? 'finalized' : 'confirmed' };
}

function txJson(r: SvmTxRecord, encoding: unknown) {
  const tx = getTransactionDecoder().decode(r.wire);
  const msg = getCompiledTransactionMessageDecoder().decode(tx.messageBytes) as unknown as {
    version: 'legacy' | number;
    header: { numSignerAccounts: number; numReadonlySignerAccounts: number; numReadonlyNonSignerAccounts: number };
    staticAccounts: string[];
    lifetimeToken: string;
    instructions: { programAddressIndex: number; accountIndices?: number[]; data?: Uint8Array }[];
  };
  const transaction =
    encoding === 'base64'
      ? [b64.decode(r.wire), 'base64']
      : encoding === 'base58'
        ? [b58.decode(r.wire), 'base58']
        : {
            signatures: Object.values(tx.signatures).map((s) => (s ? b58.decode(s) : '')),
            message: {
              accountKeys: msg.staticAccounts,
              header: { numRequiredSignatures: msg.header.numSignerAccounts, numReadonlySignedAccounts: msg.header.numReadonlySignerAccounts, numReadonlyUnsignedAccounts: msg.header.numReadonlyNonSignerAccounts },
              recentBlockhash: msg.lifetimeToken,
              instructions: msg.instructions.map((i) => ({ programIdIndex: i.programAddressIndex, accounts: i.accountIndices ?? [], data: b58.decode(i.data ?? new Uint8Array(0)), stackHeight: null })),
            },
          };
  return {
    slot: r.slot,
    blockTime: r.blockTime,
    version: msg.version,
    transaction,
    meta: {
      err: r.err,
      status: r.err === null ? { Ok: null } : { Err: r.err },
      fee: r.fee,
      preBalances: r.preBalances,
      postBalances: r.postBalances,
      innerInstructions: [],
      logMessages: r.logs,
      preTokenBalances: [],
      postTokenBalances: [],
      rewards: [],
      loadedAddresses: { writable: [], readonly: [] },
      computeUnitsConsumed: r.computeUnits,
    },
  };
}

export const SOLANA_METHODS: Readonly<Record<string, Method>> = Object.freeze({
  getHealth: () => 'ok',
  getVersion: (env) => ({ 'solana-core': env.version, 'feature-set': env.featureSet }),
  getGenesisHash: (env) => env.ledger.genesisHash,
  getSlot: (env) => env.ledger.slot,
  getBlockHeight: (env) => env.ledger.blockHeight,
  getEpochInfo: (env) => ({ absoluteSlot: env.ledger.slot, blockHeight: env.ledger.blockHeight, epoch: env.ledger.slot / 432_000n, slotIndex: env.ledger.slot % 432_000n, slotsInEpoch: 432_000n, transactionCount: null }),
  getBalance: (env, p) => wrap(env, env.ledger.balance(pubkey(p[0]))),
  getAccountInfo: (env, p) => wrap(env, encodeAccount(env, pubkey(p[0]), config(p[1])['encoding'])),
  getMultipleAccounts: (env, p) => {
    if (!Array.isArray(p[0])) throw invalidParams('expected an array of pubkeys');
    if (p[0].length > 100) throw invalidParams('Too many inputs provided; max 100');
    const enc = config(p[1])['encoding'];
    return wrap(env, p[0].map((k) => encodeAccount(env, pubkey(k), enc)));
  },
  getLatestBlockhash: (env) => wrap(env, env.ledger.latestBlockhash()),
  isBlockhashValid: (env, p) => {
    if (typeof p[0] !== 'string') throw invalidParams('blockhash must be a string');
    return wrap(env, env.ledger.isBlockhashValid(p[0]));
  },
  getMinimumBalanceForRentExemption: (env, p) => env.ledger.rentExempt(u64(p[0] ?? 0, 'data length')),
  getFeeForMessage: (env, p) => {
    if (typeof p[0] !== 'string') throw invalidParams('message must be a base64 string');
    let sigs: number;
    try {
      const msg = getCompiledTransactionMessageDecoder().decode(b64.encode(p[0])) as unknown as { header: { numSignerAccounts: number } };
      sigs = msg.header.numSignerAccounts;
    } catch (e) {
      throw invalidParam(`invalid message: ${(e as Error).message}`);
    }
    return wrap(env, 5000n * BigInt(sigs));
  },
  requestAirdrop: (env, p) => {
    const to = pubkey(p[0]);
    const amount = u64(p[1], 'lamports');
    if (amount > env.maxAirdropLamports) throw new SolanaRpcError(-32600, `airdrop request of ${amount} lamports exceeds the faucet's limit of ${env.maxAirdropLamports}`);
    return env.ledger.airdrop(to, amount);
  },
  sendTransaction: (env, p) => {
    const cfg = config(p[1]);
    const wire = wireOf(p[0], cfg['encoding']);
    if (cfg['skipPreflight'] !== true) {
      const sim = env.ledger.simulate(wire);
      if (sim.err !== null) {
        const text = sim.err === 'BlockhashNotFound' ? 'Blockhash not found' : typeof sim.err === 'string' ? sim.err : `Error processing Instruction ${JSON.stringify(sim.err)}`;
        throw new SolanaRpcError(SEND_TRANSACTION_PREFLIGHT_FAILURE, `Transaction simulation failed: ${text}`, { accounts: null, err: sim.err, logs: sim.logs, returnData: null, unitsConsumed: sim.unitsConsumed });
      }
    }
    try {
      return env.ledger.send(wire).signature;
    } catch (e) {
      if (e instanceof SvmTxError) throw new SolanaRpcError(SEND_TRANSACTION_PREFLIGHT_FAILURE, e.message, { accounts: null, err: e.err, logs: [], returnData: null, unitsConsumed: 0 });
      throw e;
    }
  },
  simulateTransaction: (env, p) => {
    const cfg = config(p[1]);
    const wire = wireOf(p[0], cfg['encoding']);
    const sim = env.ledger.simulate(wire);
    return wrap(env, { err: sim.err, logs: sim.logs, accounts: null, unitsConsumed: sim.unitsConsumed, returnData: null });
  },
  getSignatureStatuses: (env, p) => {
    if (!Array.isArray(p[0])) throw invalidParams('expected an array of signatures');
    if (p[0].length > 256) throw invalidParams('Too many inputs provided; max 256');
    return wrap(env, p[0].map((s) => {
      if (typeof s !== 'string') throw invalidParam('Invalid signature');
      const r = env.ledger.transaction(s);
      return r ? status(env, r) : null;
    }));
  },
  getTransaction: (env, p) => {
    if (typeof p[0] !== 'string') throw invalidParam('Invalid signature');
    const r = env.ledger.transaction(p[0]);
    if (!r || r.wire.length === 0) return null;
    return txJson(r, config(p[1])['encoding'] ?? 'json');
  },
  getTokenAccountsByOwner: (env, p) => {
    const owner = pubkey(p[0], 'owner');
    const filter = config(p[1]);
    const mint = filter['mint'] !== undefined ? pubkey(filter['mint'], 'mint') : undefined;
    const program = filter['programId'] !== undefined ? pubkey(filter['programId'], 'programId') : undefined;
    if (mint === undefined && program === undefined) throw invalidParams('a filter of mint or programId is required');
    if (program !== undefined && program !== env.ledger.tokenProgram) return wrap(env, []);
    const enc = config(p[2])['encoding'];
    const out = [];
    for (const k of env.ledger.tokenAccountsOf(owner)) {
      const a = env.ledger.account(k)!;
      if (mint !== undefined && parseTokenAccount(a.data)?.mint !== mint) continue;
      out.push({ pubkey: k, account: encodeAccount(env, k, enc) });
    }
    return wrap(env, out);
  },
  getTokenAccountBalance: (env, p) => {
    const k = pubkey(p[0]);
    const a = env.ledger.account(k);
    const t = a && a.owner === env.ledger.tokenProgram ? parseTokenAccount(a.data) : undefined;
    if (!t) throw invalidParams('Invalid param: not a Token account');
    return wrap(env, uiAmount(t.amount, decimalsOf(env, t.mint)));
  },
  getTokenSupply: (env, p) => {
    const k = pubkey(p[0]);
    const a = env.ledger.account(k);
    const m = a && a.owner === env.ledger.tokenProgram ? parseMint(a.data) : undefined;
    if (!m) throw invalidParams('Invalid param: not a Token mint');
    return wrap(env, uiAmount(m.supply, m.decimals));
  },
});
