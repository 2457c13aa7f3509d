/** The IAVL tree's errors (their texts follow cosmos/iavl's where it has one). */
import { toHex } from '../../crypto/encoding.js';

/** A version that was never committed or is pruned (iavl `ErrVersionDoesNotExist`). */
export class IavlVersionError extends Error {
  constructor(
    readonly version: number,
    readonly latest: number,
  ) {
    super(`version does not exist: ${version} (latest: ${latest})`);
    this.name = 'IavlVersionError';
  }
}

/** A proof asked for the wrong case (existence of an absent key, absence of a present one). */
export class IavlProofError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IavlProofError';
  }
}

/** The node db lacks a node a kept version needs. */
export class IavlMissingNodeError extends Error {
  constructor(hash: Uint8Array) {
    super(`iavl: node ${toHex(hash)} is missing from the node db`);
    this.name = 'IavlMissingNodeError';
  }
}
