/** What the Solana JSON-RPC methods see of the chain. */
import type { SvmLedger } from '../../svm/ledger.js';

export interface SolanaEnv {
  ledger: SvmLedger;
  /** solana-core version reported by getVersion. */
  version: string;
  featureSet: number;
  /** Max lamports per requestAirdrop (solana-test-validator's faucet: unlimited by default here). */
  maxAirdropLamports: bigint;
  /** The validator's identity (getIdentity, getClusterNodes); a fixed key when absent. */
  identity?: string;
  /** host:port of the JSON-RPC and its WebSocket, once listening (getClusterNodes). */
  endpoints?: { rpc?: string; pubsub?: string };
}
