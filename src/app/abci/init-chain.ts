/** InitChain's genesis: account numbers and the genesis accounts written into the live state. */
import { Address, createAccount } from '@ethereumjs/util';
import { toPrefixedHex as hex } from '../../crypto/encoding.js';
import { FEE_COLLECTOR, type AuthRegistry } from '../cosmos/auth-registry.js';
import type { EvmRuntime } from '../execution/evm-runtime.js';
import type { AppMeta } from '../stores/app-store.js';
import type { EvmGenesisState } from '../stores/genesis-state.js';
import type { AppChainConfig } from './app-config.js';
import { metaHex } from './evm-stores.js';

/** Writes the genesis accounts; returns the genesis root and the height-0 meta for the caller to persist. */
export async function loadGenesis(
  rt: EvmRuntime,
  auth: AuthRegistry,
  genesis: EvmGenesisState,
  config: AppChainConfig,
): Promise<{ root: Uint8Array; meta: AppMeta }> {
  // Account numbers: the genesis accounts in genesis order, then the fee collector module account.
  await auth.numberAll([...genesis.alloc.map((a) => a.address.toLowerCase().replace(/^0x/, '')), Buffer.from(FEE_COLLECTOR).toString('hex')]);
  const state = rt.state;
  for (const acc of genesis.alloc) {
    const address = new Address(metaHex(acc.address));
    await state.putAccount(address, createAccount({ nonce: acc.nonce, balance: acc.balance }));
    if (acc.code !== undefined) await state.putCode(address, acc.code);
    for (const [slot, value] of acc.storage) await state.putStorage(address, slot, value);
  }
  const root = await state.getStateRoot();
  const meta: AppMeta = {
    config,
    genesisRoot: hex(root),
    lastHeight: 0,
    lastAppHash: '',
    lastBlockHash: '',
    nextBaseFee: config.initialBaseFee,
  };
  return { root, meta };
}
