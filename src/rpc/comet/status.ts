/** health and status (rpc/core/health.go, status.go). */
import { encodePubKey, hex, i64, time } from '../../codec/json/comet-json.js';
import type { BlockMeta } from '../../types/block.js';
import { BLOCK_PROTOCOL, COMET_VERSION, P2P_PROTOCOL } from '../../version.js';
import type { CometEnv } from './env.js';
import type { ResultEmpty, ResultStatus } from './results.js';

/** The p2p channels a v0.38 node advertises (blocksync, consensus, mempool, evidence, statesync). */
const CHANNELS = '40202122233038606100';
const EPOCH = { seconds: 0, nanos: 0 };

/** Health: `{}` while the node runs. More: https://docs.cometbft.com/v0.38/rpc/#/Info/health */
export function health(): ResultEmpty {
  return {};
}

function syncFields(meta: BlockMeta | undefined): { hash: string; appHash: string; time: string } {
  return meta
    ? { hash: hex(meta.blockId.hash), appHash: hex(meta.header.appHash), time: time(meta.header.time) }
    : { hash: '', appHash: '', time: time(EPOCH) };
}

/** Node, sync and validator info. More: https://docs.cometbft.com/v0.38/rpc/#/Info/status */
export async function status(env: CometEnv): Promise<ResultStatus> {
  const latestHeight = env.blockStore.height();
  const earliestHeight = env.blockStore.base();
  const [latest, earliest] = await Promise.all([
    latestHeight > 0 ? env.blockStore.loadBlockMeta(latestHeight) : undefined,
    earliestHeight > 0 ? env.blockStore.loadBlockMeta(earliestHeight) : undefined,
  ]);
  const l = syncFields(latest);
  const e = syncFields(earliest);
  const val = env.consensus.localValidator();
  const info = env.nodeInfo;
  return {
    node_info: {
      protocol_version: { p2p: String(P2P_PROTOCOL), block: String(BLOCK_PROTOCOL), app: i64(latest?.header.version.app ?? 0) },
      id: info.id,
      listen_addr: info.listenAddr,
      network: info.network,
      version: COMET_VERSION,
      channels: CHANNELS,
      moniker: info.moniker,
      other: { tx_index: info.txIndex, rpc_address: info.rpcAddress },
    },
    sync_info: {
      latest_block_hash: l.hash,
      latest_app_hash: l.appHash,
      latest_block_height: i64(latestHeight),
      latest_block_time: l.time,
      earliest_block_hash: e.hash,
      earliest_app_hash: e.appHash,
      earliest_block_height: i64(earliestHeight),
      earliest_block_time: e.time,
      catching_up: false,
    },
    validator_info: val
      ? { address: hex(val.address), pub_key: encodePubKey(val.pubKey), voting_power: i64(env.consensus.votingPowerOf(val.address)) }
      : { address: '', pub_key: encodePubKey(new Uint8Array(32)), voting_power: '0' },
  };
}
