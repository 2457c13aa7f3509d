/** Consensus parameters (CometBFT v0.38 `types.ConsensusParams`). */
export interface ConsensusParams {
  block: { maxBytes: number; maxGas: number };
  evidence: { maxAgeNumBlocks: number; maxAgeDurationNs: bigint; maxBytes: number };
  validator: { pubKeyTypes: string[] };
  version: { app: number };
  abci: { voteExtensionsEnableHeight: number };
}

export function defaultConsensusParams(): ConsensusParams {
  return {
    block: { maxBytes: 22_020_096, maxGas: -1 },
    evidence: { maxAgeNumBlocks: 100_000, maxAgeDurationNs: 172_800_000_000_000n, maxBytes: 1_048_576 },
    validator: { pubKeyTypes: ['ed25519'] },
    version: { app: 0 },
    abci: { voteExtensionsEnableHeight: 0 },
  };
}
