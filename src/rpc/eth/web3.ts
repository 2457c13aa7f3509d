/** web3 namespace: client version and Keccak-256. */
import { keccak256 } from '../../crypto/keccak.js';
import type { EthEnv } from './env.js';
import { data } from './hex.js';

/** Handler for `web3_clientVersion`. */
export function clientVersion(env: EthEnv): string {
  return env.clientVersion;
}

/** Handler for `web3_sha3`: Keccak-256 (not SHA3-256) of the given bytes. */
export function sha3(_env: EthEnv, [input]: [Uint8Array]): string {
  return data(keccak256(input));
}
