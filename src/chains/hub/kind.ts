/**
 * The hub kind: a Cosmos-style chain of one native denom with IBC (src/apps/hub). Its code, and
 * the cosmjs-types codecs it uses, load when a network starts one (start.ts).
 */
import { resolveConfig } from '../../config/resolve.js';
import { fromBech32, toBech32 } from '../../crypto/bech32.js';
import { RELAYER_PRIVATE_KEY, relayerKey } from '../../network/ibc/relayer-key.js';
import { hubHomeFunds, initHubHome } from './home.js';
import { definedUrls, formatUnits } from '../format.js';
import type { BannerAccount, ChainKind } from '../types.js';
import { DEFAULT_HUB_RPC_LADDR, HUB_DENOM, HUB_PREFIX } from './defaults.js';
import { describeBlocks, hubSettings, hubSpecConfig } from './settings.js';
import type { HubChain, HubChainSpec } from './start.js';

/** A relayer's funding at genesis: ample for a devnet's relay txs. */
const RELAYER_BALANCE = 10n ** 15n;
const DISPLAY = { denom: HUB_DENOM, displayDenom: 'hub', decimals: 6 };

export const hubKind: ChainKind<HubChainSpec, HubChain> = {
  name: 'hub',
  byDefault: true,
  help: `hub's RPC listens on ${DEFAULT_HUB_RPC_LADDR.replace('tcp://', '')}`,
  cli: {
    options: [
      { flags: '--hub-rpc <laddr>', description: 'CometBFT RPC address of the hub chain (with --chains …,hub)', default: DEFAULT_HUB_RPC_LADDR },
      {
        flags: '--hub-block-time <ms>',
        description: 'the hub makes a block every <ms> milliseconds, empty ones too (interval mode; 0: automine, a block only when a tx arrives)',
        default: '0',
      },
    ],
    spec(ctx) {
      const { config, rpc } = hubSettings(ctx);
      ctx.listen.push({ flag: rpc.from, address: rpc.value });
      const logLevel = ctx.overrides.logLevel;
      return {
        kind: 'hub',
        mnemonic: ctx.devnet?.mnemonic,
        ...(ctx.home !== undefined ? { home: ctx.home } : {}),
        config: { ...config, ...(logLevel !== undefined ? { logLevel } : {}) },
      };
    },
  },
  configLines(ctx) {
    const { rpc, blocks } = hubSettings(ctx);
    return [`hub: CometBFT RPC ${rpc.value} (${rpc.from}), ${describeBlocks(blocks.value)} (${blocks.from})`];
  },
  instrumentation(spec) {
    const cfg = resolveConfig(undefined, hubSpecConfig(spec)).instrumentation;
    return cfg.prometheus ? cfg : undefined;
  },
  ibc: {
    fund(spec, relayerKeys) {
      if (spec.home && !hubHomeFunds(spec.home, [RELAYER_PRIVATE_KEY, ...relayerKeys]))
        return { off: "the hub's home genesis (<home>/hub) does not fund the relayer (a home written by `chainlet init` does: docs/network.md)" };
      const addresses = relayerKeys.map((k) => relayerKey('secp256k1', k).address);
      const funded = addresses.map((a) => ({ address: toBech32(HUB_PREFIX, a), amount: RELAYER_BALANCE.toString() }));
      return { spec: { ...spec, extraAccounts: [...(spec.extraAccounts ?? []), ...funded] } };
    },
  },
  initHome: (home, ctx) => initHubHome(home, ctx),
  async start(spec, ctx) {
    const { startHubChain } = await import('./start.js');
    return startHubChain({ ...spec, ...(ctx.metrics ? { metrics: ctx.metrics } : {}) });
  },
  async summary(c) {
    const g = { ...DISPLAY, ...(c.genesis.appState as { hub?: Partial<typeof DISPLAY> }).hub };
    const accounts = c.devAddresses.slice(0, 3).map((address, i): BannerAccount => {
      const balance = c.app.balance(fromBech32(address).bytes);
      return {
        address,
        balance: balance.toString(),
        display: `${formatUnits(balance, g.decimals)} ${g.displayDenom.toUpperCase()}`,
        path: `m/44'/118'/0'/0/${i}`,
      };
    });
    return { chainId: c.chainId, kind: 'hub', height: c.height, urls: definedUrls(c.urls), accounts, denom: g.denom };
  },
  bannerLines: (s) => [`${s.chainId} (hub): height ${s.height}`],
};
