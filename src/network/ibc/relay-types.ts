/** What the relayer needs of each chain, its options and status, and its view of one end of a path. */
import type { Logger } from 'pino';
import type { Packet } from 'cosmjs-types/ibc/core/channel/v1/channel';
import type { Height } from 'cosmjs-types/ibc/core/client/v1/client';
import type { ResponseCheckTx, AbciEvent, RequestQuery, ResponseQuery } from '../../abci/types.js';
import type { Subscription } from '../../events/subscription.js';
import type { Header, Commit } from '../../types/block.js';
import type { ValidatorSet } from '../../types/validator-set.js';
import type { IbcStore } from '../../ibc/ibc-store.js';
import type { RelayerKey } from './relayer-key.js';
import type { TxEventSearch } from './resume.js';

/** What the relayer needs of one chain. */
export interface RelayChain {
  chainId: string;
  bech32Prefix: string;
  feeDenom: string;
  key: RelayerKey;
  /** Fee per unit of gas the chain accepts now. */
  gasPrice(): bigint;
  ibcStore(): IbcStore;
  accountNumber(address: Uint8Array): Promise<bigint>;
  accountSequence(address: Uint8Array): Promise<bigint>;
  broadcastTx(tx: Uint8Array): Promise<ResponseCheckTx>;
  subscribe(query: string, subscriber?: string): Subscription;
  height(): number;
  /** The header and commit of a committed height, and the validator set that signed it. */
  signedHeader(height: number): Promise<{ header: Header; commit: Commit; validators: ValidatorSet } | undefined>;
  /** The events of committed txs matching a tx_search query: a restarted relayer finds the packets in flight there. */
  txEvents?: TxEventSearch;
  /** The chain's ABCI Query (`/store/ibc/key` with `prove`: the proofs an outside relayer reads through `abci_query`). */
  query(req: RequestQuery): Promise<ResponseQuery>;
  /** Produces one block now: a proof of height h's state needs header h + 1, which an idle automine chain never makes. */
  mine(): Promise<void>;
}

export interface RelayerOptions {
  /** 'block': relay after every block of either chain (default); 'manual': only on flush(). */
  mode?: 'block' | 'manual';
  logger?: Logger;
  /** Gas limit of a relayer tx (default 2 000 000). */
  gasLimit?: bigint;
  /**
   * How long a relay tx may wait for its block (default 60 s). Past it (the tx was dropped from the
   * mempool: a devnet revert or drop), the relayer takes the account's sequence from the chain again
   * and the packets are relayed on a later round.
   */
  inclusionTimeoutMs?: number;
}

/** One end of the path: its chain, the ids opened on it, and the relayer account there. */
export interface End {
  chain: RelayChain;
  clientId: string;
  connectionId: string;
  channelId: string;
  sequence: bigint;
  accountNumber: bigint;
}

export interface TrackedPacket {
  packet: Packet;
  /** The ack the destination wrote, once seen. */
  ack?: Uint8Array;
}

export interface RelayerStatus {
  paused: boolean;
  mode: 'block' | 'manual';
  paths: { chainA: string; chainB: string; channelA: string; channelB: string; connectionA: string; connectionB: string; clientA: string; clientB: string }[];
  pending: { fromChainId: string; sequence: string; stage: 'receive' | 'acknowledge' | 'timeout' }[];
}

export const height = (h: number): Height => ({ revisionNumber: 0n, revisionHeight: BigInt(h) });

/** An attribute of the first event of a type in a tx's events (a relayer tx must have emitted it). */
export function attr(events: AbciEvent[], type: string, key: string): string {
  const v = events.find((e) => e.type === type)?.attributes.find((a) => a.key === key)?.value;
  if (v === undefined) throw new Error(`relayer: no ${type}.${key} in the tx's events`);
  return v;
}
