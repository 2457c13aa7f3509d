/**
 * Header `last_results_hash`: merkle root over the deterministic part of each ExecTxResult
 * (code, data, gas_wanted, gas_used); logs, events and codespace do not enter consensus.
 */
import type { ExecTxResult } from '../abci/types.js';
import { merkleRoot } from '../crypto/merkle.js';
import { encodeDeterministicExecTxResult } from '../codec/proto.js';

export function lastResultsHash(results: readonly ExecTxResult[]): Uint8Array {
  return merkleRoot(results.map(encodeDeterministicExecTxResult));
}
