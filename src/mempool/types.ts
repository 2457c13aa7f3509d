/** Shapes shared by the mempool's modules and its callers. */

/** The `[mempool]` section of config.toml, in its CometBFT v0.38 meaning. */
export interface MempoolConfig {
  /** Max number of txs (pending + queued). */
  size: number;
  /** Max total bytes of all txs. */
  maxTxsBytes: number;
  /** Max bytes of one tx. */
  maxTxBytes: number;
  /** Seen-tx LRU cache size; 0 disables the cache. */
  cacheSize: number;
  /** Recheck the remaining txs with CheckTx{Recheck} after every block. */
  recheck: boolean;
  /** Keep txs the app rejected in the cache, so they are not checked again. */
  keepInvalidTxsInCache?: boolean;
  /** Max queued (nonce-gapped) txs of one sender: geth's `txpool.accountqueue`. */
  accountQueue?: number;
  /** Max queued txs of all senders: geth's `txpool.globalqueue`. */
  globalQueue?: number;
}

export const DEFAULT_MEMPOOL_CONFIG: Readonly<MempoolConfig> = Object.freeze({
  size: 5000,
  maxTxsBytes: 1_073_741_824,
  maxTxBytes: 1_048_576,
  cacheSize: 10_000,
  recheck: true,
  keepInvalidTxsInCache: false,
  accountQueue: 64,
  globalQueue: 1024,
});

/** One admitted tx, with what the app's CheckTx said about it. */
export interface MempoolTx {
  readonly tx: Uint8Array;
  /** sha256 of the tx bytes (the CometBFT tx hash and mempool key). */
  readonly hash: Uint8Array;
  /** keccak-256 of the envelope, for EVM txs. */
  readonly ethHash?: Uint8Array;
  /**
   * Lower-case 0x sender for EVM txs. A tx whose CheckTx gave no sender/nonce is its own sender,
   * keyed `NON_EVM_SENDER_PREFIX + hash hex`, with nonce 0: always executable, FIFO.
   */
  readonly sender: string;
  readonly nonce: bigint;
  /** Cross-sender order (effective tip); refreshed by each recheck. */
  priority: bigint;
  /** Used for the same-nonce replacement rule; refreshed by each recheck. */
  maxFeePerGas: bigint;
  /** From CheckTx; refreshed by each recheck. Counts against the block's max gas. */
  gasWanted: number;
  /** Wall-clock admission time, ms since the epoch (informational). */
  readonly addedAt: number;
  /** Admission sequence number: breaks priority ties first-come first-served. */
  readonly seq: number;
}

/** Prefix of the pseudo-sender of a tx that has no EVM sender. */
export const NON_EVM_SENDER_PREFIX = 'tx:';

export function isEvmSender(sender: string): boolean {
  return !sender.startsWith(NON_EVM_SENDER_PREFIX);
}

/** What txpool_content shows: per sender, in nonce order. */
export interface MempoolContent {
  /** Executable now: contiguous nonces from the sender's state nonce. */
  pending: Map<string, MempoolTx[]>;
  /** Held back behind a nonce gap. */
  queued: Map<string, MempoolTx[]>;
}
