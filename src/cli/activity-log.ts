/**
 * One line per tx and per block while `chainlet start` runs, as `anvil` and `hardhat node` print:
 * readable on a terminal, one JSON object per line when stdout is not a TTY (for log tools).
 * Fed by the node's own event bus, so it shows exactly what subscribers see.
 */
import type { EventMessage } from '../events/types.js';
import type { ChainletNode } from '../node/node.js';
import { toHexUpper } from '../crypto/encoding.js';
import { formatRfc3339Nano } from '../types/time.js';

export interface TxLine {
  hash: string;
  from: string | undefined;
  to: string | undefined;
  gasUsed: number;
  status: 'success' | 'failed';
  error?: string;
  block: number;
}

export interface BlockLine {
  height: number;
  hash: string;
  txs: number;
  gasUsed: number;
  time: string;
}

const first = (events: Record<string, string[]>, key: string): string | undefined => events[key]?.[0];

/** A tx line from a `Tx` event: EVM txs by their 0x hash and sender, other txs by their CometBFT hash. */
export function txLine(msg: EventMessage): TxLine | undefined {
  if (msg.data.type !== 'Tx') return undefined;
  const { txResult } = msg.data.value;
  const ev = msg.events;
  const failed = txResult.result.code !== 0 || first(ev, 'ethereum_tx.ethereumTxFailed') !== undefined;
  const line: TxLine = {
    hash: first(ev, 'ethereum_tx.ethereumTxHash') ?? first(ev, 'tx.hash') ?? '',
    from: first(ev, 'message.sender'),
    to: first(ev, 'ethereum_tx.recipient') ?? first(ev, 'transfer.recipient'),
    gasUsed: txResult.result.gasUsed,
    status: failed ? 'failed' : 'success',
    block: txResult.height,
  };
  if (failed) line.error = first(ev, 'ethereum_tx.ethereumTxFailed') ?? txResult.result.log;
  return line;
}

export function blockLine(msg: EventMessage): BlockLine | undefined {
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

export function formatTxLine(l: TxLine): string {
  const to = l.to ?? 'contract creation';
  const status = l.status === 'success' ? 'ok' : `FAILED${l.error ? ` (${l.error})` : ''}`;
  return `  tx ${l.hash}  from ${l.from ?? '?'} to ${to}  gas ${l.gasUsed}  ${status}  block ${l.block}`;
}

export function formatBlockLine(l: BlockLine): string {
  return `block ${l.height}  ${l.hash.slice(0, 16)}…  ${l.txs} tx${l.txs === 1 ? '' : 's'}  gas ${l.gasUsed}  ${l.time}`;
}

/** Subscribes to the node's blocks and txs and prints a line for each; returns the unsubscriber. */
export function logActivity(node: ChainletNode, out: NodeJS.WriteStream = process.stdout): () => void {
  const json = !out.isTTY;
  let enabled = node.internals.devnet.loggingEnabled;
  const offLogging = node.internals.devnet.onLoggingChange((on) => (enabled = on));
  // A block's lines are written together once the block's callers have their answers: stdout to a
  // file or pipe is a synchronous write per call, which sat between a tx's block and its reply.
  let pending = '';
  let scheduled: NodeJS.Immediate | undefined;
  const flush = () => {
    scheduled = undefined;
    if (pending === '') return;
    const text = pending;
    pending = '';
    out.write(text);
  };
  const write = (kind: 'tx' | 'block', line: TxLine | BlockLine, text: string) => {
    if (!enabled) return;
    pending += json ? `${JSON.stringify({ time: new Date().toISOString(), chain: node.chainId, event: kind, ...line })}\n` : `${text}\n`;
    scheduled ??= setImmediate(flush);
  };
  const txs = node.subscribe("tm.event = 'Tx'", 'cli-activity-log');
  const blocks = node.subscribe("tm.event = 'NewBlock'", 'cli-activity-log');
  // Blocks are published before their txs; the block line comes first, its txs under it.
  blocks.setListener((m) => {
    const l = blockLine(m);
    if (l) write('block', l, formatBlockLine(l));
  });
  txs.setListener((m) => {
    const l = txLine(m);
    if (l) write('tx', l, formatTxLine(l));
  });
  return () => {
    offLogging();
    txs.cancel();
    blocks.cancel();
    if (scheduled !== undefined) clearImmediate(scheduled);
    flush();
  };
}
