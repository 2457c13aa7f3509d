/**
 * The parts of a node that devnet control works on, handed over once by the node (node.ts).
 * Everything here is used between heights only: inside `consensus.exclusive`.
 */
import type { AbstractLevel } from 'abstract-level';
import type { Logger } from 'pino';
import type { AppInternals } from '../../app/app-internals.js';
import type { EvmApp } from '../../app/evm-app.js';
import type { ConsensusEngine } from '../../consensus/engine.js';
import type { LocalValidator } from '../../consensus/validator.js';
import type { EventBus } from '../../events/bus.js';
import type { Mempool } from '../../mempool/mempool.js';
import type { IndexerService } from '../../store/indexer-service.js';
import type { StateStore } from '../../store/state-store.js';
import type { RangeRegistry } from './range-registry.js';
import type { RangeAwareBlockStore } from './range-stores.js';

/** The node's root database (every store is a sublevel of it). */
export type RootDb = AbstractLevel<string | Uint8Array | Buffer, string, Uint8Array>;

export interface DevnetParts {
  readonly db: RootDb;
  readonly chainId: string;
  readonly ranges: RangeRegistry;
  readonly blockStore: RangeAwareBlockStore;
  readonly stateStore: StateStore;
  readonly indexer: IndexerService;
  readonly app: EvmApp;
  readonly mempool: Mempool;
  readonly consensus: ConsensusEngine;
  readonly eventBus: EventBus;
  readonly validators: readonly LocalValidator[];
  readonly logger: Logger;
}

export function appOf(parts: DevnetParts): AppInternals {
  return parts.app.devnetAccess();
}
