/**
 * The ABCI handshake at start (CometBFT's consensus/replay.go): ask the app where it is (`Info`),
 * run `InitChain` on a fresh chain, then replay stored blocks the app has not executed, so a node
 * killed mid-production resumes at its last committed height with the same app hash.
 *
 *   app height == store height == state height       nothing to do
 *   app height <  store height                       replay blocks app+1 … store through the app
 *   app height == store height == state height + 1   app committed, state not saved: rebuild the
 *                                                    state from the saved FinalizeBlock response
 *   store ends with an empty segment after the state  finish its commit (the app's part if missing,
 *                                                    then the state), as the block executor does
 */
import type { Logger } from 'pino';
import type { Application } from '../abci/application.js';
import { toHexUpper } from '../crypto/encoding.js';
import type { GenesisDoc } from '../genesis/genesis-doc.js';
import type { BlockStore } from '../store/block-store.js';
import type { SegmentReader } from '../store/segments/empty-segment.js';
import type { StateStore } from '../store/state-store.js';
import type { Commit } from '../types/block.js';
import { stateFromGenesis, type ChainState } from '../store/chain-state.js';
import type { BlockExecutor } from './block-executor.js';
import { stateAfterSegment } from './empty-segment.js';
import { ConsensusError } from './errors.js';
import { startProgress } from '../util/progress.js';

/** A replay of at least this many blocks logs its progress. */
const REPLAY_PROGRESS_MIN = 100;

export interface HandshakeDeps {
  app: Application;
  executor: BlockExecutor;
  blockStore: BlockStore;
  stateStore: StateStore;
  /** The block store's empty segments, if it keeps any. */
  segments?: SegmentReader;
  genesis: GenesisDoc;
  logger: Logger;
  appVersion: string;
}

export async function handshake(d: HandshakeDeps): Promise<{ state: ChainState; lastCommit: Commit | undefined }> {
  let state = (await d.stateStore.loadState()) ?? stateFromGenesis(d.genesis);
  const info = await d.app.info({ version: d.appVersion, blockVersion: 11, p2pVersion: 8, abciVersion: '2.0.0' });
  let appHeight = info.lastBlockHeight;
  // As CometBFT copies Info's app version into the state: headers carry it as version.app.
  if (state.consensusParams.version.app !== info.appVersion) {
    state = { ...state, consensusParams: { ...state.consensusParams, version: { app: info.appVersion } } };
  }
  const storeHeight = d.blockStore.height();

  if (appHeight === 0) {
    const g = d.genesis;
    const res = await d.app.initChain({
      time: g.genesisTime,
      chainId: g.chainId,
      consensusParams: g.consensusParams,
      validators: g.validators.map((v) => ({ pubKey: v.pubKey, power: v.power })),
      appStateBytes: new TextEncoder().encode(JSON.stringify(g.appState)),
      initialHeight: g.initialHeight,
    });
    if (state.lastBlockHeight === 0) {
      state = { ...state, appHash: res.appHash, consensusParams: res.consensusParams ?? state.consensusParams };
      await d.stateStore.save(state);
    }
    d.logger.debug({ appHash: toHexUpper(res.appHash) }, 'InitChain done');
  }

  if (storeHeight < state.lastBlockHeight) {
    throw new ConsensusError(`state height ${state.lastBlockHeight} is ahead of the block store height ${storeHeight}`);
  }

  // Blocks the state already includes but the app lost: re-execute them in the app only.
  const toReplay = state.lastBlockHeight - appHeight;
  const progress = toReplay >= REPLAY_PROGRESS_MIN ? startProgress(d.logger, 'replaying stored blocks through the app', toReplay) : undefined;
  const firstReplayed = appHeight;
  while (appHeight < state.lastBlockHeight) {
    const h = appHeight + 1;
    const block = await d.blockStore.loadBlock(h);
    const meta = await d.blockStore.loadBlockMeta(h);
    if (!block || !meta) throw new ConsensusError(`cannot replay: block ${h} is missing from the block store`);
    await d.app.finalizeBlock({
      txs: block.data.txs,
      decidedLastCommit: { round: block.lastCommit.round, votes: [] },
      misbehavior: [],
      hash: meta.blockId.hash,
      height: h,
      time: block.header.time,
      nextValidatorsHash: block.header.nextValidatorsHash,
      proposerAddress: block.header.proposerAddress,
    });
    await d.app.commit();
    appHeight = h;
    progress?.update(h - firstReplayed);
  }
  progress?.finish();

  // An empty segment saved last but not yet applied to the state (a crash inside its commit).
  const segment = d.segments?.find(storeHeight);
  if (segment !== undefined && segment.to === storeHeight && segment.from === state.lastBlockHeight + 1 && appHeight >= state.lastBlockHeight) {
    state = await d.executor.recoverEmptySegment(segment, stateAfterSegment(state, segment), appHeight === segment.to);
    appHeight = segment.to;
    d.logger.info({ from: segment.from, to: segment.to }, 'finished the commit of the last empty segment');
  }

  // The block saved last but not yet applied to the state.
  if (storeHeight === state.lastBlockHeight + 1) {
    const block = await d.blockStore.loadBlock(storeHeight);
    const meta = await d.blockStore.loadBlockMeta(storeHeight);
    if (!block || !meta) throw new ConsensusError(`cannot replay: block ${storeHeight} is missing from the block store`);
    if (appHeight === storeHeight) {
      const res = await d.stateStore.loadFinalizeBlockResponse(storeHeight);
      if (!res) throw new ConsensusError(`cannot recover height ${storeHeight}: the app committed it but its FinalizeBlock response is missing`);
      state = await d.executor.commitAndSave(state, meta.blockId, block, res, true);
    } else {
      state = await d.executor.applyBlock(state, meta.blockId, block);
    }
    d.logger.info({ height: storeHeight }, 'replayed the last stored block');
  }

  const finalInfo = await d.app.info({ version: d.appVersion, blockVersion: 11, p2pVersion: 8, abciVersion: '2.0.0' });
  if (finalInfo.lastBlockHeight !== state.lastBlockHeight) {
    throw new ConsensusError(`after the handshake the app is at height ${finalInfo.lastBlockHeight} but the state at ${state.lastBlockHeight}`);
  }
  if (state.lastBlockHeight > 0 && toHexUpper(finalInfo.lastBlockAppHash) !== toHexUpper(state.appHash)) {
    throw new ConsensusError(`app hash mismatch after the handshake: app ${toHexUpper(finalInfo.lastBlockAppHash)}, state ${toHexUpper(state.appHash)}`);
  }
  const lastCommit = state.lastBlockHeight > 0 ? await d.blockStore.loadSeenCommit(state.lastBlockHeight) : undefined;
  return { state, lastCommit };
}
