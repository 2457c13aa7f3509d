/**
 * net namespace, and the eth methods that describe the node rather than the chain. One process
 * is the whole network: always listening, no peers, never syncing.
 */
import type { EthEnv } from './env.js';
import { quantity } from './hex.js';

/** Handler for `net_version`: the EVM chain id as a decimal string. */
export function version(env: EthEnv): string {
  return env.chainId.toString(10);
}

/** Handler for `net_listening`. */
export function listening(): boolean {
  return true;
}

/** Handler for `net_peerCount`: a JSON number, as Cosmos EVM answers (not a hex quantity). */
export function peerCount(): number {
  return 0;
}

/** Handler for `eth_chainId`. */
export function chainId(env: EthEnv): string {
  return quantity(env.chainId);
}

/** Handler for `eth_syncing`: the node is always at its own head. */
export function syncing(): boolean {
  return false;
}

/** Handler for `eth_protocolVersion`: eth/65, as Cosmos EVM reports. */
export function protocolVersion(): string {
  return quantity(65);
}
