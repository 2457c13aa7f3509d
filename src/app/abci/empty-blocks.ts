/** The EVM app's part of an empty segment (stores/empty-segments.ts), from and onto its meta. */
import { toPrefixedHex as hex } from '../../crypto/encoding.js';
import { segmentBlockId, type EmptySegment } from '../../store/segments/empty-segment.js';
import { blockGasLimit, nextBaseFee } from '../execution/fee-market.js';
import type { AppMeta } from '../stores/app-store.js';
import { lastBaseFee, prepareEmptyBlocks } from '../stores/empty-segments.js';
import { committedRoot, metaAppHash, parentHashOf } from './evm-stores.js';

/** Base fees, FinalizeBlock responses and the EVM record of `count` empty blocks after the meta's last one. */
export function emptyBlocksAfter(meta: AppMeta, count: number, coinbase: Uint8Array | undefined): ReturnType<typeof prepareEmptyBlocks> {
  const gasLimit = blockGasLimit(meta.config.maxGas);
  const minBaseFee = BigInt(meta.config.minGasPrice);
  const root = committedRoot(meta);
  return prepareEmptyBlocks({
    count,
    firstBaseFee: BigInt(meta.nextBaseFee),
    nextBaseFee: (baseFee) => nextBaseFee({ gasUsed: 0n, gasLimit, baseFee }, minBaseFee),
    gasLimit,
    coinbase,
    stateRoot: root,
    parentHash: parentHashOf(meta),
    appHash: metaAppHash(meta, root),
  });
}

/** The meta after a committed segment: at its last block, the state (and so the EVM root) unchanged. */
export function metaAfterSegment(meta: AppMeta, segment: EmptySegment): AppMeta {
  const gasLimit = blockGasLimit(meta.config.maxGas);
  return {
    ...meta,
    lastHeight: segment.to,
    // Empty blocks change no state: the EVM root stays.
    lastAppHash: meta.lastHeight > 0 ? meta.lastAppHash : meta.genesisRoot,
    lastBlockHash: hex(segmentBlockId(segment, segment.to).hash),
    nextBaseFee: nextBaseFee({ gasUsed: 0n, gasLimit, baseFee: lastBaseFee(segment) }, BigInt(meta.config.minGasPrice)).toString(),
  };
}
