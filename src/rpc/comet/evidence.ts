/**
 * broadcast_evidence (rpc/core/evidence.go). Chainlet's validators all run in this process and
 * sign honestly, and it keeps no evidence pool: evidence is checked for shape and then refused
 * with the reason, instead of being accepted and silently dropped.
 */
import type { CometEnv } from './env.js';
import { CometHandlerError } from './errors.js';
import type { AminoJson } from './params.js';
import type { ResultBroadcastEvidence } from './results.js';

/** The evidence types CometBFT v0.38 registers for amino JSON. */
export const EVIDENCE_TYPES: readonly string[] = Object.freeze(['tendermint/DuplicateVoteEvidence', 'tendermint/LightClientAttackEvidence']);

function validateBasic(ev: AminoJson): void {
  const v = (ev.value ?? {}) as Record<string, unknown>;
  if (ev.type === 'tendermint/DuplicateVoteEvidence') {
    if (!v.vote_a || !v.vote_b) throw new CometHandlerError('evidence.ValidateBasic failed: one or both of the votes are empty');
  } else if (!v.conflicting_block) {
    throw new CometHandlerError('evidence.ValidateBasic failed: conflicting block is nil');
  }
}

/** More: https://docs.cometbft.com/v0.38/rpc/#/Evidence/broadcast_evidence */
export function broadcastEvidence(env: CometEnv, evidence: AminoJson | undefined): ResultBroadcastEvidence {
  if (!evidence) throw new CometHandlerError('no evidence was provided');
  validateBasic(evidence);
  env.logger.info({ type: evidence.type }, 'broadcast_evidence refused: no evidence pool');
  throw new CometHandlerError('failed to add evidence: this node keeps no evidence pool (all validators run in process)');
}
