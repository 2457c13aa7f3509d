/**
 * Errors of devnet control. Texts that clients match on follow Hardhat / Anvil where they have
 * one (e.g. the timestamp error of evm_setNextBlockTimestamp).
 */

import { DevnetError } from '../rpc/eth/namespaces/service-errors.js';

export { DevnetError };

/** evm_setNextBlockTimestamp / evm_mine with a timestamp not after the latest block. */
export class TimestampTooLowError extends DevnetError {
  override name = 'TimestampTooLowError';
  constructor(
    readonly timestamp: number,
    readonly latest: number,
  ) {
    super(`Timestamp ${timestamp} is lower than or equal to previous block's timestamp ${latest}`);
  }
}

/** loadState of a dump that is not a Chainlet dump of this chain. */
export class InvalidStateDumpError extends DevnetError {
  override name = 'InvalidStateDumpError';
  constructor(readonly detail: string) {
    super(`invalid state dump: ${detail}`);
  }
}

/** A devnet operation on a node that is stopping or stopped. */
export class DevnetStoppedError extends DevnetError {
  override name = 'DevnetStoppedError';
  constructor() {
    super('the node is stopped');
  }
}

/**
 * A mine call asking for more blocks than `[evm] max-mine-blocks` (a RangeError: -32602). Every
 * block of a segment is signed by every validator, so a count has a cost in time and memory.
 */
export class MineLimitError extends RangeError {
  override name = 'MineLimitError';
  constructor(
    readonly count: number,
    readonly max: number,
  ) {
    super(`block count ${count} is above the limit of ${max} blocks a call ([evm] max-mine-blocks, --evm.max-mine-blocks)`);
  }
}
