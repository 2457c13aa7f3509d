/** The hub on a home: `<home>/hub/` (config/genesis.json, config/config.toml, its validator keys, data/chainlet.db). */
import { toBech32 } from '../../crypto/bech32.js';
import { relayerKey } from '../../network/ibc/relayer-key.js';
import { chainHomeDir, homeGenesisOf, initChainConfig, initChainHome, type HomeInitContext } from '../chain-home.js';
import { HUB_PREFIX } from './defaults.js';
import { HUB_CONFIG_TOML } from './settings.js';

/** A relayer's funding at genesis: ample for a devnet's relay txs (as the devnet's). */
export const HUB_RELAYER_BALANCE = 10n ** 15n;

const relayerAccount = (k: Uint8Array) => toBech32(HUB_PREFIX, relayerKey('secp256k1', k).address);

/** Writes the home's hub: its devnet genesis (the dev mnemonic's accounts and the relayers funded), validator keys and config.toml. */
export async function initHubHome(home: string, ctx: HomeInitContext & { mnemonic?: string }): Promise<string[]> {
  const { hubDevnetGenesis } = await import('./start.js');
  const extraAccounts = ctx.relayerKeys.map((k) => ({ address: relayerAccount(k), amount: HUB_RELAYER_BALANCE.toString() }));
  return [
    ...initChainHome(home, 'hub', hubDevnetGenesis({ ...(ctx.mnemonic ? { mnemonic: ctx.mnemonic } : {}), extraAccounts }), ctx.overwrite),
    ...initChainConfig(home, 'hub', HUB_CONFIG_TOML, ctx.overwrite),
  ];
}

/** Whether the home's hub genesis funds these relayer keys (a hub not yet on the home is written from its funded spec: true). */
export function hubHomeFunds(home: string, relayerKeys: Uint8Array[]): boolean {
  const genesis = homeGenesisOf(chainHomeDir(home, 'hub'));
  if (!genesis) return true;
  const accounts = (genesis.appState as { hub?: { accounts?: { address: string }[] } }).hub?.accounts ?? [];
  const have = new Set(accounts.map((a) => a.address));
  return relayerKeys.every((k) => have.has(relayerAccount(k)));
}
