/**
 * The hub chain of the network: a Cosmos-style chain (its own chain id `chainlethub-1`, bech32
 * prefix `hub`, native denom `uhub` with 6 decimals) under its own consensus and CometBFT RPC
 * (tcp://127.0.0.1:26757 by default), running the hub app (src/apps/hub). The dev mnemonic's
 * accounts are funded on m/44'/118'/0'/0/i, as cosmjs' DirectSecp256k1HdWallet derives them.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { HubApp, type HubGenesisState } from '../../apps/hub/hub-app.js';
import type { ConsensusConfig, DeepPartial, NodeConfig } from '../../config/types.js';
import { toBech32 } from '../../crypto/bech32.js';
import { derivePath, masterNode, mnemonicToSeed, secp256k1PublicKey } from '../../crypto/hd-secp256k1.js';
import { DEV_MNEMONIC } from '../../genesis/dev-accounts.js';
import { createDevnetGenesis } from '../../genesis/devnet.js';
import { chainOnHome, type ChainGenesis } from '../chain-home.js';
import { startInMemoryAppChain, type AbciChain } from '../abci-chain.js';
import type { MetricsRegistry } from '../../node/metrics.js';
import { DEFAULT_HUB_CHAIN_ID, DEFAULT_HUB_RPC_LADDR, HUB_DENOM, HUB_PREFIX } from './defaults.js';
import { hubIbcEndpoint } from './ibc.js';
import { hubSpecConfig } from './settings.js';

export interface HubChainSpec {
  kind: 'hub';
  chainId?: string;
  mnemonic?: string;
  accounts?: number;
  /** Whole HUB tokens per dev account (default 1 000 000). */
  balance?: bigint;
  validators?: number;
  /** More funded accounts (bech32 with the hub prefix; the network funds its relayers here). */
  extraAccounts?: { address: string; amount: string }[];
  /** `[rpc]`, `[consensus]`, `[mempool]`… of this chain, over its home's config.toml (with `home`). */
  config?: DeepPartial<NodeConfig>;
  /**
   * Block production, as the EVM chain's `[consensus]` (applied over `config.consensus`): `mode`
   * automine (default: a block only when a tx arrives), interval (a block every `timeoutCommitMs`,
   * empty ones too unless `createEmptyBlocks` is false) or manual. A relayer that waits for the next
   * block (@confio/relayer's `waitOneBlock`) needs blocks while idle: interval mode.
   */
  consensus?: Partial<Pick<ConsensusConfig, 'mode' | 'timeoutCommitMs' | 'createEmptyBlocks' | 'createEmptyBlocksIntervalMs'>>;
  logger?: Logger;
  /** A network's one metrics registry (src/node/metrics.ts). */
  metrics?: MetricsRegistry;
  /**
   * A home folder: the chain keeps its genesis, keys and LevelDB in `<home>/hub/` and resumes there
   * after any stop (written from this spec's devnet genesis at its first start), and runs on its
   * `<home>/hub/config/config.toml` when there is one (`config` and `consensus` win over it). Default: in memory.
   */
  home?: string;
}

export interface HubChain extends AbciChain<HubApp> {
  readonly kind: 'hub';
  /** bech32 addresses of the funded dev accounts, in derivation order. */
  readonly devAddresses: string[];
}

/** The dev mnemonic's Cosmos accounts: ripemd160(sha256(compressed key)) of m/44'/118'/0'/0/i. */
export function hubDevAddresses(mnemonic: string, count: number, prefix = HUB_PREFIX): string[] {
  const root = masterNode(mnemonicToSeed(mnemonic));
  return Array.from({ length: count }, (_, i) => {
    const pub = secp256k1PublicKey(derivePath(root, `m/44'/118'/0'/0/${i}`).privateKey, true);
    return toBech32(prefix, createHash('ripemd160').update(createHash('sha256').update(pub).digest()).digest());
  });
}

/** The hub's devnet genesis (the dev mnemonic's accounts funded, plus `extraAccounts`) and validator keys. */
export function hubDevnetGenesis(spec: Omit<HubChainSpec, 'kind'>): ChainGenesis {
  const chainId = spec.chainId ?? DEFAULT_HUB_CHAIN_ID;
  const dev = createDevnetGenesis({ chainId, validators: spec.validators ?? 1 });
  const devAddresses = hubDevAddresses(spec.mnemonic ?? DEV_MNEMONIC, spec.accounts ?? 10);
  const amount = ((spec.balance ?? 1_000_000n) * 1_000_000n).toString();
  const hub: HubGenesisState = {
    denom: HUB_DENOM,
    displayDenom: 'HUB',
    decimals: 6,
    bech32Prefix: HUB_PREFIX,
    minGasPrice: '0',
    accounts: [...devAddresses.map((address) => ({ address, amount })), ...(spec.extraAccounts ?? [])],
  };
  return { genesis: { ...dev.genesis, appState: { hub } }, validatorKeys: dev.validatorKeys };
}

export async function startHubChain(spec: HubChainSpec): Promise<HubChain> {
  const devAddresses = hubDevAddresses(spec.mnemonic ?? DEV_MNEMONIC, spec.accounts ?? 10);
  // With a home, the genesis and keys are the home's (written there from the devnet's at the first start).
  const { genesis, validatorKeys, dataDir } = chainOnHome(spec.home, 'hub', hubDevnetGenesis(spec));
  const config = hubSpecConfig(spec);
  const chain = await startInMemoryAppChain({
    openApp: (db) => HubApp.open(db as never),
    genesis,
    validatorKeys,
    ...(dataDir ? { dataDir } : {}),
    defaultRpc: DEFAULT_HUB_RPC_LADDR,
    config,
    logger: spec.logger,
    metrics: spec.metrics,
  });
  const hubChain = Object.assign(chain, { kind: 'hub' as const, devAddresses });
  const ibc = hubIbcEndpoint(hubChain);
  const capabilities = { ...chain.capabilities, ibc, routing: async () => (await import('./routing.js')).hubRoutingChain(hubChain) };
  return Object.assign(hubChain, { capabilities });
}
