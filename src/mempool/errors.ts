/**
 * Mempool errors. The texts of the three admission errors are CometBFT's (mempool/errors.go), since
 * the node RPC returns them verbatim as JSON-RPC -32603 messages.
 */

/** Codespace of the non-zero codes the mempool itself puts in a ResponseCheckTx. */
export const MEMPOOL_CODESPACE = 'mempool';

/** A same-sender, same-nonce tx did not raise both fee fields by the required bump. */
export const CODE_REPLACEMENT_UNDERPRICED = 1;

/** geth's text for the above, so EVM clients (viem's node-error regexes) recognise it. */
export const REPLACEMENT_UNDERPRICED_LOG = 'replacement transaction underpriced';

/** A queued tx beyond its sender's queued cap (`accountQueue`), further than all its queued txs. */
export const CODE_ACCOUNT_LIMIT_EXCEEDED = 2;

/** geth's text for the above (core/txpool ErrAccountLimitExceeded). */
export const ACCOUNT_LIMIT_EXCEEDED_LOG = 'account limit exceeded';

/** A queued tx beyond the cap on all queued txs (`globalQueue`), the one the eviction rule picks. */
export const CODE_TXPOOL_FULL = 3;

/** geth's text for the above (legacypool ErrTxPoolOverflow). */
export const TXPOOL_FULL_LOG = 'txpool is full';

export abstract class MempoolError extends Error {
  /** The protocol-fixed text (equal to `message`); hints, if any, go to logs only. */
  readonly shortMessage: string;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
    this.shortMessage = message;
  }
}

export class TxTooLargeError extends MempoolError {
  readonly max: number;
  readonly actual: number;

  constructor(args: { max: number; actual: number }) {
    super(`Tx too large. Max size is ${args.max}, but got ${args.actual}`);
    this.max = args.max;
    this.actual = args.actual;
  }
}

export class MempoolFullError extends MempoolError {
  readonly numTxs: number;
  readonly maxTxs: number;
  readonly txsBytes: number;
  readonly maxTxsBytes: number;

  constructor(args: { numTxs: number; maxTxs: number; txsBytes: number; maxTxsBytes: number }) {
    super(`mempool is full: number of txs ${args.numTxs} (max: ${args.maxTxs}), ` + `total txs bytes ${args.txsBytes} (max: ${args.maxTxsBytes})`);
    this.numTxs = args.numTxs;
    this.maxTxs = args.maxTxs;
    this.txsBytes = args.txsBytes;
    this.maxTxsBytes = args.maxTxsBytes;
  }
}

export class TxInCacheError extends MempoolError {
  constructor() {
    super('tx already exists in cache');
  }
}

/** `update()` was called without holding `lock()`: a bug in the caller, never a user error. */
export class MempoolNotLockedError extends MempoolError {
  constructor() {
    super('mempool update called without holding the mempool lock');
  }
}
