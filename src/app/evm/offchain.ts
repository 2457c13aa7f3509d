/**
 * What runs off the block path (eth_call, estimation, eth_simulateV1, ERC-20 reads, traces) see of
 * the chain: its EVM view and the memoised state after each height, which every such run reads
 * through its own OverlayState (overlay-state.ts), and the call executor that lends them pooled EVMs
 * (call-executor.ts implements OffchainExecutor; the composition root builds it, everything else
 * sees these interfaces).
 */
import type { Block } from '@ethereumjs/block';
import type { Address } from '@ethereumjs/util';
import type { EvmView } from '../views/evm-view.js';
import type { OverlayState } from './overlay-state.js';
import type { PooledEvm } from './run-message.js';
import type { StateReader } from './state-reader.js';

/** The header fields a call's block environment has. */
export interface PendingHeader {
  number: bigint;
  /** Seconds. */
  timestamp: bigint;
  coinbase: Address;
  gasLimit: bigint;
  baseFeePerGas: bigint;
}

/** Where a call executes: on the state after `height`, in that block's environment or in `pending`'s (the next block). */
export interface ExecutionPoint {
  height: number;
  pending?: PendingHeader;
}

/** The state an off-chain run starts from: a trace takes `new OverlayState(await readerAt(h))`, as a call does. */
export interface ExecutionSource {
  readonly view: EvmView;
  /** The memoised reader of the state after block `height`, shared by every run at that height (throws for a height the app lacks). */
  readerAt(height: number): Promise<StateReader>;
}

export interface OffchainExecutor extends ExecutionSource {
  /**
   * Runs `fn` with a fresh overlay of the state after `at.height` and a pooled EVM of its own, in the
   * environment of block `at.height`, or of the next block when `at.pending` gives its header.
   */
  run<T>(at: ExecutionPoint, fn: (state: OverlayState, block: Block, evm: PooledEvm) => Promise<T>): Promise<T>;
  /** Drops memoised readers and block environments (a devnet revert, state load or state edit makes them stale). */
  forget(): void;
}
