/**
 * Param decoders and the error mapping shared by the personal, admin, miner and devnet handlers.
 * Devnet tools send numbers in several forms (viem: hex quantities; Hardhat docs: JSON numbers;
 * some scripts: decimal strings); all are accepted where Anvil and Hardhat accept them.
 */
import { DevnetError, KeystoreError } from './service-errors.js';
import { EthRpcError, InvalidParamsError, ServerError } from '../errors.js';
import { decodeQuantity } from '../hex.js';
import { jsonKind, ParamDecodeError, typeError, type Decoder } from '../params.js';
import { ListenerRunningError } from './listener-control.js';

/** A non-negative integer as a JSON number, a 0x quantity or a decimal string. */
export const bigLike: Decoder<bigint> = (raw) => {
  if (typeof raw === 'number') {
    if (!Number.isSafeInteger(raw) || raw < 0) throw new ParamDecodeError(`invalid number ${raw}`);
    return BigInt(raw);
  }
  if (typeof raw === 'string') {
    if (/^0[xX]/.test(raw)) return decodeQuantity(raw, 256);
    if (/^\d+$/.test(raw)) return BigInt(raw);
    throw new ParamDecodeError(`invalid number ${JSON.stringify(raw)}`);
  }
  throw typeError(jsonKind(raw), 'uint');
};

/** As `bigLike`, within the safe integer range. */
export const uintLike: Decoder<number> = (raw) => {
  const v = bigLike(raw);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new ParamDecodeError(`number too large: ${v}`);
  return Number(v);
};

/** evm_mine's argument: a timestamp, or Anvil's `{ timestamp, blocks }`. */
export interface MineArg {
  timestamp?: number;
  blocks?: number;
}

export const mineArgOf: Decoder<MineArg> = (raw) => {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const o = raw as Record<string, unknown>;
    return {
      ...(o.timestamp === undefined || o.timestamp === null ? {} : { timestamp: uintLike(o.timestamp) }),
      ...(o.blocks === undefined || o.blocks === null ? {} : { blocks: uintLike(o.blocks) }),
    };
  }
  return { timestamp: uintLike(raw) };
};

/** evm_setIntervalMining: milliseconds, or Hardhat's `[min, max]` (the middle is used). */
export const intervalOf: Decoder<number> = (raw) => {
  if (Array.isArray(raw)) {
    if (raw.length !== 2) throw new ParamDecodeError('interval range must be [min, max]');
    const [a, b] = [uintLike(raw[0]), uintLike(raw[1])];
    if (a > b) throw new ParamDecodeError('interval range must be [min, max] with min <= max');
    return Math.round((a + b) / 2);
  }
  return uintLike(raw);
};

/** Errors of the node-side services → the JSON-RPC error a geth-style client expects. */
export function toRpcError(e: unknown): unknown {
  if (e instanceof EthRpcError) return e;
  if (e instanceof KeystoreError || e instanceof DevnetError || e instanceof ListenerRunningError) return new ServerError(e.message);
  if (e instanceof RangeError) return new InvalidParamsError(e.message);
  return e;
}

/** Wraps a handler so service errors reach the client in geth's shape. */
export function guarded<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await fn(...args);
    } catch (e) {
      throw toRpcError(e);
    }
  };
}
