/**
 * The JSON shapes of blocks, headers, transactions, receipts and logs, as geth's RPC marshals
 * them and Cosmos EVM maps a CometBFT block (REFERENCE §2.4): number = height, hash = the
 * CometBFT header hash everywhere, difficulty 0, empty uncles, zero mix hash and nonce, and the
 * post-Cancun/Prague header fields with their empty values.
 */
import { Capability, type TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import type { EvmBlock, EvmLog, EvmReceipt } from '../../app/views/evm-view.js';
import { data, quantity } from './hex.js';

export const EMPTY_UNCLES_HASH = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';
export const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
/** EIP-7685 hash of no requests: sha256 of the empty string. */
export const EMPTY_REQUESTS_HASH = '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const ZERO_HASH = `0x${'0'.repeat(64)}`;

export type Json = Record<string, unknown>;

export function addressHex(a: Address | Uint8Array): string {
  return data(a instanceof Uint8Array ? a : a.bytes);
}

export function formatHeader(b: EvmBlock): Json {
  return {
    number: quantity(b.number),
    hash: data(b.hash),
    parentHash: data(b.parentHash),
    nonce: '0x0000000000000000',
    sha3Uncles: EMPTY_UNCLES_HASH,
    logsBloom: data(b.logsBloom),
    transactionsRoot: data(b.transactionsRoot),
    stateRoot: data(b.stateRoot),
    receiptsRoot: data(b.receiptsRoot),
    miner: addressHex(b.coinbase),
    difficulty: '0x0',
    extraData: '0x',
    gasLimit: quantity(b.gasLimit),
    gasUsed: quantity(b.gasUsed),
    timestamp: quantity(b.timestamp),
    mixHash: ZERO_HASH,
    baseFeePerGas: quantity(b.baseFeePerGas),
    withdrawalsRoot: EMPTY_TRIE_ROOT,
    blobGasUsed: '0x0',
    excessBlobGas: '0x0',
    parentBeaconBlockRoot: ZERO_HASH,
    requestsHash: EMPTY_REQUESTS_HASH,
  };
}

export function formatBlock(b: EvmBlock, transactions: string[] | Json[]): Json {
  return {
    ...formatHeader(b),
    totalDifficulty: '0x0',
    size: quantity(b.size),
    transactions,
    uncles: [],
    withdrawals: [],
  };
}

/** Where a mined tx sits; absent for a pending one. */
export interface TxLocation {
  blockHash: Uint8Array;
  blockNumber: number;
  blockTimestamp: bigint;
  index: number;
  baseFee: bigint;
}

export function formatTx(tx: TypedTransaction, sender: Address, hash: Uint8Array, loc?: TxLocation): Json {
  const out: Json = {
    blockHash: loc ? data(loc.blockHash) : null,
    blockNumber: loc ? quantity(loc.blockNumber) : null,
    blockTimestamp: loc ? quantity(loc.blockTimestamp) : null,
    from: addressHex(sender),
    gas: quantity(tx.gasLimit),
    gasPrice: '0x0',
    hash: data(hash),
    input: data(tx.data),
    nonce: quantity(tx.nonce),
    to: tx.to ? addressHex(tx.to) : null,
    transactionIndex: loc ? quantity(loc.index) : null,
    value: quantity(tx.value),
    type: quantity(tx.type),
  };
  if (tx.supports(Capability.EIP1559FeeMarket)) {
    const t = tx as TypedTransaction & { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
    out['maxFeePerGas'] = quantity(t.maxFeePerGas);
    out['maxPriorityFeePerGas'] = quantity(t.maxPriorityFeePerGas);
    // geth: the price paid once mined, the fee cap while pending.
    let price = t.maxFeePerGas;
    if (loc) {
      const tip = t.maxFeePerGas - loc.baseFee < t.maxPriorityFeePerGas ? t.maxFeePerGas - loc.baseFee : t.maxPriorityFeePerGas;
      price = loc.baseFee + (tip > 0n ? tip : 0n);
    }
    out['gasPrice'] = quantity(price);
  } else {
    out['gasPrice'] = quantity((tx as TypedTransaction & { gasPrice: bigint }).gasPrice);
  }
  if (tx.supports(Capability.EIP2930AccessLists)) {
    const list = (tx as TypedTransaction & { accessList: [Uint8Array, Uint8Array[]][] }).accessList;
    out['accessList'] = list.map(([a, keys]) => ({ address: data(a), storageKeys: keys.map(data) }));
  }
  if (tx.type === 4) {
    const auths = (tx as TypedTransaction & { authorizationList: Uint8Array[][] }).authorizationList;
    out['authorizationList'] = auths.map(([chainId, address, nonce, yParity, r, s]) => ({
      chainId: quantity(big(chainId!)),
      address: data(address!),
      nonce: quantity(big(nonce!)),
      yParity: quantity(big(yParity!)),
      r: quantity(big(r!)),
      s: quantity(big(s!)),
    }));
  }
  const v = tx.v ?? 0n;
  if (tx.type === 0) {
    if (tx.supports(Capability.EIP155ReplayProtection)) out['chainId'] = quantity(tx.common.chainId());
  } else {
    out['chainId'] = quantity(tx.common.chainId());
    out['yParity'] = quantity(v);
  }
  out['v'] = quantity(v);
  out['r'] = quantity(tx.r ?? 0n);
  out['s'] = quantity(tx.s ?? 0n);
  return out;
}

function big(b: Uint8Array): bigint {
  return b.length === 0 ? 0n : BigInt(data(b));
}

export function formatLog(l: EvmLog, r: { txHash: Uint8Array; blockHash: Uint8Array; blockNumber: number }, blockTimestamp: bigint): Json {
  return {
    address: addressHex(l.address),
    topics: l.topics.map(data),
    data: data(l.data),
    blockNumber: quantity(r.blockNumber),
    blockHash: data(r.blockHash),
    blockTimestamp: quantity(blockTimestamp),
    transactionHash: data(r.txHash),
    transactionIndex: quantity(l.transactionIndex),
    logIndex: quantity(l.logIndex),
    removed: false,
  };
}

export function formatReceipt(r: EvmReceipt, blockTimestamp: bigint): Json {
  return {
    blockHash: data(r.blockHash),
    blockNumber: quantity(r.blockNumber),
    contractAddress: r.contractAddress ? addressHex(r.contractAddress) : null,
    cumulativeGasUsed: quantity(r.cumulativeGasUsed),
    effectiveGasPrice: quantity(r.effectiveGasPrice),
    from: addressHex(r.from),
    gasUsed: quantity(r.gasUsed),
    logs: r.logs.map((l) => formatLog(l, r, blockTimestamp)),
    logsBloom: data(r.logsBloom),
    status: quantity(r.status),
    to: r.to ? addressHex(r.to) : null,
    transactionHash: data(r.txHash),
    transactionIndex: quantity(r.txIndex),
    type: quantity(r.type),
  };
}
