/**
 * EvmBlock and EvmReceipt values built from a BlockRecord. The transactions and receipts roots are
 * real tries over the executed txs and their receipts, computed on first access and cached: most
 * blocks are never asked for them, and they would be a large share of a block's cost.
 */
import { encodeReceipt } from '@ethereumjs/vm';
import { keccak256 } from '../../crypto/keccak.js';
import { RLP } from '@ethereumjs/rlp';
import type { TransactionType } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import type { BlockRecord, RawLog } from '../stores/block-record.js';
import type { EvmBlock, EvmLog, EvmReceipt } from './evm-view.js';
import { orderedTrieRoot } from '../stores/ordered-trie.js';

export class RecordedBlock implements EvmBlock {
  private txRoot?: Uint8Array;
  private rcptRoot?: Uint8Array;
  private txHashList?: Uint8Array[];
  private sizeBytes?: number;

  constructor(readonly record: BlockRecord) {}

  get number(): number {
    return this.record.number;
  }
  get hash(): Uint8Array {
    return this.record.hash;
  }
  get parentHash(): Uint8Array {
    return this.record.parentHash;
  }
  get timestamp(): bigint {
    return this.record.timestamp;
  }
  get coinbase(): Address {
    return this.record.coinbase;
  }
  get gasLimit(): bigint {
    return this.record.gasLimit;
  }
  get gasUsed(): bigint {
    return this.record.gasUsed;
  }
  get baseFeePerGas(): bigint {
    return this.record.baseFee;
  }
  get stateRoot(): Uint8Array {
    return this.record.stateRoot;
  }
  get logsBloom(): Uint8Array {
    return this.record.bloom;
  }
  get txHashes(): readonly Uint8Array[] {
    this.txHashList ??= this.record.txs.map((t) => t.ethHash);
    return this.txHashList;
  }
  get transactionsRoot(): Uint8Array {
    this.txRoot ??= orderedTrieRoot(this.record.txs.map((t) => t.bytes));
    return this.txRoot;
  }
  get receiptsRoot(): Uint8Array {
    if (this.rcptRoot === undefined) {
      let cumulative = 0n;
      const encoded = this.record.txs.map((t) => {
        cumulative += t.gasUsed;
        const receipt = { status: t.status, cumulativeBlockGasUsed: cumulative, bitvector: logsBloom(t.logs), logs: t.logs };
        return encodeReceipt(receipt, t.type as TransactionType);
      });
      this.rcptRoot = orderedTrieRoot(encoded);
    }
    return this.rcptRoot;
  }
  get size(): number {
    this.sizeBytes ??= blockSize(this.record);
    return this.sizeBytes;
  }
}

/** Receipts of the block's executed txs, with block-wide log indexes. */
export function buildReceipts(record: BlockRecord): EvmReceipt[] {
  let cumulative = 0n;
  let logIndex = 0;
  return record.txs.map((t, txIndex): EvmReceipt => {
    cumulative += t.gasUsed;
    const logs = t.logs.map(([address, topics, data]): EvmLog => ({
      address: addressOf(address),
      topics,
      data,
      logIndex: logIndex++,
      transactionIndex: txIndex,
    }));
    return {
      txHash: t.ethHash,
      txIndex,
      blockNumber: record.number,
      blockHash: record.hash,
      from: t.sender,
      to: t.to ?? null,
      contractAddress: t.contractAddress ?? null,
      status: t.status,
      gasUsed: t.gasUsed,
      cumulativeGasUsed: cumulative,
      effectiveGasPrice: t.effectiveGasPrice,
      type: t.type,
      logs,
      logsBloom: logsBloom(t.logs),
    };
  });
}

/**
 * The logs bloom of a tx (Yellow Paper M3:2048: three 11-bit indexes from each item's keccak), with
 * the WebAssembly keccak; ethereumjs's `Bloom` without a Common hashes in JS (≈ 15 µs an item,
 * four items for an ERC20 transfer's receipt).
 */
export function logsBloom(logs: readonly RawLog[]): Uint8Array {
  const bits = new Uint8Array(256);
  for (const [address, topics] of logs) {
    addToBloom(bits, address);
    for (const topic of topics) addToBloom(bits, topic);
  }
  return bits;
}

function addToBloom(bits: Uint8Array, item: Uint8Array): void {
  const h = keccak256(item);
  for (let i = 0; i < 6; i += 2) {
    const bit = ((h[i]! << 8) | h[i + 1]!) & 2047;
    bits[255 - (bit >> 3)]! |= 1 << (bit & 7);
  }
}

/** ORs `src` into `dst` (both 256-byte blooms). */
export function orBloom(dst: Uint8Array, src: Uint8Array): void {
  for (let i = 0; i < 256; i++) dst[i]! |= src[i]!;
}

function addressOf(bytes: Uint8Array): Address {
  return new Address(bytes);
}

const HASH_PLACEHOLDER = new Uint8Array(32);

/** RLP size of [header, txs, uncles, withdrawals]; 32-byte placeholders stand for the lazy roots. */
function blockSize(r: BlockRecord): number {
  const n = (v: bigint) => (v === 0n ? new Uint8Array(0) : bigToBytes(v));
  const header = RLP.encode([
    r.parentHash,
    HASH_PLACEHOLDER, // uncles hash
    r.coinbase.bytes,
    r.stateRoot,
    HASH_PLACEHOLDER,
    HASH_PLACEHOLDER,
    r.bloom,
    new Uint8Array(0), // difficulty
    n(BigInt(r.number)),
    n(r.gasLimit),
    n(r.gasUsed),
    n(r.timestamp),
    new Uint8Array(0), // extra data
    HASH_PLACEHOLDER, // mix hash
    new Uint8Array(8), // nonce
    n(r.baseFee),
    HASH_PLACEHOLDER, // withdrawals root
    new Uint8Array(0), // blob gas used
    new Uint8Array(0), // excess blob gas
    HASH_PLACEHOLDER, // parent beacon block root
    HASH_PLACEHOLDER, // requests hash
  ]);
  let txsPayload = 0;
  for (const t of r.txs) txsPayload += t.type === 0 ? t.bytes.length : rlpLength(t.bytes.length);
  return rlpLength(header.length + rlpLength(txsPayload) + 1 + 1);
}

function rlpLength(payload: number): number {
  if (payload < 56) return payload + 1;
  let lenBytes = 0;
  for (let v = payload; v > 0; v = Math.floor(v / 256)) lenBytes++;
  return payload + 1 + lenBytes;
}

function bigToBytes(v: bigint): Uint8Array {
  let hex = v.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return Buffer.from(hex, 'hex');
}
