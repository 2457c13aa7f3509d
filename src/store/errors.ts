/**
 * Errors of the block store and the indexers. Texts follow CometBFT (store/store.go,
 * state/txindex/kv, state/indexer/block/kv) where it fixes them.
 */

export abstract class StoreError extends Error {
  readonly shortMessage: string;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
    this.shortMessage = message;
  }
}

export class NonContiguousBlockError extends StoreError {
  readonly wanted: number;
  readonly got: number;

  constructor(args: { wanted: number; got: number }) {
    super(`BlockStore can only save contiguous blocks. Wanted ${args.wanted}, got ${args.got}`);
    this.wanted = args.wanted;
    this.got = args.got;
  }
}

export class SeenCommitMismatchError extends StoreError {
  readonly blockHeight: number;
  readonly commitHeight: number;

  constructor(args: { blockHeight: number; commitHeight: number }) {
    super(`seen commit is for height ${args.commitHeight}, but the block is at height ${args.blockHeight}`);
    this.blockHeight = args.blockHeight;
    this.commitHeight = args.commitHeight;
  }
}

/** An app event whose `type.key` collides with a key the indexer reserves (tx.hash, tx.height, block.height). */
export class ReservedEventKeyError extends StoreError {
  readonly key: string;

  constructor(args: { key: string }) {
    super(`event type and attribute key "${args.key}" is reserved; please use a different key`);
    this.key = args.key;
  }
}

/** A `tx.hash = '…'` condition whose argument is not hex. */
export class InvalidHashQueryError extends StoreError {
  readonly value: string;

  constructor(args: { value: string }) {
    super(`error during searching for a hash in the query: invalid hex string "${args.value}"`);
    this.value = args.value;
  }
}

/**
 * A block's index write failed. The indexes stop at the block before: every later read gets this
 * error rather than a stale answer, and the node stops producing blocks (CometBFT stops on a failed
 * store). A restart re-indexes from the last indexed height.
 */
export class IndexingFailedError extends StoreError {
  readonly height: number;

  constructor(args: { height: number; cause: unknown }) {
    const reason = args.cause instanceof Error ? args.cause.message : String(args.cause);
    super(`indexing block ${args.height} failed: ${reason}; the tx and block indexes stop at height ${args.height - 1} (restart the node to re-index)`);
    this.height = args.height;
    this.cause = args.cause;
  }
}

/** A database with empty-block ranges in the layout before empty segments (sublevel `devnet`), which this version does not read. */
export class LegacyRangesError extends StoreError {
  constructor() {
    super(
      'this database holds empty-block ranges written by an earlier Chainlet (sublevel "devnet"); empty segments now live in the block store and the old ranges cannot be read: start from a fresh home (chainlet init --home <dir>) or a fresh in-memory chain',
    );
  }
}
