/**
 * One line per tx and per block of every chain of the network while `chainlet start` runs, as
 * `anvil` and `hardhat node` print, each naming its chain: readable on a terminal, one JSON object
 * per line when stdout is not a TTY (for log tools). The CometBFT-style chains (EVM, hub, kvstore)
 * feed it from their own event bus, so it shows exactly what subscribers see; the SVM chain from its
 * ledger (a line per tx, and per slot that had txs: empty slots pass every 400 ms).
 */
import type { EventMessage } from '../events/types.js';
import type { NetworkChain } from '../network/network.js';
import type { SvmTxRecord } from '../svm/history.js';
import { toHexUpper } from '../crypto/encoding.js';
import { formatRfc3339Nano } from '../types/time.js';

export interface TxLine {
  hash: string;
  from: string | undefined;
  /** The recipient (for a Cosmos tx the last transfer's, not the fee collector's); undefined for a contract creation or when the tx names none. */
  to: string | undefined;
  /** An EVM tx that created a contract. */
  creation?: true;
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
export function txLine(msg: EventMessage): TxLine | undefined {
  if (msg.data.type !== 'Tx') return undefined;
  const { txResult } = msg.data.value;
  const ev = msg.events;
  const failed = txResult.result.code !== 0 || first(ev, 'ethereum_tx.ethereumTxFailed') !== undefined;
  const evm = first(ev, 'ethereum_tx.ethereumTxHash') !== undefined;
  // A failed Cosmos tx keeps only its ante events: the fee payer is its sender.
  const sender = first(ev, 'message.sender') ?? first(ev, 'tx.fee_payer') ?? first(ev, 'tx.acc_seq')?.split('/')[0];
  const to = evm ? first(ev, 'ethereum_tx.recipient') : cosmosRecipient(ev);
  const line: TxLine = {
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

/** A tx line of the SVM chain: the fee payer sends; the recipient is the account whose lamports rose most, else the last one written. */
export function svmTxLine(r: SvmTxRecord): TxLine {
  const payer = r.accountKeys[0];
  let to: string | undefined;
  let best = 0n;
  r.accountKeys.forEach((k, i) => {
    const gain = (r.postBalances[i] ?? 0n) - (r.preBalances[i] ?? 0n);
    if (i > 0 && gain > best) [best, to] = [gain, k];
  });
  to ??= r.changed.filter((k) => k !== payer).pop();
  const line: TxLine = {
    hash: r.signature,
    from: payer,
    to,
    gasUsed: Number(r.computeUnits),
    status: r.err === null ? 'success' : 'failed',
    block: Number(r.slot),
  };
  if (r.err !== null) line.error = JSON.stringify(r.err);
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
  const to = l.to ?? (l.creation ? 'contract creation' : undefined);
  const parties = l.from === undefined && to === undefined ? '' : `  from ${l.from ?? '?'}${to === undefined ? '' : ` to ${to}`}`;
  const status = l.status === 'success' ? 'ok' : `FAILED${l.error ? ` (${l.error})` : ''}`;
  return `  tx ${l.hash}${parties}  gas ${l.gasUsed}  ${status}  block ${l.block}`;
}

export function formatBlockLine(l: BlockLine): string {
  return `block ${l.height}  ${l.hash.slice(0, 16)}…  ${l.txs} tx${l.txs === 1 ? '' : 's'}  gas ${l.gasUsed}  ${l.time}`;
}

export interface ActivityLogOptions {
  /** One JSON object per line (default: when `out` is not a terminal). */
  json?: boolean;
}

/** Subscribes to every chain's blocks and txs and prints a line for each; returns the unsubscriber. */
export function logActivity(
  chains: readonly NetworkChain[],
  out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout,
  opts: ActivityLogOptions = {},
): () => void {
  const json = opts.json ?? !out.isTTY;
  // anvil_setLoggingEnabled on the EVM chain turns these lines off and on.
  const devnet = chains.find((c) => c.kind === 'evm')?.internals.devnet;
  let enabled = devnet?.loggingEnabled ?? true;
  const offs: (() => void)[] = [];
  if (devnet) offs.push(devnet.onLoggingChange((on) => (enabled = on)));
  const width = Math.max(...chains.map((c) => c.chainId.length));
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
  const write = (chainId: string, kind: 'tx' | 'block', line: TxLine | BlockLine, text: string) => {
    if (!enabled) return;
    pending += json ? `${JSON.stringify({ time: new Date().toISOString(), chain: chainId, event: kind, ...line })}\n` : `${chainId.padEnd(width)}  ${text}\n`;
    scheduled ??= setImmediate(flush);
  };
  for (const c of chains) {
    if (c.kind === 'svm') {
      offs.push(
        c.ledger.onTransaction((r) => {
          const l = svmTxLine(r);
          write(c.chainId, 'tx', l, formatTxLine(l));
        }),
      );
      offs.push(
        c.ledger.onSlot((next) => {
          const slot = next - 1n;
          const info = c.ledger.slotInfo(slot);
          if (!info || info.txs === 0) return;
          const l: BlockLine = { height: Number(slot), hash: info.blockhash, txs: info.txs, gasUsed: 0, time: new Date(info.timeMs).toISOString() };
          write(c.chainId, 'block', l, formatBlockLine(l));
        }),
      );
      continue;
    }
    const txs = c.subscribe("tm.event = 'Tx'", 'cli-activity-log');
    const blocks = c.subscribe("tm.event = 'NewBlock'", 'cli-activity-log');
    // Blocks are published before their txs; the block line comes first, its txs under it.
    blocks.setListener((m) => {
      const l = blockLine(m);
      if (l) write(c.chainId, 'block', l, formatBlockLine(l));
    });
    txs.setListener((m) => {
      const l = txLine(m);
      if (l) write(c.chainId, 'tx', l, formatTxLine(l));
    });
    offs.push(() => {
      txs.cancel();
      blocks.cancel();
    });
  }
  return () => {
    for (const off of offs.splice(0)) off();
    if (scheduled !== undefined) clearImmediate(scheduled);
    flush();
  };
}
