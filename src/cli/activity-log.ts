/**
 * One line per tx and per block of every chain of the network while `chainlet start` runs, as
 * `anvil` and `hardhat node` print, each naming its chain: readable on a terminal, one JSON object
 * per line when stdout is not a TTY (for log tools). Each chain feeds it through its `activity`
 * capability (src/chains: a CometBFT-style chain from its event bus, the SVM chain from its ledger).
 */
import type { ActivityBlockLine as BlockLine, ActivityTxLine as TxLine, Chain } from '../chains/types.js';

export type { BlockLine, TxLine };

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
  chains: readonly Chain[],
  out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout,
  opts: ActivityLogOptions = {},
): () => void {
  const json = opts.json ?? !out.isTTY;
  // anvil_setLoggingEnabled (a chain's logging switch) turns these lines off and on.
  const logging = chains.find((c) => c.capabilities.logging)?.capabilities.logging;
  let enabled = logging?.enabled ?? true;
  const offs: (() => void)[] = [];
  if (logging) offs.push(logging.onChange((on) => (enabled = on)));
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
    const feed = c.capabilities.activity;
    if (feed) offs.push(feed((e) => write(c.chainId, e.event, e.line, e.event === 'tx' ? formatTxLine(e.line) : formatBlockLine(e.line))));
  }
  return () => {
    for (const off of offs.splice(0)) off();
    if (scheduled !== undefined) clearImmediate(scheduled);
    flush();
  };
}
