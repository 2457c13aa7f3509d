/**
 * Block proposal: PrepareProposal orders the mempool's txs as geth's miner does (per sender by
 * nonce, across senders by effective tip at the next base fee, earliest first on ties) within the
 * block's byte and gas limits; ProcessProposal accepts a block iff all its txs decode for this chain.
 */
import type { Common } from '@ethereumjs/common';
import type { Address } from '@ethereumjs/util';
import type { CommittedReader } from '../stores/committed-state.js';
import { TxRejectedError } from '../errors.js';
import { effectiveTip } from '../execution/fee-market.js';
import type { DecodedTxCache } from './tx-cache.js';
import { recoverSender, txGasLimit, txNonce, type DecodedCosmosTx, type DecodedTx } from '../execution/tx-decode.js';

export interface ProposalLimits {
  maxTxBytes: number;
  /** Sum of tx gas limits allowed in a block; undefined = no limit. */
  maxGas: bigint | undefined;
  baseFee: bigint;
}

interface Candidate {
  d: DecodedTx;
  arrival: number;
  tip: bigint;
}

export async function prepareTxs(
  txs: readonly Uint8Array[],
  cache: DecodedTxCache,
  common: Common,
  state: Pick<CommittedReader, 'getAccount'>,
  limits: ProposalLimits,
): Promise<Uint8Array[]> {
  // ---- decode and group by sender (undecodable or unsigned txs are dropped) ----
  const bySender = new Map<string, { address: Address; txs: Candidate[] }>();
  for (let i = 0; i < txs.length; i++) {
    let d: DecodedTx;
    try {
      d = cache.decode(txs[i]!, common);
      recoverSender(d);
    } catch (e) {
      if (e instanceof TxRejectedError) continue;
      throw e;
    }
    const key = d.senderHex!;
    let group = bySender.get(key);
    if (group === undefined) bySender.set(key, (group = { address: d.sender!, txs: [] }));
    group.txs.push({ d, arrival: i, tip: d.kind === 'eth' ? effectiveTip(d.tx, limits.baseFee) : cosmosTip(d, limits.baseFee) });
  }

  // ---- per sender: the run of consecutive nonces from the state nonce ----
  const queues: Candidate[][] = [];
  for (const { address, txs: group } of bySender.values()) {
    group.sort((a, b) => (txNonce(a.d) < txNonce(b.d) ? -1 : txNonce(a.d) > txNonce(b.d) ? 1 : a.arrival - b.arrival));
    let next = (await state.getAccount(address))?.nonce ?? 0n;
    const run: Candidate[] = [];
    for (const c of group) {
      if (txNonce(c.d) !== next) continue; // stale, duplicate nonce or gap
      run.push(c);
      next++;
    }
    if (run.length > 0) queues.push(run.reverse()); // pop() takes the lowest nonce
  }

  // ---- across senders: highest tip first, within limits ----
  const heap = new CandidateHeap();
  for (let q = 0; q < queues.length; q++) heap.push(q, queues[q]![queues[q]!.length - 1]!);
  const out: Uint8Array[] = [];
  let bytes = 0;
  let gas = 0n;
  while (heap.size > 0) {
    const q = heap.pop();
    const queue = queues[q]!;
    const c = queue.pop()!;
    const size = protoSize(c.d.bytes.length);
    const fits = bytes + size <= limits.maxTxBytes && (limits.maxGas === undefined || gas + txGasLimit(c.d) <= limits.maxGas);
    if (!fits) continue; // the sender's later nonces cannot follow a skipped one
    out.push(c.d.bytes);
    bytes += size;
    gas += txGasLimit(c.d);
    if (queue.length > 0) heap.push(q, queue[queue.length - 1]!);
  }
  return out;
}

/** A Cosmos tx's tip: its fee per gas above the base fee. */
function cosmosTip(d: DecodedCosmosTx, baseFee: bigint): bigint {
  const fee = d.fee.coins.reduce((a, c) => a + c.amount, 0n);
  const perGas = d.fee.gasLimit > 0n ? fee / d.fee.gasLimit : 0n;
  return perGas > baseFee ? perGas - baseFee : 0n;
}

/** True iff every tx decodes for this chain (ProcessProposal). */
export function allTxsDecode(txs: readonly Uint8Array[], cache: DecodedTxCache, common: Common): boolean {
  for (const bytes of txs) {
    try {
      cache.decode(bytes, common);
    } catch (e) {
      if (e instanceof TxRejectedError) return false;
      throw e;
    }
  }
  return true;
}

/** Bytes a tx takes in CometBFT's Data proto (field tag, length varint, bytes). */
function protoSize(len: number): number {
  let varint = 1;
  for (let v = len; v >= 0x80; v = Math.floor(v / 0x80)) varint++;
  return 1 + varint + len;
}

/** Max-heap of queue heads by (tip desc, arrival asc). */
class CandidateHeap {
  private readonly items: { q: number; c: Candidate }[] = [];

  get size(): number {
    return this.items.length;
  }

  push(q: number, c: Candidate): void {
    const a = this.items;
    a.push({ q, c });
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(a[i]!.c, a[p]!.c)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }

  pop(): number {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && before(a[l]!.c, a[m]!.c)) m = l;
        if (r < a.length && before(a[r]!.c, a[m]!.c)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top.q;
  }
}

function before(x: Candidate, y: Candidate): boolean {
  return x.tip !== y.tip ? x.tip > y.tip : x.arrival < y.arrival;
}
