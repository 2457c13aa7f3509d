/**
 * Mining many empty blocks at once (anvil_mine / hardhat_mine / evm_mine with a count): one
 * EmptyRange is computed (real hashes and signatures, see empty-range.ts) and recorded as a
 * single db entry; then the head moves in every part, as applyBlock would have moved it:
 *
 *   range entry → block store height → state store (state, indexed height) → app meta
 *   → BLOCKHASH hashes → consensus head and clock → events (only if someone listens)
 *
 * Runs inside `consensus.exclusive`; the mempool must have no executable tx (the caller mines
 * those blocks the normal way first).
 */
import { committedRoot } from '../../app/app-reload.js';
import { blockGasLimit, nextBaseFee } from '../../app/fee-market.js';
import { fromHex, toPrefixedHex as hex } from '../../crypto/encoding.js';
import { compareTime, timestampFromMs, timestampToMs, type Timestamp } from '../../types/time.js';
import { buildEmptyRange, RANGE_CHUNK_BLOCKS, rangeBlockId, rangeTime, type EmptyRange } from './empty-range.js';
import { appOf, type DevnetParts } from './parts.js';
import { addRangeBlockHashes } from './reload.js';
import { rangeBlock, rangeBlockRecord, rangeCommit, rangeFinalizeResponse } from './range-synthesis.js';

export interface EmptyBlocksOptions {
  /** Time of the first block (else the next-block time set, else the clock). */
  timestamp?: Timestamp;
  /** Between consecutive blocks; default 1 s (as hardhat_mine). */
  intervalMs?: number;
  /** True once the node is stopping: the range stops at its next chunk. */
  cancelled?: () => boolean;
}

const ZERO_HASH = new Uint8Array(32);

/** Mines `count` empty blocks as one range; returns it. */
export async function mineEmptyRange(parts: DevnetParts, count: number, opts: EmptyBlocksOptions = {}): Promise<EmptyRange> {
  const { consensus, stateStore, blockStore, indexer } = parts;
  const app = appOf(parts);
  const meta = app.meta();
  if (meta === undefined) throw new Error('the app has no chain yet');
  const { state, lastCommit } = consensus.head();
  const clock = consensus.clock;
  const intervalMs = opts.intervalMs ?? 1000;

  // ── the first block's time, as the engine would pick it ──
  const wanted = opts.timestamp ?? clock.nextTime ?? timestampFromMs(Date.now() + clock.offsetMs);
  const firstTime =
    state.lastBlockHeight === 0 || compareTime(wanted, state.lastBlockTime) > 0 ? wanted : timestampFromMs(timestampToMs(state.lastBlockTime) + 1);

  const gasLimit = blockGasLimit(meta.config.maxGas);
  const minBaseFee = BigInt(meta.config.minGasPrice);
  const feeAfterEmpty = (baseFee: bigint) => nextBaseFee({ gasUsed: 0n, gasLimit, baseFee }, minBaseFee);
  const { range, after } = await buildEmptyRange({
    state,
    lastCommit,
    signers: parts.validators,
    count,
    firstTime,
    intervalMs,
    cancelled: opts.cancelled,
    evm: {
      firstBaseFee: BigInt(meta.nextBaseFee),
      nextBaseFee: feeAfterEmpty,
      gasLimit,
      coinbase: app.view.coinbaseOverride?.bytes,
      // The EVM state root (the consensus app hash also commits to the IBC store once it has entries).
      stateRoot: committedRoot(meta),
      parentHash: meta.lastBlockHash === '' ? ZERO_HASH : fromHex(meta.lastBlockHash),
    },
  });

  // ── record it and move every store's head ──
  await indexer.flush();
  await parts.ranges.add(range);
  await blockStore.advanceTo(range.to);
  await stateStore.save(after);
  await stateStore.saveIndexedHeight(range.to);
  const lastFee = range.evm.baseFees[Math.min(count, range.evm.baseFees.length) - 1]!;
  const nextMeta = {
    ...meta,
    lastHeight: range.to,
    // Empty blocks change no state: the EVM root stays (range.appHash is the consensus app hash).
    lastAppHash: meta.lastHeight > 0 ? meta.lastAppHash : meta.genesisRoot,
    lastBlockHash: hex(rangeBlockId(range, range.to).hash),
    nextBaseFee: feeAfterEmpty(lastFee).toString(),
  };
  await app.store.commit([], nextMeta);
  app.setMeta(nextMeta);
  addRangeBlockHashes(parts);

  // The clock continues after the range, as Hardhat moves its time offset past reserved blocks.
  const lastMs = timestampToMs(rangeTime(range, range.to));
  const ahead = lastMs + intervalMs - (Date.now() + clock.offsetMs);
  consensus.clock = { offsetMs: clock.offsetMs + (ahead > 0 && count > 1 ? ahead : 0), nextTime: undefined };
  consensus.resetHead(after, rangeCommit(range, range.to));
  return range;
}

/**
 * Publishes the range's blocks to those listening (event bus subscribers, EVM block listeners),
 * with a turn of the event loop every RANGE_CHUNK_BLOCKS blocks.
 */
export async function announceRange(parts: DevnetParts, range: EmptyRange): Promise<void> {
  const bus = parts.eventBus;
  const wantsBus = bus.wants('NewBlock') || bus.wants('NewBlockHeader') || bus.wants('NewBlockEvents');
  const view = appOf(parts).view;
  const onError = (e: unknown) => parts.logger.error({ err: e }, 'evm onBlock listener failed');
  for (let h = range.from; h <= range.to; h++) {
    if (h > range.from && (h - range.from) % RANGE_CHUNK_BLOCKS === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    if (wantsBus) {
      const block = rangeBlock(range, h);
      const res = rangeFinalizeResponse(range, h);
      bus.publishNewBlock({ block, blockId: rangeBlockId(range, h), resultFinalizeBlock: res });
      bus.publishNewBlockHeader({ header: block.header });
      bus.publishNewBlockEvents({ height: h, events: res.events, numTxs: 0 });
    }
    view.notifyCommitted(rangeBlockRecord(range, h), onError);
  }
}
