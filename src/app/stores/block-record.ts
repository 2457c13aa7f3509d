/**
 * What the app keeps of each block for the Ethereum view: the header fields, and per executed tx
 * its envelope, sender and receipt data. One RLP value per block, written in the Commit batch.
 *
 *   record = [number, hash, parentHash, timestamp, coinbase, gasLimit, gasUsed, baseFee, stateRoot,
 *             bloom, [[bytes, ethHash, sender, type, to, status, gasUsed, effectiveGasPrice,
 *                      contractAddress, [[address, [topics…], data]…]]…]]
 */
import { RLP } from '@ethereumjs/rlp';
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { Address, bigIntToUnpaddedBytes, bytesToBigInt, intToBytes } from '@ethereumjs/util';
import type { Common } from '@ethereumjs/common';
import { TX_DECODE_OPTS } from '../chain-common.js';
import { CorruptStoreError } from '../errors.js';
import { rlpEncode, type RlpItem } from '../views/rlp-encode.js';
import { RlpDecodeError, rlpListItemView } from '../views/rlp-view.js';

/** An EVM log as ethereumjs returns it: [address, topics, data]. */
export type RawLog = [Uint8Array, Uint8Array[], Uint8Array];

export interface ExecutedTx {
  bytes: Uint8Array;
  ethHash: Uint8Array;
  sender: Address;
  type: number;
  to: Address | undefined;
  status: 0 | 1;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  contractAddress: Address | undefined;
  logs: RawLog[];
  /** The decoded tx, when still in memory (never persisted). */
  decoded?: TypedTransaction;
}

export interface BlockRecord {
  number: number;
  hash: Uint8Array;
  parentHash: Uint8Array;
  timestamp: bigint;
  coinbase: Address;
  gasLimit: bigint;
  gasUsed: bigint;
  baseFee: bigint;
  stateRoot: Uint8Array;
  bloom: Uint8Array;
  txs: ExecutedTx[];
}

const EMPTY = new Uint8Array(0);

export function encodeBlockRecord(r: BlockRecord): Uint8Array {
  const txs: RlpItem[] = new Array(r.txs.length);
  for (let i = 0; i < r.txs.length; i++) {
    const t = r.txs[i]!;
    txs[i] = [
      t.bytes,
      t.ethHash,
      t.sender.bytes,
      intToBytes(t.type),
      t.to?.bytes ?? EMPTY,
      t.status === 1 ? ONE : EMPTY,
      bigIntToUnpaddedBytes(t.gasUsed),
      bigIntToUnpaddedBytes(t.effectiveGasPrice),
      t.contractAddress?.bytes ?? EMPTY,
      t.logs,
    ];
  }
  return rlpEncode([
    intToBytes(r.number),
    r.hash,
    r.parentHash,
    bigIntToUnpaddedBytes(r.timestamp),
    r.coinbase.bytes,
    bigIntToUnpaddedBytes(r.gasLimit),
    bigIntToUnpaddedBytes(r.gasUsed),
    bigIntToUnpaddedBytes(r.baseFee),
    r.stateRoot,
    r.bloom,
    txs,
  ]);
}
const ONE = Uint8Array.of(1);

export function decodeBlockRecord(bytes: Uint8Array): BlockRecord {
  const f = RLP.decode(bytes) as unknown;
  if (!Array.isArray(f) || f.length !== 11 || !Array.isArray(f[10])) throw new CorruptStoreError('block record');
  const b = f as Uint8Array[];
  const txs = (f[10] as unknown[]).map((raw): ExecutedTx => {
    const t = raw as (Uint8Array | RawLog[])[];
    if (!Array.isArray(t) || t.length !== 10) throw new CorruptStoreError('block record tx');
    const to = t[4] as Uint8Array;
    const created = t[8] as Uint8Array;
    return {
      bytes: t[0] as Uint8Array,
      ethHash: t[1] as Uint8Array,
      sender: new Address(t[2] as Uint8Array),
      type: Number(bytesToBigInt(t[3] as Uint8Array)),
      to: to.length === 20 ? new Address(to) : undefined,
      status: (t[5] as Uint8Array).length > 0 ? 1 : 0,
      gasUsed: bytesToBigInt(t[6] as Uint8Array),
      effectiveGasPrice: bytesToBigInt(t[7] as Uint8Array),
      contractAddress: created.length === 20 ? new Address(created) : undefined,
      logs: t[9] as RawLog[],
    };
  });
  return {
    number: Number(bytesToBigInt(b[0]!)),
    hash: b[1]!,
    parentHash: b[2]!,
    timestamp: bytesToBigInt(b[3]!),
    coinbase: new Address(b[4]!),
    gasLimit: bytesToBigInt(b[5]!),
    gasUsed: bytesToBigInt(b[6]!),
    baseFee: bytesToBigInt(b[7]!),
    stateRoot: b[8]!,
    bloom: b[9]!,
    txs,
  };
}

/**
 * The bloom of a stored block record (a view into `bytes`), read without decoding the record
 * (what `eth_getLogs` reads of every block in its range).
 */
export function blockRecordBloom(bytes: Uint8Array): Uint8Array {
  let bloom: RlpItem;
  try {
    bloom = rlpListItemView(bytes, 9);
  } catch (e) {
    if (e instanceof RlpDecodeError) throw new CorruptStoreError('block record');
    throw e;
  }
  if (!(bloom instanceof Uint8Array) || bloom.length !== 256) throw new CorruptStoreError('block record bloom');
  return bloom;
}

/** The decoded tx of an executed-tx record (decoded once, then kept on the record). */
export function decodedTxOf(t: ExecutedTx, common: Common): TypedTransaction {
  t.decoded ??= createTxFromRLP(t.bytes, { common, ...TX_DECODE_OPTS });
  return t.decoded;
}
