/**
 * The pending txs of a mempool that lives in CometBFT, seen from the app's process: txs go in with
 * broadcast_tx_sync; the view of the pool is refreshed from `unconfirmed_txs` after each block the
 * app commits (so txs sent by others and evictions show), and the txs sent through this server are
 * added at once. EVM txs only: the others are CometBFT's business.
 */
import type { Common } from '@ethereumjs/common';
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import type { ResponseCheckTx } from '../../abci/types.js';
import { sha256 } from '../../crypto/hash.js';
import { toHex } from '../../crypto/encoding.js';
import type { MempoolContent, MempoolTx } from '../../mempool/types.js';
import type { EthTxPool, PendingTx } from '../../rpc/eth/env.js';
import type { PooledTx } from '../../rpc/routing/env.js';
import type { CometRpcClient } from './comet-client.js';

interface Entry {
  raw: Uint8Array;
  tx: TypedTransaction;
  sender: Address;
  senderHex: string;
  ethHash: Uint8Array;
  cometHash: Uint8Array;
  addedAt: number;
  seq: number;
}

export class RemoteTxPool implements EthTxPool {
  private byEth = new Map<string, Entry>();
  private byComet = new Map<string, Entry>();
  private readonly listeners = new Set<(ethHash: Uint8Array) => void>();
  private seq = 0;
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly comet: CometRpcClient,
    private readonly common: Common,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  async submit(raw: Uint8Array): Promise<ResponseCheckTx> {
    const res = await this.comet.broadcastTxSync(raw);
    if (res.code === 0) {
      const e = this.decode(raw);
      if (e) {
        this.add(e);
        for (const l of this.listeners) l(e.ethHash);
      }
    }
    return res;
  }

  pendingNonce(sender: string): bigint | undefined {
    let next: bigint | undefined;
    for (const e of this.byEth.values()) if (e.senderHex === sender.toLowerCase() && (next === undefined || e.tx.nonce + 1n > next)) next = e.tx.nonce + 1n;
    return next;
  }

  pending(ethHash: Uint8Array): PendingTx | undefined {
    const e = this.byEth.get(toHex(ethHash));
    return e && { tx: e.tx, sender: e.sender, hash: e.ethHash };
  }

  /** For the routing API: a pooled tx by either hash. */
  pooled(hash: Uint8Array): PooledTx | undefined {
    const e = this.byEth.get(toHex(hash)) ?? this.byComet.get(toHex(hash));
    return e && { tx: e.raw, cometHash: e.cometHash, ethHash: e.ethHash, sender: e.senderHex, nonce: e.tx.nonce };
  }

  onNewTx(listener: (ethHash: Uint8Array) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every pooled tx as pending: CometBFT's mempool keeps no nonce queue. */
  content(): MempoolContent {
    const pending = new Map<string, MempoolTx[]>();
    for (const e of [...this.byEth.values()].sort((a, b) => (a.tx.nonce < b.tx.nonce ? -1 : a.tx.nonce > b.tx.nonce ? 1 : 0))) {
      const list = pending.get(e.senderHex) ?? [];
      list.push({
        tx: e.raw,
        hash: e.cometHash,
        ethHash: e.ethHash,
        sender: e.senderHex,
        nonce: e.tx.nonce,
        priority: 0n,
        maxFeePerGas: 0n,
        gasWanted: Number(e.tx.gasLimit),
        addedAt: e.addedAt,
        seq: e.seq,
      });
      pending.set(e.senderHex, list);
    }
    return { pending, queued: new Map() };
  }

  /** Drops the txs a committed block carried, then re-reads CometBFT's mempool. */
  afterBlock(ethHashes: readonly Uint8Array[]): Promise<void> {
    for (const h of ethHashes) {
      const e = this.byEth.get(toHex(h));
      if (e) this.remove(e);
    }
    this.refreshing ??= this.refresh().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async refresh(): Promise<void> {
    let txs: Uint8Array[];
    try {
      txs = await this.comet.unconfirmedTxs();
    } catch (err) {
      this.onError(err);
      return;
    }
    const byEth = new Map<string, Entry>();
    const byComet = new Map<string, Entry>();
    for (const raw of txs) {
      const e = this.byComet.get(toHex(sha256(raw))) ?? this.decode(raw);
      if (!e) continue;
      byEth.set(toHex(e.ethHash), e);
      byComet.set(toHex(e.cometHash), e);
    }
    this.byEth = byEth;
    this.byComet = byComet;
  }

  private add(e: Entry): void {
    this.byEth.set(toHex(e.ethHash), e);
    this.byComet.set(toHex(e.cometHash), e);
  }

  private remove(e: Entry): void {
    this.byEth.delete(toHex(e.ethHash));
    this.byComet.delete(toHex(e.cometHash));
  }

  private decode(raw: Uint8Array): Entry | undefined {
    try {
      const tx = createTxFromRLP(raw, { common: this.common });
      const sender = tx.getSenderAddress();
      return { raw, tx, sender, senderHex: sender.toString(), ethHash: tx.hash(), cometHash: sha256(raw), addedAt: Date.now(), seq: ++this.seq };
    } catch {
      return undefined;
    }
  }
}
