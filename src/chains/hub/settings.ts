/**
 * The hub's node settings on the command line: `<home>/hub/config/config.toml` (any config.toml key
 * of the key table; `chainlet init` writes the hub's), then `--hub-rpc` and `--hub-block-time` when
 * given on the command line. Without a home, the flags (and their defaults) alone. From code
 * (`hubSpecConfig`): the same file, then the spec's `config` and `consensus` over it.
 */
import { mergeConfig } from '../../config/defaults.js';
import { parseListenAddress } from '../../config/listen-address.js';
import type { ConsensusConfig, DeepPartial, NodeConfig } from '../../config/types.js';
import { chainHomeConfig, chainSetting, specConfigOnHome, type ChainSetting } from '../chain-home.js';
import { nonNegativeInt } from '../format.js';
import type { CliContext } from '../types.js';
import { DEFAULT_HUB_RPC_LADDR } from './defaults.js';
import type { HubChainSpec } from './start.js';

type BlockProduction = Partial<Pick<ConsensusConfig, 'mode' | 'timeoutCommitMs'>>;

export interface HubSettings {
  /** The hub's node config: the home file's keys, with the RPC address and block production resolved. */
  config: DeepPartial<NodeConfig>;
  rpc: ChainSetting<string>;
  blocks: ChainSetting<BlockProduction>;
}

/** The config.toml `chainlet init --home` writes in `<home>/hub/config/`: the hub's defaults, in CometBFT's layout. */
export const HUB_CONFIG_TOML = `# The hub chain's node settings (CometBFT's config.toml layout; any config.toml key applies).
# chainlet start --home reads them; --hub-rpc and --hub-block-time given on the command line override them.
moniker = "chainlet"

[rpc]
laddr = "${DEFAULT_HUB_RPC_LADDR}"

[consensus]
# automine: a block only when a tx arrives; interval: a block every timeout_commit, empty ones too (--hub-block-time)
mode = "automine"
timeout_commit = "1s"
`;

/** `--hub-block-time <ms>`: 0 automine, else interval mode at that block time. */
const blocksFromFlag = (ms: string): BlockProduction => {
  const n = nonNegativeInt(ms, '--hub-block-time');
  return n > 0 ? { mode: 'interval', timeoutCommitMs: n } : { mode: 'automine' };
};

export function hubSettings(ctx: Pick<CliContext, 'options' | 'home' | 'given' | 'host'>): HubSettings {
  const file = chainHomeConfig(ctx.home, 'hub');
  const rpc = chainSetting(ctx, 'hub', { option: 'hubRpc', name: '--hub-rpc', fallback: DEFAULT_HUB_RPC_LADDR }, file.rpc?.laddr, (v) => v);
  // `--host` moves the default address (the file's too, as init writes it) to its host.
  if (ctx.host && rpc.value === DEFAULT_HUB_RPC_LADDR) rpc.value = `tcp://${ctx.host}:26757`;
  parseListenAddress(rpc.value, rpc.from);
  const fileBlocks = file.consensus?.mode !== undefined || file.consensus?.timeoutCommitMs !== undefined ? pickBlocks(file.consensus) : undefined;
  const blocks = chainSetting(ctx, 'hub', { option: 'hubBlockTime', name: '--hub-block-time', fallback: '0' }, fileBlocks, blocksFromFlag);
  const config = mergeConfig(file as NodeConfig, { rpc: { laddr: rpc.value }, consensus: blocks.value } as DeepPartial<NodeConfig>) as DeepPartial<NodeConfig>;
  return { config, rpc, blocks };
}

/**
 * The hub's node config from its spec, as its start and the network's metrics read it: the home's
 * config.toml (with a home), the spec's `config` over it, then its `consensus` (typed options win, as flags do).
 */
export function hubSpecConfig(spec: Pick<HubChainSpec, 'home' | 'config' | 'consensus'>): DeepPartial<NodeConfig> | undefined {
  const config = specConfigOnHome(spec.home, 'hub', spec.config);
  return spec.consensus ? (mergeConfig((config ?? {}) as NodeConfig, { consensus: spec.consensus } as never) as DeepPartial<NodeConfig>) : config;
}

function pickBlocks(c: DeepPartial<ConsensusConfig>): BlockProduction {
  return { ...(c.mode !== undefined ? { mode: c.mode } : {}), ...(c.timeoutCommitMs !== undefined ? { timeoutCommitMs: c.timeoutCommitMs } : {}) };
}

/** How `config show` says the hub makes blocks. */
export function describeBlocks(b: BlockProduction): string {
  if (b.mode === 'interval') return `a block every ${b.timeoutCommitMs ?? 1000} ms`;
  return b.mode ?? 'automine';
}
