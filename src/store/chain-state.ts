/**
 * The consensus-side chain state between heights (CometBFT's state.State): who validates the next
 * block, with which parameters, and the hashes the next header must carry.
 */
import type { ResponseFinalizeBlock } from '../abci/types.js';
import type { GenesisDoc } from '../genesis/genesis-doc.js';
import { EMPTY_BLOCK_ID, type BlockID, type Header } from '../types/block.js';
import type { ConsensusParams } from '../types/params.js';
import { lastResultsHash } from '../types/results.js';
import type { Timestamp } from '../types/time.js';
import { ValidatorSet } from '../types/validator-set.js';

export interface ChainState {
  chainId: string;
  initialHeight: number;
  lastBlockHeight: number;
  lastBlockId: BlockID;
  lastBlockTime: Timestamp;
  /** Validators of height lastBlockHeight+1. */
  validators: ValidatorSet;
  nextValidators: ValidatorSet;
  /** Validators of lastBlockHeight (signers of the LastCommit); empty at genesis. */
  lastValidators: ValidatorSet | undefined;
  lastHeightValidatorsChanged: number;
  consensusParams: ConsensusParams;
  lastHeightConsensusParamsChanged: number;
  lastResultsHash: Uint8Array;
  appHash: Uint8Array;
}

export function stateFromGenesis(g: GenesisDoc): ChainState {
  const validators = ValidatorSet.fromUpdates(g.validators.map((v) => ({ pubKey: v.pubKey, power: v.power })));
  return {
    chainId: g.chainId,
    initialHeight: g.initialHeight,
    lastBlockHeight: 0,
    lastBlockId: EMPTY_BLOCK_ID,
    lastBlockTime: g.genesisTime,
    validators,
    nextValidators: validators.copyIncrementProposerPriority(1),
    lastValidators: undefined,
    lastHeightValidatorsChanged: g.initialHeight,
    consensusParams: g.consensusParams,
    lastHeightConsensusParamsChanged: g.initialHeight,
    lastResultsHash: new Uint8Array(0),
    appHash: g.appHash,
  };
}

/** The height the next block will have. */
export function nextHeight(s: ChainState): number {
  return s.lastBlockHeight === 0 ? s.initialHeight : s.lastBlockHeight + 1;
}

/**
 * The state after applying block `header` (CometBFT's updateState). Validator updates from the app
 * are applied to the set two heights ahead (power 0 removes a validator).
 */
export function updateState(s: ChainState, header: Header, blockId: BlockID, res: ResponseFinalizeBlock): ChainState {
  let nValSet = s.nextValidators.copy();
  let lastHeightValsChanged = s.lastHeightValidatorsChanged;
  if (res.validatorUpdates.length > 0) {
    nValSet = nValSet.withUpdates(res.validatorUpdates);
    lastHeightValsChanged = header.height + 1 + 1;
  }
  nValSet.incrementProposerPriority(1);
  let params = s.consensusParams;
  let lastHeightParamsChanged = s.lastHeightConsensusParamsChanged;
  if (res.consensusParamUpdates) {
    params = res.consensusParamUpdates;
    lastHeightParamsChanged = header.height + 1;
  }
  return {
    ...s,
    lastBlockHeight: header.height,
    lastBlockId: blockId,
    lastBlockTime: header.time,
    validators: s.nextValidators.copy(),
    nextValidators: nValSet,
    lastValidators: s.validators.copy(),
    lastHeightValidatorsChanged: lastHeightValsChanged,
    consensusParams: params,
    lastHeightConsensusParamsChanged: lastHeightParamsChanged,
    lastResultsHash: lastResultsHash(res.txResults),
    appHash: res.appHash,
  };
}
