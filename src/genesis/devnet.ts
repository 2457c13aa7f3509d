/**
 * The default devnet: Cosmos chain id `chainlet_9000-1`, EVM chain id 9000, the 10 dev accounts
 * funded with 10 000 native tokens each, and N in-process validators of equal power.
 * Validator keys are derived deterministically from the chain id unless given, so an in-memory
 * devnet has the same validator addresses on every start.
 */
import { createHash } from 'node:crypto';
import { ed25519FromSeed, type Ed25519Key } from '../crypto/ed25519.js';
import { defaultConsensusParams } from '../types/params.js';
import type { Timestamp } from '../types/time.js';
import { timestampFromMs } from '../types/time.js';
import { deriveDevAccounts, type DevAccount } from './dev-accounts.js';
import type { GenesisDoc } from './genesis-doc.js';

export const DEFAULT_CHAIN_ID = 'chainlet_9000-1';
export const DEFAULT_EVM_CHAIN_ID = 9000;
export const DEFAULT_DENOM = 'achainlet';
export const DEFAULT_BECH32_PREFIX = 'chainlet';
/** 10 000 tokens of 18 decimals. */
export const DEV_ACCOUNT_BALANCE = 10_000n * 10n ** 18n;
/** Devnet block gas limit, as Anvil and Hardhat. */
export const DEVNET_BLOCK_MAX_GAS = 30_000_000;
export const VALIDATOR_POWER = 10;

export interface AllocAccount {
  balance?: string;
  nonce?: string;
  code?: string;
  storage?: Record<string, string>;
}

export interface DevnetGenesisOptions {
  chainId?: string;
  /** Defaults to the number in the Ethermint-style chain id (`name_<evm>-<n>`), else 9000. */
  evmChainId?: number;
  validators?: number;
  accounts?: number;
  mnemonic?: string;
  balance?: bigint;
  genesisTime?: Timestamp;
  blockMaxGas?: number;
  initialBaseFee?: bigint;
  hardfork?: string;
  extraAlloc?: Record<string, AllocAccount>;
  validatorKeys?: Ed25519Key[];
}

export interface DevnetGenesis {
  genesis: GenesisDoc;
  validatorKeys: Ed25519Key[];
  accounts: DevAccount[];
}

/** `chainlet_9000-1` → 9000, as Ethermint parses its chain ids. */
export function evmChainIdFromChainId(chainId: string): number | undefined {
  const m = /^[a-z]{1,}_(\d+)-(\d+)$/.exec(chainId);
  return m ? Number(m[1]) : undefined;
}

export function deterministicValidatorKey(chainId: string, index: number): Ed25519Key {
  const seed = createHash('sha256').update(`chainlet validator ${chainId} ${index}`).digest();
  return ed25519FromSeed(new Uint8Array(seed));
}

export function createDevnetGenesis(opts: DevnetGenesisOptions = {}): DevnetGenesis {
  const chainId = opts.chainId ?? DEFAULT_CHAIN_ID;
  const evmChainId = opts.evmChainId ?? evmChainIdFromChainId(chainId) ?? DEFAULT_EVM_CHAIN_ID;
  const nVals = opts.validators ?? 1;
  if (!Number.isInteger(nVals) || nVals < 1) throw new Error(`validators must be a positive integer, got ${nVals}`);
  const keys = opts.validatorKeys ?? Array.from({ length: nVals }, (_, i) => deterministicValidatorKey(chainId, i));
  const accounts = deriveDevAccounts(opts.accounts ?? 10, opts.mnemonic);
  const balance = (opts.balance ?? DEV_ACCOUNT_BALANCE).toString();
  const alloc: Record<string, AllocAccount> = {};
  for (const a of accounts) alloc[a.address] = { balance, nonce: '0' };
  Object.assign(alloc, opts.extraAlloc ?? {});
  const params = defaultConsensusParams();
  params.block.maxGas = opts.blockMaxGas ?? DEVNET_BLOCK_MAX_GAS;
  const genesis: GenesisDoc = {
    genesisTime: opts.genesisTime ?? timestampFromMs(Date.now()),
    chainId,
    initialHeight: 1,
    consensusParams: params,
    validators: keys.map((k, i) => ({ address: k.address, pubKey: k.publicKey, power: VALIDATOR_POWER, name: `validator-${i}` })),
    appHash: new Uint8Array(0),
    appState: {
      evm: {
        chain_id: String(evmChainId),
        denom: DEFAULT_DENOM,
        display_denom: 'chainlet',
        decimals: 18,
        bech32_prefix: DEFAULT_BECH32_PREFIX,
        hardfork: opts.hardfork ?? 'prague',
        initial_base_fee: (opts.initialBaseFee ?? 1_000_000_000n).toString(),
        min_gas_price: '0',
        alloc,
      },
    },
  };
  return { genesis, validatorKeys: keys, accounts };
}
