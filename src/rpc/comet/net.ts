/**
 * net_info, genesis, genesis_chunked and the unsafe dial_seeds / dial_peers (rpc/core/net.go).
 * Chainlet runs no p2p layer: the node listens for no peers and has none; the dial methods check
 * their input as CometBFT does and then report the dial as started, which changes nothing.
 */
import { CometHandlerError, GenesisChunkError, GenesisTooLargeError } from './errors.js';
import type { CometEnv } from './env.js';
import type { ResultDialLog, ResultGenesis, ResultGenesisChunk, ResultNetInfo } from './results.js';

/** CometBFT cuts the genesis JSON into 16 MiB chunks. */
export const GENESIS_CHUNK_SIZE = 16 * 1024 * 1024;

const chunkCache = new WeakMap<object, string[]>();

function genesisChunks(env: CometEnv): string[] {
  const key = env.genesis as object;
  let chunks = chunkCache.get(key);
  if (!chunks) {
    const bytes = Buffer.from(JSON.stringify(env.genesisJson()));
    chunks = [];
    for (let off = 0; off < bytes.length; off += GENESIS_CHUNK_SIZE) chunks.push(bytes.subarray(off, off + GENESIS_CHUNK_SIZE).toString('base64'));
    chunkCache.set(key, chunks);
  }
  return chunks;
}

/** More: https://docs.cometbft.com/v0.38/rpc/#/Info/net_info */
export function netInfo(env: CometEnv): ResultNetInfo {
  return { listening: true, listeners: [`Listener(@${env.nodeInfo.listenAddr})`], n_peers: '0', peers: [] };
}

/** More: https://docs.cometbft.com/v0.38/rpc/#/Info/genesis */
export function genesis(env: CometEnv): ResultGenesis {
  if (genesisChunks(env).length > 1) throw new GenesisTooLargeError();
  return { genesis: env.genesisJson() };
}

/** More: https://docs.cometbft.com/v0.38/rpc/#/Info/genesis_chunked */
export function genesisChunked(env: CometEnv, chunk: number): ResultGenesisChunk {
  const chunks = genesisChunks(env);
  if (chunk > chunks.length - 1) throw new GenesisChunkError(chunks.length, chunk);
  return { chunk: String(chunk), total: String(chunks.length), data: chunks[chunk]! };
}

/** p2p.NewNetAddressString's checks on `id@host:port`. */
function checkPeerAddress(addr: string): void {
  const at = addr.indexOf('@');
  if (at < 0) throw new CometHandlerError(`address (${addr}) does not contain ID`);
  const id = addr.slice(0, at);
  if (!/^[0-9a-fA-F]*$/.test(id)) throw new CometHandlerError(`invalid address (${addr}): invalid hex`);
  if (id.length !== 40) throw new CometHandlerError(`invalid address (${addr}): invalid hex length - got ${id.length}, expected 40`);
  const hostPort = addr.slice(at + 1).replace(/^[a-z]+:\/\//, '');
  const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(hostPort);
  if (!m) throw new CometHandlerError(`invalid address (${addr}): missing port in address`);
  if (Number(m[2]) > 65535) throw new CometHandlerError(`invalid address (${addr}): invalid port`);
}

/** Unsafe. More: https://docs.cometbft.com/v0.38/rpc/#/Unsafe/dial_seeds */
export function dialSeeds(env: CometEnv, seeds: string[]): ResultDialLog {
  if (seeds.length === 0) throw new CometHandlerError('no seeds provided');
  seeds.forEach(checkPeerAddress);
  env.logger.info({ seeds }, 'DialSeeds (no p2p layer: nothing is dialled)');
  return { log: 'Dialing seeds in progress. See /net_info for details' };
}

/** Unsafe. More: https://docs.cometbft.com/v0.38/rpc/#/Unsafe/dial_peers */
export function dialPeers(env: CometEnv, peers: string[], flags: { persistent: boolean; unconditional: boolean; private: boolean }): ResultDialLog {
  if (peers.length === 0) throw new CometHandlerError('no peers provided');
  peers.forEach(checkPeerAddress);
  env.logger.info({ peers, ...flags }, 'DialPeers (no p2p layer: nothing is dialled)');
  return { log: 'Dialing peers in progress. See /net_info for details' };
}
