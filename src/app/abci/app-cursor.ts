/** The chain view's cursor (views/chain-view.ts) over the EVM app's committed position. */
import type { IbcStore } from '../../ibc/ibc-store.js';
import type { EvmRuntime } from '../execution/evm-runtime.js';
import { blockGasLimit } from '../execution/fee-market.js';
import type { AppMeta } from '../stores/app-store.js';
import { EMPTY_TRIE_ROOT } from '../stores/ordered-trie.js';
import type { ChainCursor } from '../views/chain-view.js';
import type { BlockReplay } from '../views/evm-view.js';
import { defaultChainConfig } from './app-config.js';
import { committedRoot, metaHex } from './evm-stores.js';

/** What the app exposes of itself; every read is live (the app replaces its runtime, meta and IBC store). */
export interface AppPosition {
  runtime(): EvmRuntime;
  meta(): AppMeta | undefined;
  /** The committed IBC store. */
  ibc(): IbcStore;
  nextBaseFee(): bigint;
  minGasPrice(): bigint;
  blockReplay(height: number): Promise<BlockReplay>;
}

export function appCursor(p: AppPosition): ChainCursor {
  const config = () => p.meta()?.config ?? defaultChainConfig();
  return {
    runtime: () => p.runtime(),
    latestHeight: () => p.meta()?.lastHeight ?? 0,
    latestRoot: () => committedRoot(p.meta()),
    initialHeight: () => p.meta()?.config.initialHeight ?? 1,
    genesisRoot: () => {
      const m = p.meta();
      return m === undefined ? EMPTY_TRIE_ROOT : metaHex(m.genesisRoot);
    },
    nextBaseFee: () => p.nextBaseFee(),
    nextGasLimit: () => blockGasLimit(config().maxGas),
    minGasPrice: () => p.minGasPrice(),
    chainInfo: () => {
      const c = config();
      return { chainId: BigInt(c.chainId), denom: c.denom, bech32Prefix: c.bech32Prefix };
    },
    blockReplay: (height) => p.blockReplay(height),
    ibcCall: () => {
      const c = config();
      return {
        store: p.ibc().copy(),
        chainId: c.cometChainId,
        bech32Prefix: c.bech32Prefix,
        denom: c.denom,
        height: (p.meta()?.lastHeight ?? 0) + 1,
        timeNs: BigInt(Date.now()) * 1_000_000n,
      };
    },
  };
}
