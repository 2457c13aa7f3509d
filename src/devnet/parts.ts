/**
 * What devnet control works on, handed over once by the node (node.ts): the consensus engine's and
 * the EVM app's admin interfaces, the mempool and the root database (for snapshots and dumps).
 * Everything that changes the chain runs between heights: inside `consensus.exclusive`.
 */
import type { AbstractLevel } from 'abstract-level';
import type { Logger } from 'pino';
import type { AppAdmin } from '../app/abci/app-admin.js';
import type { ConsensusAdmin } from '../consensus/admin.js';
import type { Mempool } from '../mempool/mempool.js';

/** The node's root database (every store is a sublevel of it). */
export type RootDb = AbstractLevel<string | Uint8Array | Buffer, string, Uint8Array>;

export interface DevnetParts {
  readonly db: RootDb;
  readonly chainId: string;
  readonly consensus: ConsensusAdmin;
  readonly app: AppAdmin;
  readonly mempool: Mempool;
  readonly logger: Logger;
}

/**
 * After the database was rewritten underneath (revert, reset, state load): the stores and the
 * consensus head, then the app, read it again; the mempool is emptied (the caller re-admits what
 * it wants). Inside `consensus.exclusive`.
 */
export async function reloadFromDb(parts: DevnetParts): Promise<void> {
  await parts.consensus.reloadHead();
  await parts.app.reload();
  parts.mempool.flush();
}
