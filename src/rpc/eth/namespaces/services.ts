/**
 * What the personal, admin, miner and devnet handlers reach beyond EthEnv, as one narrow object
 * the composition root builds from the node (src/node/rpc-eth.ts adds it as `env.namespaces`).
 * The node's DevnetControl and Keystore implement DevnetService and KeystoreService. The eth server sets
 * `listeners` once its listeners run, so admin_start/stopHTTP/WS can drive them.
 */
import type { Address } from '@ethereumjs/util';
import type { EthEnv } from '../env.js';
import { EthRpcError } from '../errors.js';
import type { EthListenerControl } from './listener-control.js';

export interface NodeDescription {
  /** Hex id of the node key (CometBFT node id), or of the first validator when there is none. */
  id: string;
  moniker: string;
  chainId: string;
  evmChainId: number;
  /** The home folder; '' for an in-memory node. */
  datadir: string;
  /** The CometBFT RPC address (`[rpc] laddr`). */
  rpcAddress: string;
  jsonRpc: { http: string; ws: string };
  height(): number;
  genesisHash(): Promise<string | undefined>;
  headHash(): Promise<string | undefined>;
}

/** Block production switches (miner_*, evm_setAutomine, evm_setIntervalMining). */
export interface MiningService {
  readonly isAutomine: boolean;
  /** Milliseconds; 0 when interval mining is off. */
  readonly interval: number;
  setAutomine(on: boolean): void;
  setInterval(ms: number): void;
  start(): void;
  stop(): void;
}

/** Devnet control (evm_*, anvil_*, hardhat_*); errors extend service-errors.ts DevnetError. */
export interface DevnetService {
  readonly impersonated: { has(address: string): boolean };
  readonly mining: MiningService;
  readonly instanceId: string;
  loggingEnabled: boolean;
  mine(count?: number, opts?: { interval?: number; timestamp?: number }): Promise<{ from: number; to: number } | undefined>;
  increaseTime(seconds: number): number;
  setNextBlockTimestamp(seconds: number): void;
  setBlockTimestampInterval(seconds: number): void;
  removeBlockTimestampInterval(): boolean;
  setLoggingEnabled(on: boolean): void;
  listSnapshots(): { id: number; height: number }[];
  snapshot(): Promise<number>;
  revert(id: number): Promise<boolean>;
  reset(): Promise<void>;
  setBalance(address: Address, wei: bigint): Promise<void>;
  setNonce(address: Address, nonce: bigint): Promise<void>;
  setCode(address: Address, code: Uint8Array): Promise<void>;
  setStorageAt(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void>;
  setCoinbase(address: Address | undefined): void;
  setMinGasPrice(wei: bigint): Promise<void>;
  setNextBlockBaseFee(wei: bigint): Promise<void>;
  setBlockGasLimit(gas: bigint): Promise<void>;
  impersonate(address: Address): void;
  stopImpersonating(address: Address): boolean;
  setAutoImpersonate(on: boolean): void;
  dropTransaction(hash: Uint8Array): boolean;
  dropAllTransactions(): void;
  dumpState(): Promise<Uint8Array>;
  loadState(dump: Uint8Array): Promise<void>;
  /** Takes an in-process validator (genesis order) offline or back (the explorer's switch). */
  setValidatorOnline(index: number, online: boolean): void;
  /** The network's IBC relayer, when the network has one (set by the network after start). */
  relayer: RelayerControl | undefined;
}

/** What the devnet methods may do with the network's in-process IBC relayer. */
export interface RelayerControl {
  pause(): void;
  resume(): void;
  flush(): Promise<void>;
  status(): unknown;
}

/** Password-protected accounts (personal_*); errors extend service-errors.ts KeystoreError. */
export interface KeystoreService {
  readonly dir: string | undefined;
  accounts(): string[];
  has(address: string): boolean;
  isUnlocked(address: string): boolean;
  newAccount(password: string): Promise<string>;
  importRawKey(privateKey: Uint8Array, password: string): Promise<string>;
  unlock(address: string, password: string, seconds?: number): Promise<void>;
  lock(address: string): boolean;
  key(address: string, password?: string): Promise<Uint8Array>;
}

export interface NamespaceServices {
  readonly devnet: DevnetService;
  readonly keystore: KeystoreService;
  readonly node: NodeDescription;
  /** Set by the eth server when it starts (undefined for in-process providers). */
  listeners: EthListenerControl | undefined;
}

/** The services of an env (-32603 with a clear text when the env was built without them). */
export function servicesOf(env: EthEnv): NamespaceServices {
  const s = (env as EthEnv & { namespaces?: NamespaceServices }).namespaces;
  if (s === undefined) throw new EthRpcError(-32603, 'this eth environment has no namespace services (src/node/rpc-eth.ts must set env.namespaces)');
  return s;
}
