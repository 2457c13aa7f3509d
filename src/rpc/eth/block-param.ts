/**
 * Block parameters: the tags `latest`, `pending`, `earliest`, `safe`, `finalized`, a hex block
 * number, a block hash, or an EIP-1898 object `{ blockNumber | blockHash, requireCanonical }`.
 * Finality is instant, so `safe` and `finalized` are `latest`; `pending` reads the latest state
 * (the pending-nonce rule of eth_getTransactionCount is applied by its handler).
 */
import { ParamDecodeError, jsonKind, typeError, type Decoder } from './params.js';
import { HexError } from './errors.js';
import { decodeFixed, decodeQuantity } from './hex.js';

export type BlockTag = 'latest' | 'pending' | 'earliest' | 'safe' | 'finalized';

export type BlockRef =
  | { readonly kind: 'tag'; readonly tag: BlockTag }
  | { readonly kind: 'number'; readonly number: number }
  | { readonly kind: 'hash'; readonly hash: Uint8Array; readonly requireCanonical: boolean };

const TAGS: ReadonlySet<string> = new Set(['latest', 'pending', 'earliest', 'safe', 'finalized']);

export const LATEST: BlockRef = Object.freeze({ kind: 'tag', tag: 'latest' });
export const PENDING: BlockRef = Object.freeze({ kind: 'tag', tag: 'pending' });

function numberFromHex(s: string): BlockRef {
  let n: bigint;
  try {
    n = decodeQuantity(s, 64);
  } catch (e) {
    if (e instanceof HexError) throw new ParamDecodeError(e.message);
    throw e;
  }
  if (n > 0x7fffffffffffffffn) throw new ParamDecodeError('block number larger than int64');
  return { kind: 'number', number: Number(n) };
}

function fromString(s: string, allowHash: boolean): BlockRef {
  if (TAGS.has(s)) return { kind: 'tag', tag: s as BlockTag };
  if (allowHash && s.length === 66) {
    try {
      return { kind: 'hash', hash: decodeFixed(s, 32, 'common.Hash'), requireCanonical: false };
    } catch (e) {
      if (e instanceof HexError) throw new ParamDecodeError(e.message);
      throw e;
    }
  }
  return numberFromHex(s);
}

/** A tag or a number (eth_getBlockByNumber, filter ranges, eth_feeHistory's newest block). */
export const blockNumberOf: Decoder<BlockRef> = (raw) => {
  if (typeof raw !== 'string') throw typeError(jsonKind(raw), 'string');
  return fromString(raw, false);
};

/** A tag, a number, a hash, or an EIP-1898 object (state methods, eth_call). */
export const blockNumberOrHashOf: Decoder<BlockRef> = (raw) => {
  if (typeof raw === 'string') return fromString(raw, true);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw typeError(jsonKind(raw), 'string');
  const o = raw as Record<string, unknown>;
  const hasHash = o['blockHash'] !== undefined && o['blockHash'] !== null;
  const hasNumber = o['blockNumber'] !== undefined && o['blockNumber'] !== null;
  if (hasHash && hasNumber) throw new ParamDecodeError('cannot specify both BlockHash and BlockNumber, choose one or the other');
  if (hasHash) {
    if (typeof o['blockHash'] !== 'string') throw typeError(jsonKind(o['blockHash']), 'common.Hash');
    let hash: Uint8Array;
    try {
      hash = decodeFixed(o['blockHash'], 32, 'common.Hash');
    } catch (e) {
      if (e instanceof HexError) throw new ParamDecodeError(e.message);
      throw e;
    }
    return { kind: 'hash', hash, requireCanonical: o['requireCanonical'] === true };
  }
  if (hasNumber) {
    if (typeof o['blockNumber'] !== 'string') throw typeError(jsonKind(o['blockNumber']), 'string');
    return fromString(o['blockNumber'], false);
  }
  throw new ParamDecodeError('invalid block number or hash');
};
