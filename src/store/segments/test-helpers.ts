/** Test fixtures for the segment stores: a segment with only what the stores read. */
import type { ResponseFinalizeBlock } from '../../abci/types.js';
import type { EmptySegment } from './empty-segment.js';

const ZERO_BLOCK_ID = { hash: new Uint8Array(32), partSetHeader: { total: 0, hash: new Uint8Array(0) } };

/** A segment of `count` blocks from `from` with one validator; `hashOf` gives each block's hash (default: its height in the first byte). */
export function testSegment(
  from: number,
  count: number,
  opts: { hashOf?: (height: number) => Uint8Array; results?: ResponseFinalizeBlock[] } = {},
): EmptySegment {
  const hashes = new Uint8Array(count * 32);
  for (let i = 0; i < count; i++) {
    if (opts.hashOf) hashes.set(opts.hashOf(from + i), i * 32);
    else hashes[i * 32] = from + i;
  }
  return {
    from,
    to: from + count - 1,
    chainId: 'test-1',
    appVersion: 1,
    validators: [{ address: new Uint8Array(20).fill(1), pubKey: new Uint8Array(32), votingPower: 10, proposerPriority: 0 }],
    proposers: undefined,
    priorities: undefined,
    consensusParams: undefined as never,
    validatorsHash: new Uint8Array(32),
    appHash: new Uint8Array(32),
    firstLastResultsHash: new Uint8Array(32),
    prevBlockId: ZERO_BLOCK_ID,
    prevCommit: { height: from - 1, round: 0, blockId: ZERO_BLOCK_ID, signatures: [] },
    firstTimeMs: 1_700_000_000_000,
    intervalMs: 1000,
    hashes,
    partHashes: new Uint8Array(count * 32),
    sizes: new Uint32Array(count).fill(200),
    signatures: new Uint8Array(count * 64),
    results: opts.results ?? [{ events: [], txResults: [], validatorUpdates: [], appHash: new Uint8Array(32) }],
    app: undefined,
  };
}
