/**
 * The `app_state.evm` section of genesis.json, as the app receives it in
 * `RequestInitChain.appStateBytes`:
 *
 *   { "evm": { "chain_id": "9000", "denom": "achainlet", "display_denom": "chainlet", "decimals": 18,
 *              "bech32_prefix": "chainlet", "hardfork": "prague", "initial_base_fee": "1000000000",
 *              "min_gas_price": "0",
 *              "alloc": { "0x…": { "balance": "…", "nonce": "0", "code": "0x…", "storage": { "0x<slot>": "0x<value>" } } } } }
 *
 * Every field but `alloc` has a default; a missing `alloc` is an empty one.
 */
import { GenesisStateError } from '../errors.js';

/** Hardforks the app runs (EIP-1559 is required for the fee market). */
export const SUPPORTED_HARDFORKS = ['london', 'arrowGlacier', 'grayGlacier', 'paris', 'shanghai', 'cancun', 'prague', 'osaka'] as const;
export type SupportedHardfork = (typeof SUPPORTED_HARDFORKS)[number];

export interface GenesisAccount {
  /** Lower-case 0x address. */
  address: string;
  balance: bigint;
  nonce: bigint;
  code?: Uint8Array;
  /** [32-byte slot, value bytes without leading zeros], sorted by slot. */
  storage: [Uint8Array, Uint8Array][];
}

export interface EvmGenesisState {
  chainId: bigint;
  denom: string;
  displayDenom: string;
  decimals: number;
  bech32Prefix: string;
  hardfork: SupportedHardfork;
  initialBaseFee: bigint;
  minGasPrice: bigint;
  /** Sorted by address, so the genesis root never depends on JSON key order. */
  alloc: GenesisAccount[];
}

export const EVM_GENESIS_DEFAULTS: Readonly<Omit<EvmGenesisState, 'alloc'>> = Object.freeze({
  chainId: 9000n,
  denom: 'achainlet',
  displayDenom: 'chainlet',
  decimals: 18,
  bech32Prefix: 'chainlet',
  hardfork: 'prague',
  initialBaseFee: 1_000_000_000n,
  minGasPrice: 0n,
});

/** Parses `app_state` (or its `evm` section directly); throws GenesisStateError naming the bad field. */
export function parseEvmGenesis(json: unknown): EvmGenesisState {
  if (json === undefined || json === null) return { ...EVM_GENESIS_DEFAULTS, alloc: [] };
  if (!isRecord(json)) throw new GenesisStateError('', 'app_state must be a JSON object');
  const evm = 'evm' in json ? json.evm : json;
  if (evm === undefined || evm === null) return { ...EVM_GENESIS_DEFAULTS, alloc: [] };
  if (!isRecord(evm)) throw new GenesisStateError('', 'must be a JSON object');
  const d = EVM_GENESIS_DEFAULTS;
  const chainId = optUint(evm, 'chain_id', d.chainId);
  if (chainId === 0n) throw new GenesisStateError('chain_id', 'must be positive');
  const decimals = Number(optUint(evm, 'decimals', BigInt(d.decimals)));
  if (decimals > 77) throw new GenesisStateError('decimals', 'must be at most 77');
  const hardfork = optString(evm, 'hardfork', d.hardfork);
  if (!(SUPPORTED_HARDFORKS as readonly string[]).includes(hardfork)) {
    throw new GenesisStateError('hardfork', `unsupported "${hardfork}" (one of ${SUPPORTED_HARDFORKS.join(', ')})`);
  }
  const bech32Prefix = optString(evm, 'bech32_prefix', d.bech32Prefix);
  if (!/^[a-z][a-z0-9]*$/.test(bech32Prefix)) throw new GenesisStateError('bech32_prefix', 'must be lower-case alphanumeric');
  return {
    chainId,
    denom: optString(evm, 'denom', d.denom),
    displayDenom: optString(evm, 'display_denom', d.displayDenom),
    decimals,
    bech32Prefix,
    hardfork: hardfork as SupportedHardfork,
    initialBaseFee: optUint(evm, 'initial_base_fee', d.initialBaseFee),
    minGasPrice: optUint(evm, 'min_gas_price', d.minGasPrice),
    alloc: parseAlloc(evm.alloc),
  };
}

/** Parses the JSON bytes CometBFT passes in RequestInitChain (empty bytes = all defaults). */
export function parseEvmGenesisBytes(bytes: Uint8Array): EvmGenesisState {
  const text = new TextDecoder().decode(bytes).trim();
  if (text === '') return parseEvmGenesis(undefined);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new GenesisStateError('', `app_state is not valid JSON: ${(e as Error).message}`);
  }
  return parseEvmGenesis(json);
}

function parseAlloc(alloc: unknown): GenesisAccount[] {
  if (alloc === undefined || alloc === null) return [];
  if (!isRecord(alloc)) throw new GenesisStateError('alloc', 'must be an object keyed by 0x address');
  const out = new Map<string, GenesisAccount>();
  for (const [rawAddr, entry] of Object.entries(alloc)) {
    const field = `alloc.${rawAddr}`;
    if (!/^(0x)?[0-9a-fA-F]{40}$/.test(rawAddr)) throw new GenesisStateError(field, 'key must be a 20-byte hex address');
    const address = `0x${rawAddr.replace(/^0x/, '').toLowerCase()}`;
    if (out.has(address)) throw new GenesisStateError(field, 'duplicate address');
    if (!isRecord(entry)) throw new GenesisStateError(field, 'must be an object');
    const account: GenesisAccount = {
      address,
      balance: optUint(entry, 'balance', 0n, field),
      nonce: optUint(entry, 'nonce', 0n, field),
      storage: parseStorage(entry.storage, `${field}.storage`),
    };
    if (account.nonce >= 2n ** 64n - 1n) throw new GenesisStateError(`${field}.nonce`, 'must fit in 64 bits');
    if (entry.code !== undefined && entry.code !== null && entry.code !== '' && entry.code !== '0x') {
      account.code = parseHex(entry.code, `${field}.code`);
    }
    out.set(address, account);
  }
  return [...out.values()].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

function parseStorage(storage: unknown, field: string): [Uint8Array, Uint8Array][] {
  if (storage === undefined || storage === null) return [];
  if (!isRecord(storage)) throw new GenesisStateError(field, 'must be an object of 0x slot → 0x value');
  const entries: [string, Uint8Array, Uint8Array][] = [];
  for (const [slotHex, value] of Object.entries(storage)) {
    const slot = parseHex(slotHex, `${field}.${slotHex}`);
    if (slot.length > 32) throw new GenesisStateError(`${field}.${slotHex}`, 'slot longer than 32 bytes');
    const padded = new Uint8Array(32);
    padded.set(slot, 32 - slot.length);
    const val = parseHex(value, `${field}.${slotHex}`);
    if (val.length > 32) throw new GenesisStateError(`${field}.${slotHex}`, 'value longer than 32 bytes');
    let start = 0;
    while (start < val.length && val[start] === 0) start++;
    entries.push([Buffer.from(padded).toString('hex'), padded, val.subarray(start)]);
  }
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return entries.map(([, s, v]) => [s, v]);
}

function parseHex(v: unknown, field: string): Uint8Array {
  if (typeof v !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(v)) {
    throw new GenesisStateError(field, 'must be a 0x-prefixed hex string of whole bytes');
  }
  return new Uint8Array(Buffer.from(v.slice(2), 'hex'));
}

function optUint(obj: Record<string, unknown>, key: string, dflt: bigint, prefix?: string): bigint {
  const v = obj[key];
  const field = prefix ? `${prefix}.${key}` : key;
  if (v === undefined || v === null || v === '') return dflt;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || v < 0) throw new GenesisStateError(field, 'must be a non-negative integer');
    return BigInt(v);
  }
  if (typeof v === 'string' && /^(\d+|0x[0-9a-fA-F]+)$/.test(v)) {
    const n = BigInt(v);
    if (n >= 2n ** 256n) throw new GenesisStateError(field, 'must fit in 256 bits');
    return n;
  }
  throw new GenesisStateError(field, 'must be a non-negative integer (decimal string, 0x hex or number)');
}

function optString(obj: Record<string, unknown>, key: string, dflt: string): string {
  const v = obj[key];
  if (v === undefined || v === null || v === '') return dflt;
  if (typeof v !== 'string') throw new GenesisStateError(key, 'must be a string');
  return v;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
