/**
 * ABCI events of executed Ethereum txs and blocks, modelled on Cosmos EVM (x/vm, x/feemarket):
 *
 *   ethereum_tx  amount, ethereumTxHash, txIndex, txGasUsed, txHash (CometBFT hash), recipient,
 *                [ethereumTxFailed]
 *   tx_log       txLog = the log as Ethereum JSON (one event per log)
 *   message      action=/cosmos.evm.vm.v1.MsgEthereumTx, sender, module=evm, tx_type
 *   block_bloom  bloom (block level)
 *   fee_market   base_fee (block level)
 *
 * Only the attributes people search by are marked `index: true` (hashes, parties, action,
 * failure), as a Cosmos SDK node's `index-events` would be set for an EVM chain: indexing every
 * attribute (a log's JSON, a 512-char bloom) doubled the cost of committing a block of transfers.
 * Subscriptions match on every attribute whatever the flag.
 */
import type { AbciEvent, EventAttribute } from '../../abci/types.js';
import { toPrefixedHex as hex } from '../../crypto/encoding.js';
import type { RawLog } from '../stores/block-record.js';

export const MSG_ETHEREUM_TX_ACTION = '/cosmos.evm.vm.v1.MsgEthereumTx';

export interface TxEventParams {
  value: bigint;
  ethHashHex: string;
  txIndex: number;
  gasUsed: bigint;
  cometHashHex: string;
  /** Lower-case 0x recipient (the created contract for a deployment); '' if none. */
  recipient: string;
  /** EVM error text when the tx reverted or halted. */
  failed: string | undefined;
  senderHex: string;
  type: number;
  logs: readonly RawLog[];
  /** Block-wide index of the tx's first log. */
  firstLogIndex: number;
  blockNumber: number;
  blockHashHex: string;
}

const INDEXED = new Set(['ethereumTxHash', 'txHash', 'recipient', 'ethereumTxFailed', 'action', 'sender', 'module']);
const attr = (key: string, value: string): EventAttribute => ({ key, value, index: INDEXED.has(key) });

export function ethereumTxEvents(p: TxEventParams): AbciEvent[] {
  const txAttrs = [
    attr('amount', p.value.toString()),
    attr('ethereumTxHash', p.ethHashHex),
    attr('txIndex', String(p.txIndex)),
    attr('txGasUsed', p.gasUsed.toString()),
    attr('txHash', p.cometHashHex),
  ];
  if (p.recipient !== '') txAttrs.push(attr('recipient', p.recipient));
  if (p.failed !== undefined) txAttrs.push(attr('ethereumTxFailed', p.failed));
  const events: AbciEvent[] = [{ type: 'ethereum_tx', attributes: txAttrs }];
  for (let i = 0; i < p.logs.length; i++) {
    events.push({ type: 'tx_log', attributes: [attr('txLog', logJson(p.logs[i]!, p, p.firstLogIndex + i))] });
  }
  events.push({
    type: 'message',
    attributes: [attr('action', MSG_ETHEREUM_TX_ACTION), attr('sender', p.senderHex), attr('module', 'evm'), attr('tx_type', String(p.type))],
  });
  return events;
}

export function blockEvents(bloom: Uint8Array, baseFee: bigint): AbciEvent[] {
  return [
    { type: 'block_bloom', attributes: [attr('bloom', hex(bloom))] },
    { type: 'fee_market', attributes: [attr('base_fee', baseFee.toString())] },
  ];
}

function logJson([address, topics, data]: RawLog, p: TxEventParams, logIndex: number): string {
  return JSON.stringify({
    address: hex(address),
    topics: topics.map(hex),
    data: hex(data),
    blockNumber: `0x${p.blockNumber.toString(16)}`,
    transactionHash: p.ethHashHex,
    transactionIndex: `0x${p.txIndex.toString(16)}`,
    blockHash: p.blockHashHex,
    logIndex: `0x${logIndex.toString(16)}`,
    removed: false,
  });
}
