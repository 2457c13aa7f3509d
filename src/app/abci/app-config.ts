/** The chain settings the app fixes at InitChain and persists with its meta. */
import type { RequestInitChain } from '../../abci/types.js';
import type { ChainCommonOpts } from '../chain-common.js';
import { EVM_GENESIS_DEFAULTS, type EvmGenesisState, type SupportedHardfork } from '../stores/genesis-state.js';

/** JSON-friendly (decimal strings for big numbers). */
export interface AppChainConfig {
  chainId: string;
  denom: string;
  displayDenom: string;
  decimals: number;
  bech32Prefix: string;
  hardfork: string;
  initialBaseFee: string;
  minGasPrice: string;
  /** Consensus block.max_gas (-1 = unlimited) and block.max_bytes. */
  maxGas: number;
  maxBytes: number;
  initialHeight: number;
  cometChainId: string;
}

/** What the app assumes before InitChain (and what an empty app_state means). */
export function defaultChainConfig(): AppChainConfig {
  const d = EVM_GENESIS_DEFAULTS;
  return {
    chainId: d.chainId.toString(),
    denom: d.denom,
    displayDenom: d.displayDenom,
    decimals: d.decimals,
    bech32Prefix: d.bech32Prefix,
    hardfork: d.hardfork,
    initialBaseFee: d.initialBaseFee.toString(),
    minGasPrice: d.minGasPrice.toString(),
    maxGas: -1,
    maxBytes: 22_020_096,
    initialHeight: 1,
    cometChainId: '',
  };
}

/** The base fee never starts below the min gas price (the feemarket floors it there too). */
export function chainConfigFromGenesis(g: EvmGenesisState, req: RequestInitChain, minGasPrice: bigint | undefined): AppChainConfig {
  const minGas = minGasPrice ?? g.minGasPrice;
  const initialBaseFee = g.initialBaseFee < minGas ? minGas : g.initialBaseFee;
  return {
    chainId: g.chainId.toString(),
    denom: g.denom,
    displayDenom: g.displayDenom,
    decimals: g.decimals,
    bech32Prefix: g.bech32Prefix,
    hardfork: g.hardfork,
    initialBaseFee: initialBaseFee.toString(),
    minGasPrice: minGas.toString(),
    maxGas: req.consensusParams.block.maxGas,
    maxBytes: req.consensusParams.block.maxBytes,
    initialHeight: req.initialHeight,
    cometChainId: req.chainId,
  };
}

export function commonOptsOf(c: AppChainConfig): ChainCommonOpts {
  return { chainId: BigInt(c.chainId), hardfork: c.hardfork as SupportedHardfork };
}
