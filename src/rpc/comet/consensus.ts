/**
 * validators, consensus_params, consensus_state and dump_consensus_state (rpc/core/consensus.go).
 *
 * The two state dumps describe the engine between heights (step NewHeight, round 0, no votes
 * yet): Chainlet decides a height within one call of its engine, so there is no observable
 * mid-round state to report.
 */
import { encodeConsensusParams, encodeValidator, hex, i64, time, type ValidatorJson } from '../../codec/json/comet-json.js';
import type { Validator } from '../../types/block.js';
import type { CometEnv, RoundStateView } from './env.js';
import { NoStateForHeightError } from './errors.js';
import type { ResultConsensusParams, ResultConsensusState, ResultDumpConsensusState, ResultValidators, ValidatorSetJson } from './results.js';
import { getHeight, paginate } from './rules.js';

/** The latest validator set CometBFT knows is the one deciding the next block. */
function nextHeightOf(env: CometEnv): number {
  return env.blockStore.height() + 1;
}

/** Default height = latest + 1; paged, by voting power. More: https://docs.cometbft.com/v0.38/rpc/#/Info/validators */
export async function validators(env: CometEnv, height: number | undefined, page: number | undefined, perPage: number | undefined): Promise<ResultValidators> {
  const h = getHeight(nextHeightOf(env), env.blockStore.base(), height);
  const set = await env.stateStore.loadValidators(h);
  if (!set) throw new NoStateForHeightError('validator set', h);
  const vals = paginate(set.validators, page, perPage);
  return { block_height: i64(h), validators: vals.map(encodeValidator), count: i64(vals.length), total: i64(set.validators.length) };
}

/** More: https://docs.cometbft.com/v0.38/rpc/#/Info/consensus_params */
export async function consensusParams(env: CometEnv, height: number | undefined): Promise<ResultConsensusParams> {
  const h = getHeight(nextHeightOf(env), env.blockStore.base(), height);
  const params = await env.stateStore.loadConsensusParams(h);
  if (!params) throw new NoStateForHeightError('consensus params', h);
  return { block_height: i64(h), consensus_params: encodeConsensusParams(params) };
}

function bitArray(n: number): string {
  return `BA{${n}:${'_'.repeat(n)}}`;
}

function totalPower(vals: readonly Validator[]): number {
  return vals.reduce((s, v) => s + v.votingPower, 0);
}

/** A round's empty vote set, as HeightVoteSet.MarshalJSON prints it. */
function emptyRoundVotes(round: number, vals: readonly Validator[]): Record<string, unknown> {
  const nils = vals.map(() => 'nil-Vote');
  const summary = `${bitArray(vals.length)} 0/${totalPower(vals)} = 0.00`;
  return { round, prevotes: nils, prevotes_bit_array: summary, precommits: [...nils], precommits_bit_array: summary };
}

function validatorSetJson(vals: readonly Validator[], proposer: Validator | undefined): ValidatorSetJson {
  const encoded: ValidatorJson[] = vals.map(encodeValidator);
  return { validators: encoded, proposer: proposer ? encodeValidator(proposer) : null };
}

function proposerInfo(rs: RoundStateView): { address: string; index: number } {
  if (!rs.proposer) return { address: '', index: -1 };
  const address = hex(rs.proposer.address);
  return { address, index: rs.validators.findIndex((v) => hex(v.address) === address) };
}

/** More: https://docs.cometbft.com/v0.38/rpc/#/Info/consensus_state */
export function consensusState(env: CometEnv): ResultConsensusState {
  const rs = env.consensus.roundState();
  return {
    round_state: {
      'height/round/step': `${rs.height}/${rs.round}/${rs.step}`,
      start_time: time(rs.startTime),
      proposal_block_hash: '',
      locked_block_hash: '',
      valid_block_hash: '',
      height_vote_set: [emptyRoundVotes(rs.round, rs.validators)],
      proposer: proposerInfo(rs),
    },
  };
}

/** More: https://docs.cometbft.com/v0.38/rpc/#/Info/dump_consensus_state */
export function dumpConsensusState(env: CometEnv): ResultDumpConsensusState {
  const rs = env.consensus.roundState();
  return {
    round_state: {
      height: i64(rs.height),
      round: rs.round,
      step: rs.step,
      start_time: time(rs.startTime),
      commit_time: time(rs.startTime),
      validators: validatorSetJson(rs.validators, rs.proposer),
      proposal: null,
      proposal_block: null,
      proposal_block_parts: null,
      locked_round: -1,
      locked_block: null,
      locked_block_parts: null,
      valid_round: -1,
      valid_block: null,
      valid_block_parts: null,
      votes: [emptyRoundVotes(rs.round, rs.validators)],
      commit_round: -1,
      last_commit: null,
      last_validators: validatorSetJson(rs.lastValidators, undefined),
      triggered_timeout_precommit: false,
    },
    peers: [],
  };
}
