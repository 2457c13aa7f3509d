/**
 * Header `last_results_hash`: merkle root over the deterministic part of each ExecTxResult
 * (code, data, gas_wanted, gas_used); logs, events and codespace do not enter consensus.
 */
import { merkleRoot } from '../crypto/merkle.js';
import { encodeDeterministicExecTxResult, type DeterministicExecTxResult } from './proto.js';

/** Takes ABCI ExecTxResults (or anything with their four consensus fields). */
export function lastResultsHash(results: readonly DeterministicExecTxResult[]): Uint8Array {
  return merkleRoot(results.map(encodeDeterministicExecTxResult));
}
