/**
 * What eth_call, eth_estimateGas, eth_createAccessList and eth_simulateV1 run on: a small pool of
 * EVMs built by the chain's EVM factory (factory.ts: its precompiles; BLOCKHASH from the stored
 * blocks) on one copy of its Common (hooks installed once per EVM), memoised state readers for
 * recent heights, and the ethereumjs Block of each height's environment. Each execution borrows an
 * EVM for its whole run, so a call that yields (a long loop) never shares its EVM. Traces read the
 * same memoised readers (`readerAt`), each through an overlay of its own.
 *
 *   run(height, fn) ─ reader(height) ─ new OverlayState ─ acquire EVM ─ fn ─ release EVM
 */
import { createBlock, type Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { Address } from '@ethereumjs/util';
import { ViewBlockHashes } from './block-hashes.js';
import { createChainEvm } from './factory.js';
import type { EvmView } from '../views/evm-view.js';
import { EvmHooks } from './evm-hooks.js';
import { OverlayState } from './overlay-state.js';
import type { PooledEvm } from './run-message.js';
import { MemoStateReader, type StateReader } from './state-reader.js';
import type { ExecutionPoint, OffchainExecutor, PendingHeader } from './offchain.js';
import { sharedTxCommon } from '../chain-common.js';

/**
 * EVMs a server keeps (and so the calls that execute at once). JavaScript runs one at a time
 * anyway; more only help while long calls yield. Each EVM lives as long as the server: ethereumjs
 * registers a listener per EVM on the Common, so EVMs are pooled, never dropped.
 */
const MAX_EVMS = 8;
const MAX_READERS = 4;
const MAX_BLOCKS = 16;
const ZERO32 = new Uint8Array(32);
const UNLIMITED_GAS = 4_294_967_295n;

export class CallExecutor implements OffchainExecutor {
  private readonly idle: PooledEvm[] = [];
  private readonly waiting: ((evm: PooledEvm) => void)[] = [];
  private created = 0;
  private readonly readers = new Map<number, Promise<StateReader>>();
  private readonly blocks = new Map<number, Promise<Block>>();
  private readonly blockHashes: ViewBlockHashes;
  private common: Common | undefined;
  private pending: { key: string; block: Block } | undefined;

  constructor(readonly view: EvmView) {
    this.blockHashes = new ViewBlockHashes(view);
  }

  async run<T>(at: ExecutionPoint, fn: (state: OverlayState, block: Block, evm: PooledEvm) => Promise<T>): Promise<T> {
    const [reader, block] = await Promise.all([this.readerAt(at.height), at.pending ? this.headerBlock(at.pending) : this.blockAt(at.height)]);
    const evm = await this.acquire();
    try {
      return await fn(new OverlayState(reader), block, evm);
    } finally {
      this.release(evm);
    }
  }

  private async acquire(): Promise<PooledEvm> {
    const idle = this.idle.pop();
    if (idle) return idle;
    if (this.created < MAX_EVMS) {
      this.created++;
      try {
        return await this.createEvm();
      } catch (e) {
        this.created--;
        throw e;
      }
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(evm: PooledEvm): void {
    const next = this.waiting.shift();
    if (next) next(evm);
    else this.idle.push(evm);
  }

  forget(): void {
    this.readers.clear();
    this.blocks.clear();
  }

  readerAt(height: number): Promise<StateReader> {
    let p = this.readers.get(height);
    if (p === undefined) {
      p = this.view.stateAt(height).then((sm) => new MemoStateReader(sm));
      remember(this.readers, height, p, MAX_READERS);
    }
    return p;
  }

  /** The block environment of `height`: its header fields. */
  blockAt(height: number): Promise<Block> {
    let p = this.blocks.get(height);
    if (p === undefined) {
      p = this.buildBlock(height);
      remember(this.blocks, height, p, MAX_BLOCKS);
    }
    return p;
  }

  /** The pending block's environment, kept while its header stays the same (it changes each second at most). */
  private headerBlock(header: PendingHeader): Block {
    const key = `${header.number}:${header.timestamp}:${header.coinbase.toString()}:${header.gasLimit}:${header.baseFeePerGas}`;
    if (this.pending?.key === key) return this.pending.block;
    const block = createBlock({ header: { ...header, mixHash: ZERO32 } }, { common: sharedTxCommon(this.view.common), skipConsensusFormatValidation: true });
    this.pending = { key, block };
    return block;
  }

  private async buildBlock(height: number): Promise<Block> {
    const b = await this.view.getBlock(height);
    const header = b
      ? { number: BigInt(b.number), timestamp: b.timestamp, coinbase: b.coinbase, gasLimit: b.gasLimit, baseFeePerGas: b.baseFeePerGas }
      : {
          number: BigInt(height),
          timestamp: BigInt(Math.floor(Date.now() / 1000)),
          coinbase: new Address(new Uint8Array(20)),
          gasLimit: UNLIMITED_GAS,
          baseFeePerGas: this.view.nextBaseFee(),
        };
    return createBlock({ header: { ...header, mixHash: ZERO32 } }, { common: sharedTxCommon(this.view.common), skipConsensusFormatValidation: true });
  }

  private async createEvm(): Promise<PooledEvm> {
    this.common ??= fastCommon(this.view.common);
    const ics20: NonNullable<PooledEvm['ics20']> = { active: false, caller: undefined, value: 0n, ctx: undefined, world: () => this.view.ibcCallContext?.() };
    const host = () => {
      if (!ics20.active) return undefined;
      if (!ics20.ctx) {
        const world = ics20.world();
        ics20.ctx = world && { ...world, caller: ics20.caller, value: ics20.value, events: [] };
      }
      return ics20.ctx;
    };
    const evm = await createChainEvm(this.common, this.blockHashes, host);
    return { evm, hooks: new EvmHooks(evm), ics20 };
  }
}

/**
 * A copy of the chain's Common for the call EVMs whose `isActivatedEIP` is a Set lookup: the
 * interpreter asks it several times per opcode, and Common scans an array. The hardfork never
 * changes on a running chain, so the set is fixed. The app's own Common is left untouched.
 */
function fastCommon(common: Common): Common {
  const copy = common.copy();
  const active = new Set<number>((copy as unknown as { _activatedEIPsCache: number[] })._activatedEIPsCache);
  copy.isActivatedEIP = (eip: number) => active.has(eip);
  return copy;
}

/** Map used as a small LRU; failed promises are dropped so the next call retries. */
function remember<K, V>(map: Map<K, Promise<V>>, key: K, p: Promise<V>, max: number): void {
  if (map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, p);
  p.catch(() => {
    if (map.get(key) === p) map.delete(key);
  });
}
