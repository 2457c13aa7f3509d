/**
 * Decoding of the bytes CometBFT carries as a tx: an Ethereum tx (its signed EIP-2718 envelope) or,
 * when the chain's Cosmos face is on, a Cosmos SDK TxRaw (protobuf, first byte 0x0a, which no RLP
 * envelope starts with; see cosmos/cosmos-tx.ts). `decodeAppTx` is the single entry point.
 *
 * A decoded tx keeps everything derived from its bytes that the app needs more than once: both
 * hashes and, after `recoverSender`, the sender (recovered once, kept with the frozen tx).
 */
import { concatBytes, toHexUpper } from '../../crypto/encoding.js';
import { keccak256 } from '../../crypto/keccak.js';
import { txHash } from '../../types/txs.js';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import {
  Capability,
  create1559FeeMarketTxFromBytesArray,
  createAccessList2930TxFromBytesArray,
  createEOACode7702TxFromBytesArray,
  createLegacyTxFromBytesArray,
  createTxFromRLP,
  type TxOptions,
  type TypedTransaction,
} from '@ethereumjs/tx';
import { Address, bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { TX_DECODE_OPTS } from '../chain-common.js';
import { rlpEncode, rlpListHeader, rlpStringHeaderLength } from '../views/rlp-encode.js';
import { rlpDecodeView } from '../views/rlp-view.js';
import { invalidChainId, invalidSignature, txParseError, unsupportedTxType } from './tx-rejections.js';
import { decodeCosmosTx, looksLikeTxRaw, type DecodedCosmosTx } from '../cosmos/cosmos-tx.js';
import { CosmosTxError, type Codespace } from '../../sdk/errors.js';
import { TxRejectedError } from '../errors.js';

export interface DecodedEthTx {
  readonly kind: 'eth';
  readonly tx: TypedTransaction;
  readonly bytes: Uint8Array;
  /** CometBFT tx hash: sha256 of the bytes. */
  readonly cometHash: Uint8Array;
  /** Upper-case hex of `cometHash` (event attribute `txHash`, cache key). */
  readonly cometHashHex: string;
  /** keccak-256 of the envelope (the Ethereum tx hash). */
  readonly ethHash: Uint8Array;
  /** Whether the signature commits to a chain id (typed txs and EIP-155 legacy txs). */
  readonly protected: boolean;
  /** Set by `recoverSender`. */
  sender?: Address;
  /** Lower-case 0x sender. */
  senderHex?: string;
}

export type DecodedTx = DecodedEthTx | DecodedCosmosTx;
export type { DecodedCosmosTx };

const SUPPORTED_TYPES = new Set([1, 2, 4]);

/** Decodes tx bytes for the chain of `common`; throws TxRejectedError (parse error, chain id, type). */
/** `cometHash`/`cometHashHex`, when the caller already has them, save hashing the bytes again. */
/** `cosmosPrefix`: the chain's bech32 prefix when its Cosmos face accepts Cosmos txs. */
export function decodeAppTx(bytes: Uint8Array, common: Common, cometHash?: Uint8Array, cometHashHex?: string, cosmosPrefix?: string): DecodedTx {
  if (bytes.length === 0) throw txParseError('empty tx');
  if (cosmosPrefix !== undefined && looksLikeTxRaw(bytes)) {
    const hash = cometHash ?? txHash(bytes);
    try {
      return decodeCosmosTx(bytes, hash, cometHashHex ?? toHexUpper(hash), cosmosPrefix);
    } catch (e) {
      if (e instanceof CosmosTxError) throw new TxRejectedError(e.code, e.codespace as Codespace, e.log);
      throw e;
    }
  }
  const type = bytes[0]! <= 0x7f ? bytes[0]! : 0;
  if (type !== 0 && !SUPPORTED_TYPES.has(type)) throw unsupportedTxType(type);
  let tx: TypedTransaction;
  try {
    tx = txFromRlp(bytes, type, { common, ...TX_DECODE_OPTS, freeze: false });
  } catch (e) {
    const chainId = envelopeChainId(bytes);
    if (chainId !== undefined && chainId !== common.chainId()) throw invalidChainId(common.chainId(), chainId);
    throw txParseError((e as Error).message);
  }
  const hash = cometHash ?? txHash(bytes);
  const d: DecodedEthTx = {
    kind: 'eth',
    tx,
    bytes,
    cometHash: hash,
    cometHashHex: cometHashHex ?? toHexUpper(hash),
    ethHash: keccak256(bytes),
    protected: type !== 0 || tx.supports(Capability.EIP155ReplayProtection),
  };
  // The VM asks the tx for its sender (runTx), and ethereumjs hashes the public key again each time
  // with its JS keccak; this tx answers with the address recoverSender keeps. Frozen afterwards,
  // as createTxFromRLP would have: ethereumjs caches a frozen tx's hash and public key.
  Object.defineProperty(tx, 'getSenderAddress', { value: () => recoverSender(d) });
  Object.freeze(tx);
  return d;
}

/** Each supported type's constructor from its decoded fields. */
const FROM_FIELDS: Partial<Record<number, (fields: never, opts: TxOptions) => TypedTransaction>> = {
  0: createLegacyTxFromBytesArray,
  1: createAccessList2930TxFromBytesArray,
  2: create1559FeeMarketTxFromBytesArray,
  4: createEOACode7702TxFromBytesArray,
};

/**
 * createTxFromRLP for the supported types, with the fields decoded as views into `bytes` (which the
 * decoded tx keeps) instead of copies: @ethereumjs/rlp copies each field and makes an object per
 * item. Whatever this does not take (a malformed encoding, fields the constructor refuses) goes
 * through createTxFromRLP, so a refusal reads exactly as before.
 */
function txFromRlp(bytes: Uint8Array, type: number, opts: TxOptions): TypedTransaction {
  try {
    const list = type === 0 ? bytes : bytes.subarray(1);
    const values = rlpDecodeView(list);
    const fromFields = FROM_FIELDS[type];
    if (Array.isArray(values) && fromFields !== undefined) {
      const tx = fromFields(values as never, opts);
      hashSigningPayloadInPlace(tx, type, list, values[values.length - 3] as Uint8Array);
      return tx;
    }
  } catch {
    // createTxFromRLP below reports it.
  }
  return createTxFromRLP(bytes, opts);
}

/**
 * The hash a signature of `tx` signs, from the bytes it arrived in: the fields before v, r and s
 * are its signing payload as they stand, under a new list header (and, for an EIP-155 legacy tx,
 * followed by the chain id, 0 and 0). ethereumjs builds it again from the parsed fields (each
 * number back to bytes, the list RLP-encoded); the bytes are the same, since both decoders refuse
 * non-canonical encodings. The override is the tx's own, computed at its first use.
 */
function hashSigningPayloadInPlace(tx: TypedTransaction, type: number, list: Uint8Array, v: Uint8Array): void {
  let hash: Uint8Array | undefined;
  Object.defineProperty(tx, 'getMessageToVerifySignature', {
    value: () => {
      if (hash !== undefined) return hash;
      if (!tx.isSigned()) return (Object.getPrototypeOf(tx) as TypedTransaction).getMessageToVerifySignature.call(tx); // upstream's error
      const start = list[0]! <= 0xf7 ? 1 : 1 + (list[0]! - 0xf7);
      const end = v.byteOffset - list.byteOffset - rlpStringHeaderLength(v);
      const tail = type === 0 && tx.supports(Capability.EIP155ReplayProtection) ? eip155Tail(tx.common.chainId()) : EMPTY_BYTES;
      const body = end - start + tail.length;
      const header = rlpListHeader(body);
      const prefix = type === 0 ? 0 : 1;
      const payload = new Uint8Array(prefix + header.length + body);
      if (prefix === 1) payload[0] = type;
      payload.set(header, prefix);
      payload.set(list.subarray(start, end), prefix + header.length);
      payload.set(tail, prefix + header.length + end - start);
      hash = keccak256(payload);
      return hash;
    },
  });
}

const EMPTY_BYTES = new Uint8Array(0);

/** What an EIP-155 legacy tx signs after its six fields: the chain id, 0 and 0, each RLP-encoded. */
function eip155Tail(chainId: bigint): Uint8Array {
  return concatBytes(rlpEncode(bigIntToUnpaddedBytes(chainId)), RLP_ZERO, RLP_ZERO);
}

const RLP_ZERO = Uint8Array.of(0x80);

/** The nonce (EVM) or sequence (Cosmos) a tx uses: one counter per account, as on Cosmos EVM. */
export function txNonce(d: DecodedTx): bigint {
  return d.kind === 'eth' ? d.tx.nonce : d.signer.sequence;
}

export function txGasLimit(d: DecodedTx): bigint {
  return d.kind === 'eth' ? d.tx.gasLimit : d.fee.gasLimit;
}

/** Recovers (once) and returns the sender; throws TxRejectedError for a bad signature. */
export function recoverSender(d: DecodedTx): Address {
  if (d.kind === 'cosmos') return d.sender; // known from its signer info at decode
  if (d.sender !== undefined) return d.sender;
  let sender: Address;
  try {
    // = tx.getSenderAddress(), whose JS keccak of the public key costs ~10 µs; the key itself
    // (signature check and ecrecover) is computed once and cached by the frozen tx.
    const publicKey = d.tx.getSenderPublicKey();
    sender = publicKey.length === 64 ? new Address(keccak256(publicKey).slice(12)) : d.tx.getSenderAddress();
  } catch (e) {
    throw invalidSignature((e as Error).message);
  }
  d.sender = sender;
  d.senderHex = sender.toString();
  return sender;
}

/** The chain id a tx envelope commits to, or undefined (unprotected legacy, undecodable). */
function envelopeChainId(bytes: Uint8Array): bigint | undefined {
  try {
    if (bytes[0]! <= 0x7f) {
      const fields = RLP.decode(bytes.subarray(1));
      return Array.isArray(fields) && fields[0] instanceof Uint8Array ? toBigInt(fields[0]) : undefined;
    }
    const fields = RLP.decode(bytes);
    if (!Array.isArray(fields) || !(fields[6] instanceof Uint8Array)) return undefined;
    const v = toBigInt(fields[6]);
    return v >= 35n ? (v - 35n) / 2n : undefined;
  } catch {
    return undefined;
  }
}

function toBigInt(b: Uint8Array): bigint {
  return b.length === 0 ? 0n : BigInt(`0x${Buffer.from(b).toString('hex')}`);
}
