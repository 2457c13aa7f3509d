/**
 * The activity lines of a CometBFT-style chain (the EVM chain, the hub, kvstore), read from its own
 * event bus, so they show exactly what subscribers see: a tx line per `Tx` event (EVM txs by their
 * 0x hash and sender, other txs by their CometBFT hash), a block line per `NewBlock`.
 */
import type { EventMessage } from '../events/types.js';
import type { Subscription } from '../events/subscription.js';
import { toHexUpper } from '../crypto/encoding.js';
import { formatRfc3339Nano } from '../types/time.js';
import type { ActivityBlockLine, ActivityEvent, ActivityTxLine } from './types.js';

const first = (events: Record<string, string[]>, key: string): string | undefined => events[key]?.[0];

/**
 * The recipient of a Cosmos tx: the last `transfer` event's, past the fee's transfer to the fee
 * collector (the first one when the tx paid a fee).
 */
function cosmosRecipient(ev: Record<string, string[]>): string | undefined {
  const recipients = ev['transfer.recipient'] ?? [];
  const fee = first(ev, 'tx.fee');
  const paidFee = fee !== undefined && /[1-9]/.test(fee.replace(/[a-z/].*$/i, ''));
  const own = paidFee ? recipients.slice(1) : recipients;
  return own[own.length - 1];
}

/** A tx line from a `Tx` event: EVM txs by their 0x hash and sender, other txs by their CometBFT hash. */
export function txLine(msg: EventMessage): ActivityTxLine | undefined {
  if (msg.data.type !== 'Tx') return undefined;
  const { txResult } = msg.data.value;
  const ev = msg.events;
  const failed = txResult.result.code !== 0 || first(ev, 'ethereum_tx.ethereumTxFailed') !== undefined;
  const evm = first(ev, 'ethereum_tx.ethereumTxHash') !== undefined;
  // A failed Cosmos tx keeps only its ante events: the fee payer is its sender.
  const sender = first(ev, 'message.sender') ?? first(ev, 'tx.fee_payer') ?? first(ev, 'tx.acc_seq')?.split('/')[0];
  const to = evm ? first(ev, 'ethereum_tx.recipient') : cosmosRecipient(ev);
  const line: ActivityTxLine = {
    hash: first(ev, 'ethereum_tx.ethereumTxHash') ?? first(ev, 'tx.hash') ?? '',
    from: sender,
    to,
    ...(evm && to === undefined ? { creation: true as const } : {}),
    gasUsed: txResult.result.gasUsed,
    status: failed ? 'failed' : 'success',
    block: txResult.height,
  };
  if (failed) line.error = first(ev, 'ethereum_tx.ethereumTxFailed') ?? txResult.result.log;
  return line;
}

export function blockLine(msg: EventMessage): ActivityBlockLine | undefined {
  if (msg.data.type !== 'NewBlock') return undefined;
  const { block, blockId, resultFinalizeBlock } = msg.data.value;
  return {
    height: block.header.height,
    hash: toHexUpper(blockId.hash),
    txs: block.data.txs.length,
    gasUsed: resultFinalizeBlock.txResults.reduce((n, r) => n + r.gasUsed, 0),
    time: formatRfc3339Nano(block.header.time),
  };
}

/** Subscribes to a chain's blocks and txs; returns the unsubscriber. */
export function cometActivity(subscribe: (query: string, subscriber: string) => Subscription, write: (e: ActivityEvent) => void): () => void {
  const txs = subscribe("tm.event = 'Tx'", 'cli-activity-log');
  const blocks = subscribe("tm.event = 'NewBlock'", 'cli-activity-log');
  // Blocks are published before their txs; the block line comes first, its txs under it.
  blocks.setListener((m) => {
    const line = blockLine(m);
    if (line) write({ event: 'block', line });
  });
  txs.setListener((m) => {
    const line = txLine(m);
    if (line) write({ event: 'tx', line });
  });
  return () => {
    txs.cancel();
    blocks.cancel();
  };
}
