/**
 * The Solana JSON-RPC methods this chain serves, in one table (params checked here, shapes as
 * solana-test-validator answers them): reads wrap their value in `{context:{slot}, value}`; u64
 * values are bigints, written as bare JSON numbers. Every method sees the chain only through
 * `SolanaEnv`.
 */
import { getCompiledTransactionMessageDecoder } from '@solana/kit';
import { parseMint, parseTokenAccount, SvmTxError } from '../../svm/ledger.js';
import { dataSlice, decimalsOf, encodeAccount, uiAmount } from './accounts.js';
import { BLOCK_METHODS } from './blocks.js';
import { CLUSTER_METHODS } from './cluster.js';
import type { SolanaEnv } from './env.js';
import { invalidParam, invalidParams, SEND_TRANSACTION_PREFLIGHT_FAILURE, SolanaRpcError } from './errors.js';
import { config, decodeBinary, MESSAGE_TYPE, pubkey, TX_TYPE, u64, wrap } from './params.js';
import { PROGRAM_ACCOUNT_METHODS } from './program-accounts.js';
import { SIGNATURE_METHODS } from './signatures.js';
import { encodeTx, maxVersion, status, txEncoding } from './tx-json.js';

export type { SolanaEnv } from './env.js';

type Params = unknown[];
export type Method = (env: SolanaEnv, params: Params) => unknown;

export const SOLANA_METHODS: Readonly<Record<string, Method>> = Object.freeze({
  ...BLOCK_METHODS,
  ...CLUSTER_METHODS,
  ...PROGRAM_ACCOUNT_METHODS,
  ...SIGNATURE_METHODS,
  getHealth: () => 'ok',
  getVersion: (env) => ({ 'solana-core': env.version, 'feature-set': env.featureSet }),
  getGenesisHash: (env) => env.ledger.genesisHash,
  getSlot: (env) => env.ledger.slot,
  getBlockHeight: (env) => env.ledger.blockHeight,
  getEpochInfo: (env) => ({
    absoluteSlot: env.ledger.slot,
    blockHeight: env.ledger.blockHeight,
    epoch: env.ledger.slot / 432_000n,
    slotIndex: env.ledger.slot % 432_000n,
    slotsInEpoch: 432_000n,
    transactionCount: null,
  }),
  getBalance: (env, p) => wrap(env, env.ledger.balance(pubkey(p[0]))),
  getAccountInfo: (env, p) => {
    const cfg = config(p[1]);
    return wrap(env, encodeAccount(env, pubkey(p[0]), cfg['encoding'], dataSlice(cfg['dataSlice'])));
  },
  getMultipleAccounts: (env, p) => {
    if (!Array.isArray(p[0])) throw invalidParams('expected an array of pubkeys');
    if (p[0].length > 100) throw invalidParams('Too many inputs provided; max 100');
    const cfg = config(p[1]);
    const slice = dataSlice(cfg['dataSlice']);
    return wrap(
      env,
      p[0].map((k) => encodeAccount(env, pubkey(k), cfg['encoding'], slice)),
    );
  },
  getLatestBlockhash: (env) => wrap(env, env.ledger.latestBlockhash()),
  isBlockhashValid: (env, p) => {
    if (typeof p[0] !== 'string') throw invalidParams('blockhash must be a string');
    return wrap(env, env.ledger.isBlockhashValid(p[0]));
  },
  getMinimumBalanceForRentExemption: (env, p) => env.ledger.rentExempt(u64(p[0] ?? 0, 'data length')),
  getFeeForMessage: (env, p) => {
    const bytes = decodeBinary(p[0], 'base64', MESSAGE_TYPE);
    let sigs: number;
    try {
      const msg = getCompiledTransactionMessageDecoder().decode(bytes) as unknown as { header: { numSignerAccounts: number } };
      sigs = msg.header.numSignerAccounts;
    } catch (e) {
      throw invalidParam(`invalid message: ${(e as Error).message}`);
    }
    return wrap(env, 5000n * BigInt(sigs));
  },
  requestAirdrop: (env, p) => {
    const to = pubkey(p[0]);
    const amount = u64(p[1], 'lamports');
    if (amount > env.maxAirdropLamports)
      throw new SolanaRpcError(-32600, `airdrop request of ${amount} lamports exceeds the faucet's limit of ${env.maxAirdropLamports}`);
    return env.ledger.airdrop(to, amount);
  },
  sendTransaction: (env, p) => {
    const cfg = config(p[1]);
    const wire = decodeBinary(p[0], cfg['encoding'], TX_TYPE);
    if (cfg['skipPreflight'] !== true) {
      const sim = env.ledger.simulate(wire);
      if (sim.err !== null) {
        const text =
          sim.err === 'BlockhashNotFound'
            ? 'Blockhash not found'
            : typeof sim.err === 'string'
              ? sim.err
              : `Error processing Instruction ${JSON.stringify(sim.err)}`;
        throw new SolanaRpcError(SEND_TRANSACTION_PREFLIGHT_FAILURE, `Transaction simulation failed: ${text}`, {
          accounts: null,
          err: sim.err,
          logs: sim.logs,
          returnData: null,
          unitsConsumed: sim.unitsConsumed,
        });
      }
    }
    try {
      return env.ledger.send(wire).signature;
    } catch (e) {
      if (e instanceof SvmTxError)
        throw new SolanaRpcError(SEND_TRANSACTION_PREFLIGHT_FAILURE, e.message, { accounts: null, err: e.err, logs: [], returnData: null, unitsConsumed: 0 });
      throw e;
    }
  },
  simulateTransaction: (env, p) => {
    const cfg = config(p[1]);
    const wire = decodeBinary(p[0], cfg['encoding'], TX_TYPE);
    const sim = env.ledger.simulate(wire);
    return wrap(env, { err: sim.err, logs: sim.logs, accounts: null, unitsConsumed: sim.unitsConsumed, returnData: null });
  },
  getSignatureStatuses: (env, p) => {
    if (!Array.isArray(p[0])) throw invalidParams('expected an array of signatures');
    if (p[0].length > 256) throw invalidParams('Too many inputs provided; max 256');
    return wrap(
      env,
      p[0].map((s) => {
        if (typeof s !== 'string') throw invalidParam('Invalid signature');
        const r = env.ledger.transaction(s);
        return r ? status(env, r) : null;
      }),
    );
  },
  getTransaction: (env, p) => {
    if (typeof p[0] !== 'string') throw invalidParam('Invalid signature');
    // A legacy form: the encoding alone in place of the config.
    const cfg = typeof p[1] === 'string' ? { encoding: p[1] } : config(p[1]);
    const encoding = txEncoding(cfg['encoding']);
    const max = maxVersion(cfg['maxSupportedTransactionVersion']);
    const r = env.ledger.transaction(p[0]);
    if (!r || r.wire.length === 0) return null;
    return { slot: r.slot, blockTime: r.blockTime, ...encodeTx(r, { encoding, maxVersion: max }) };
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
