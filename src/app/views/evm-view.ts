/**
 * The Ethereum view of the chain that the eth_* JSON-RPC server is built on: blocks, receipts,
 * transactions and state at any height, derived from the same blocks the consensus engine commits.
 * Values are bigint / Uint8Array / Address; encoding to hex is the RPC's job.
 */
import type { Ics20Context } from '../../ibc/ics20-precompile.js';
import type { CosmosChainEnv } from '../cosmos/cosmos-exec.js';
import type { Common } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';

export interface EvmBlock {
  readonly number: number;
  /** The CometBFT block hash (RequestFinalizeBlock.hash), as Cosmos EVM reports it. */
  readonly hash: Uint8Array;
  /** The previous block's hash; 32 zero bytes for the first block. */
  readonly parentHash: Uint8Array;
  /** Seconds since the Unix epoch. */
  readonly timestamp: bigint;
  readonly coinbase: Address;
  readonly gasLimit: bigint;
  readonly gasUsed: bigint;
  readonly baseFeePerGas: bigint;
  /** State root after executing this block (= the app hash FinalizeBlock returned). */
  readonly stateRoot: Uint8Array;
  /** 256 bytes. */
  readonly logsBloom: Uint8Array;
  /** Root of the trie of executed txs; computed on first access, then cached. */
  readonly transactionsRoot: Uint8Array;
  /** Root of the trie of receipts; computed on first access, then cached. */
  readonly receiptsRoot: Uint8Array;
  /** Ethereum hashes of the executed txs, in order. */
  readonly txHashes: readonly Uint8Array[];
  /** Size in bytes of the block's RLP encoding (header estimated, txs exact). */
  readonly size: number;
}

export interface EvmLog {
  address: Address;
  topics: Uint8Array[];
  data: Uint8Array;
  /** Index of the log within the block. */
  logIndex: number;
  transactionIndex: number;
}

export interface EvmReceipt {
  txHash: Uint8Array;
  txIndex: number;
  blockNumber: number;
  blockHash: Uint8Array;
  from: Address;
  to: Address | null;
  contractAddress: Address | null;
  status: 0 | 1;
  gasUsed: bigint;
  cumulativeGasUsed: bigint;
  effectiveGasPrice: bigint;
  /** EIP-2718 tx type. */
  type: number;
  logs: EvmLog[];
  /** 256 bytes. */
  logsBloom: Uint8Array;
}

export interface EvmTxLocation {
  height: number;
  index: number;
  blockHash: Uint8Array;
  tx: TypedTransaction;
  sender: Address;
}

export interface EvmView {
  readonly chainId: bigint;
  readonly common: Common;
  readonly denom: string;
  readonly bech32Prefix: string;
  /** Last committed height (0 before the first block). */
  latestHeight(): number;
  getBlock(height: number): Promise<EvmBlock | undefined>;
  getBlockByHash(hash: Uint8Array): Promise<EvmBlock | undefined>;
  getTransaction(ethHash: Uint8Array): Promise<EvmTxLocation | undefined>;
  /** Executed txs (code 0) of a block, in order; [] for an unknown height. */
  getTransactionsOfBlock(height: number): Promise<{ tx: TypedTransaction; sender: Address }[]>;
  /** Receipts of a block's executed txs, in order; [] for an unknown height. */
  getReceipts(height: number): Promise<EvmReceipt[]>;
  /**
   * The logs blooms of the committed blocks in [from, to], in height order, without decoding the
   * blocks (eth_getLogs' scan of a range). Blocks that cannot hold logs may be left out.
   */
  blooms(from: number, to: number): AsyncIterable<[height: number, bloom: Uint8Array]>;
  /**
   * An independent state manager rooted at the state after block `height` (0 = genesis); writes to
   * it never reach the chain. Throws HeightNotAvailableError for a height the app does not have.
   */
  stateAt(height: number): Promise<MerkleStateManager>;
  /** Base fee of the next block. */
  nextBaseFee(): bigint;
  /** Gas limit of the next block. */
  nextGasLimit(): bigint;
  /** The coinbase set by a devnet edit for the next blocks, if any (else the proposer's address). */
  readonly coinbaseOverride: Address | undefined;
  /** The minimum gas price CheckTx asks for now (config, genesis, or a devnet edit). */
  minGasPrice(): bigint;
  /** Called after each Commit; returns the unsubscribe function. */
  onBlock(listener: (b: EvmBlock, receipts: EvmReceipt[]) => void): () => void;
  /** The ICS-20 precompile's world in a call or estimate: a copy of the committed IBC store, the next block. */
  ibcCallContext?(): IbcCallContext | undefined;
  /** What a trace needs to run block `height` again as FinalizeBlock ran it (src/app/trace). */
  blockReplay?(height: number): Promise<BlockReplay>;
}

/**
 * A committed block as the trace replay needs it: every tx of the block as committed, Cosmos txs
 * included (undefined where the app has no block source: then the EVM txs of its record), and the
 * Cosmos side FinalizeBlock gave its txs, on throw-away copies (an auth registry of its own, a fork
 * of the IBC store: the app keeps no IBC history, so IBC state is the latest committed).
 */
export interface BlockReplay {
  txs: readonly Uint8Array[] | undefined;
  cosmos: Omit<CosmosChainEnv, 'height' | 'baseFee'>;
}

/** An ICS-20 precompile context without its per-call parts (caller, events). */
export type IbcCallContext = Omit<Ics20Context, 'caller' | 'events'>;
