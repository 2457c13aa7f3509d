/** Accounts as the Solana JSON-RPC writes them (UiAccount): base58, base64 or jsonParsed (SPL token accounts and mints). */
import { parseMint, parseTokenAccount } from '../../svm/ledger.js';
import type { SolanaEnv } from './env.js';
import { invalidParam, SolanaRpcError } from './errors.js';
import { b58, b64, config, u64 } from './params.js';

/** Encoding base58 data longer than this is refused (quadratic; agave's MAX_BASE58_BYTES). */
export const MAX_BASE58_BYTES = 128;

export interface RawAccount {
  lamports: bigint;
  owner: string;
  executable: boolean;
  data: Uint8Array;
}

export interface DataSlice {
  offset: number;
  length: number;
}

export function dataSlice(v: unknown): DataSlice | undefined {
  if (v === undefined || v === null) return undefined;
  const c = config(v);
  return { offset: Number(u64(c['offset'], 'dataSlice.offset')), length: Number(u64(c['length'], 'dataSlice.length')) };
}

export function encodeAccount(env: SolanaEnv, addr: string, encoding: unknown, slice?: DataSlice) {
  const a = env.ledger.account(addr);
  return a ? encodeRaw(env, a, encoding, slice) : null;
}

export function encodeRaw(env: SolanaEnv, a: RawAccount, encoding: unknown, slice?: DataSlice) {
  const enc = encoding ?? 'binary';
  const bytes = slice ? a.data.subarray(slice.offset, slice.offset + slice.length) : a.data;
  if ((enc === 'binary' || enc === 'base58') && bytes.length > MAX_BASE58_BYTES) {
    throw new SolanaRpcError(-32600, `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`);
  }
  let data: unknown;
  if (enc === 'base64') data = [b64.decode(bytes), 'base64'];
  else if (enc === 'base58') data = [b58.decode(bytes), 'base58'];
  else if (enc === 'binary') data = b58.decode(bytes);
  else if (enc === 'jsonParsed') data = (slice ? undefined : parsed(env, a.owner, a.data)) ?? [b64.decode(bytes), 'base64'];
  else throw invalidParam(`unsupported encoding: ${String(enc)}. Supported encodings: base58, base64, jsonParsed`);
  return { data, executable: a.executable, lamports: a.lamports, owner: a.owner, rentEpoch: 18446744073709551615n, space: BigInt(a.data.length) };
}

export function uiAmount(amount: bigint, decimals: number) {
  const s = amount.toString().padStart(decimals + 1, '0');
  const text = decimals === 0 ? s : `${s.slice(0, -decimals)}.${s.slice(-decimals)}`.replace(/\.?0+$/, '');
  return { amount: amount.toString(), decimals, uiAmount: Number(text), uiAmountString: text };
}

export function decimalsOf(env: SolanaEnv, mint: string): number {
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
      parsed: {
        type: 'account',
        info: {
          isNative: acct.isNative,
          mint: acct.mint,
          owner: acct.owner,
          state: acct.state === 2 ? 'frozen' : 'initialized',
          tokenAmount: uiAmount(acct.amount, decimalsOf(env, acct.mint)),
        },
      },
    };
  }
  const mint = parseMint(data);
  if (mint)
    return {
      program: 'spl-token',
      space: BigInt(data.length),
      parsed: {
        type: 'mint',
        info: {
          decimals: mint.decimals,
          freezeAuthority: mint.freezeAuthority,
          isInitialized: mint.isInitialized,
          mintAuthority: mint.mintAuthority,
          supply: mint.supply.toString(),
        },
      },
    };
  return undefined;
}
