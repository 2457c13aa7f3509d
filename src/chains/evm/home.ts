/** The EVM chain on a home: it is the home itself (config/, data/chainlet.db), written by `initHome` (src/genesis/home.ts). */
import { relayerKey } from '../../network/ibc/relayer-key.js';
import { initHome } from '../../genesis/home.js';
import { homeGenesisOf, type HomeInitContext } from '../chain-home.js';

/** A relayer's funding in a home's genesis: ample for a devnet's relay txs (as the devnet's). */
const RELAYER_BALANCE = 10n ** 24n;

const relayerAccount = (k: Uint8Array) => `0x${Buffer.from(relayerKey('eth_secp256k1', k).address).toString('hex')}`;

/** Writes the home's EVM chain: genesis (the dev accounts and the relayers funded), config files, keys. */
export async function initEvmHome(home: string, ctx: HomeInitContext): Promise<string[]> {
  const extraAlloc = Object.fromEntries(ctx.relayerKeys.map((k) => [relayerAccount(k), { balance: RELAYER_BALANCE.toString() }]));
  return initHome(home, { chainId: ctx.chainId, validators: ctx.validators, overwrite: ctx.overwrite, extraAlloc }).files;
}

/** Whether the home's EVM genesis funds the accounts of these relayer keys. */
export function evmHomeFunds(home: string, relayerKeys: Uint8Array[]): boolean {
  const genesis = homeGenesisOf(home);
  const alloc = (genesis?.appState as { evm?: { alloc?: Record<string, unknown> } } | undefined)?.evm?.alloc ?? {};
  const have = new Set(Object.keys(alloc).map((a) => a.toLowerCase()));
  return relayerKeys.every((k) => have.has(relayerAccount(k)));
}
