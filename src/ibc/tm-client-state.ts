/** 07-tendermint client and consensus states as a relayer creates them (ibc-go's defaults), as Any. */
import { exactSizeBuffers } from '../codec/cosmjs-types.js';
import type { Any } from 'cosmjs-types/google/protobuf/any';
import { ClientState, ConsensusState } from 'cosmjs-types/ibc/lightclients/tendermint/v1/tendermint';
import type { Header } from '../types/block.js';
import type { Timestamp } from '../types/time.js';
import { timestampProto } from './tm-header-codec.js';

exactSizeBuffers();

export const TM_CLIENT_STATE_TYPE_URL = '/ibc.lightclients.tendermint.v1.ClientState';
export const TM_CONSENSUS_STATE_TYPE_URL = '/ibc.lightclients.tendermint.v1.ConsensusState';

/** Default trust level of ibc-go / relayers: more than 1/3 of the trusted power must sign a changed set. */
export const TRUST_LEVEL = { numerator: 1n, denominator: 3n };
const DAY_SECONDS = 24n * 60n * 60n;

export interface TmConsensusState {
  timestamp: Timestamp;
  /** The header's app hash (the commitment root proofs verify against). */
  root: Uint8Array;
  nextValidatorsHash: Uint8Array;
}

/** ibc-go clienttypes.ParseChainID: the N of a `name-N` chain id (N without a leading 0), else 0. */
export function parseChainIdRevision(chainId: string): bigint {
  const m = /^.*[^\n-]-([1-9][0-9]*)$/.exec(chainId);
  return m ? BigInt(m[1]!) : 0n;
}

/** An ibc-go-default ClientState (trust 1/3, trusting 14 days, unbonding 21 days, drift 10 s), as Any. */
export function clientStateOf(chainId: string, height: bigint): Any {
  const cs: ClientState = {
    chainId,
    trustLevel: { numerator: TRUST_LEVEL.numerator, denominator: TRUST_LEVEL.denominator },
    trustingPeriod: { seconds: 14n * DAY_SECONDS, nanos: 0 },
    unbondingPeriod: { seconds: 21n * DAY_SECONDS, nanos: 0 },
    maxClockDrift: { seconds: 10n, nanos: 0 },
    frozenHeight: { revisionNumber: 0n, revisionHeight: 0n },
    latestHeight: { revisionNumber: parseChainIdRevision(chainId), revisionHeight: height },
    proofSpecs: [],
    upgradePath: ['upgrade', 'upgradedIBCState'],
    allowUpdateAfterExpiry: false,
    allowUpdateAfterMisbehaviour: false,
  };
  return { typeUrl: TM_CLIENT_STATE_TYPE_URL, value: ClientState.encode(cs).finish() };
}

/** The ConsensusState (time, app hash root, next validators hash) of a header or of verifyTmHeader's result, as Any. */
export function consensusStateOf(src: Header | TmConsensusState): Any {
  const s: TmConsensusState = 'appHash' in src ? { timestamp: src.time, root: src.appHash, nextValidatorsHash: src.nextValidatorsHash } : src;
  const cs: ConsensusState = { timestamp: timestampProto(s.timestamp), root: { hash: s.root }, nextValidatorsHash: s.nextValidatorsHash };
  return { typeUrl: TM_CONSENSUS_STATE_TYPE_URL, value: ConsensusState.encode(cs).finish() };
}
