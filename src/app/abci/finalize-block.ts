/**
 * FinalizeBlock of the EVM app: the block's txs (decoded through the tx cache) run on the live state
 * and a working copy of the IBC store; the result is the ABCI response and the block as Commit
 * persists it (record, meta, account and IBC writes).
 */
import type { Logger } from 'pino';
import { Address } from '@ethereumjs/util';
import type { RequestFinalizeBlock, ResponseFinalizeBlock } from '../../abci/types.js';
import { toPrefixedHex as hex } from '../../crypto/encoding.js';
import { timestampToNs } from '../../types/time.js';
import type { AppStores } from '../../ibc/app-stores.js';
import { evmAppHash } from '../../ibc/app-stores.js';
import type { IbcStore } from '../../ibc/ibc-store.js';
import { IBC_STORE_KEY } from '../../ibc/keys.js';
import type { CosmosChainEnv } from '../cosmos/cosmos-exec.js';
import { TxRejectedError } from '../errors.js';
import { executeBlock, type BlockTx } from '../execution/execute-block.js';
import type { EvmRuntime } from '../execution/evm-runtime.js';
import { blockGasLimit, nextBaseFee } from '../execution/fee-market.js';
import { blockEvents } from '../execution/tx-events.js';
import type { AppMeta } from '../stores/app-store.js';
import type { BlockRecord } from '../stores/block-record.js';
import type { AccountWrites } from '../stores/committed-state.js';
import { parentHashOf } from './evm-stores.js';
import type { DecodedTxCache } from './tx-cache.js';

/** A finalized block waiting for Commit. */
export interface FinalizedBlock {
  record: BlockRecord;
  meta: AppMeta;
  cometHashes: string[];
  /** The accounts the block wrote, for the committed state at Commit. */
  accountWrites: AccountWrites;
  /** The block's working copy of the IBC store. */
  ibc: IbcStore;
  /** The keys the block wrote to the IBC store (undefined: deleted). */
  ibcWrites: [string, Uint8Array | undefined][];
}

export interface FinalizeContext {
  rt: EvmRuntime;
  /** The committed meta the block follows. */
  meta: AppMeta;
  txCache: DecodedTxCache;
  /** The devnet's coinbase override; undefined: the proposer's address. */
  coinbaseOverride: Address | undefined;
  /** The committed IBC store (the block runs on a copy). */
  ibc: IbcStore;
  stores: AppStores;
  cosmosEnv(height: number, baseFee: bigint, ibc: IbcStore, timeNs: bigint): CosmosChainEnv;
  /** Told the block's time before execution (Simulate runs at the last block's time). */
  onBlockTime(timeNs: bigint): void;
  minGasPrice: bigint;
  /** Plain transfers and the interpreter shortcuts (off: reference execution). */
  fastExecution: boolean;
  logger?: Logger;
}

/** Executes the block of `req` on the live state; the caller keeps `pending` for Commit. */
export async function finalizeEvmBlock(ctx: FinalizeContext, req: RequestFinalizeBlock): Promise<{ response: ResponseFinalizeBlock; pending: FinalizedBlock }> {
  const started = performance.now();
  const { rt, meta } = ctx;
  rt.accountWrites.take(); // nothing but this block may reach the committed state at Commit
  const config = meta.config;
  const baseFee = BigInt(meta.nextBaseFee);
  const gasLimit = blockGasLimit(config.maxGas);
  const env = {
    height: req.height,
    hash: req.hash,
    timestamp: BigInt(req.time.seconds),
    coinbase: ctx.coinbaseOverride ?? coinbaseOf(req.proposerAddress),
    gasLimit,
    baseFee,
  };
  const cometHashes: string[] = [];
  const items: BlockTx[] = req.txs.map((bytes) => {
    try {
      const d = ctx.txCache.decode(bytes, rt.txCommon);
      cometHashes.push(d.cometHashHex);
      return d;
    } catch (e) {
      if (e instanceof TxRejectedError) return e;
      throw e;
    }
  });
  const ibc = ctx.ibc.copy();
  ctx.stores.resetWorking();
  const timeNs = timestampToNs(req.time);
  ctx.onBlockTime(timeNs);
  const exec = await executeBlock(rt.vm, rt.common, env, items, ctx.cosmosEnv(req.height, baseFee, ibc, timeNs), rt.ics20, ctx.fastExecution);
  const stateRoot = await rt.state.getStateRoot();
  const accountWrites = rt.accountWrites.take();
  const ibcWrites = ibc.takeWrites();
  ctx.stores.apply(IBC_STORE_KEY, ibcWrites);
  const ibcTree = ctx.stores.tree(IBC_STORE_KEY);
  const ibcRoot = ibcTree.size > 0 ? ibcTree.workingRoot() : undefined;

  const record: BlockRecord = {
    number: req.height,
    hash: req.hash,
    parentHash: parentHashOf(meta),
    timestamp: env.timestamp,
    coinbase: env.coinbase,
    gasLimit,
    gasUsed: exec.gasUsed,
    baseFee,
    stateRoot,
    bloom: exec.bloom,
    txs: exec.executed,
  };
  const next = nextBaseFee({ gasUsed: exec.gasUsed, gasLimit, baseFee }, ctx.minGasPrice);
  const pending: FinalizedBlock = {
    record,
    cometHashes,
    accountWrites,
    ibc,
    ibcWrites,
    meta: {
      ...meta,
      lastHeight: req.height,
      lastAppHash: hex(stateRoot),
      lastBlockHash: hex(req.hash),
      nextBaseFee: next.toString(),
      lastIbcRoot: ibcRoot && hex(ibcRoot),
    },
  };
  const logger = ctx.logger;
  if (logger?.isLevelEnabled('debug')) {
    logger.debug({ height: req.height, txs: req.txs.length, gasUsed: exec.gasUsed.toString(), ms: performance.now() - started }, 'evm block executed');
  }
  // The app hash is the multistore root over the EVM state root and the IBC tree's root.
  const response = { events: blockEvents(exec.bloom, baseFee), txResults: exec.txResults, validatorUpdates: [], appHash: evmAppHash(stateRoot, ibcRoot) };
  return { response, pending };
}

/** CometBFT proposer addresses are 20 bytes; anything else maps to the zero address. */
function coinbaseOf(proposer: Uint8Array): Address {
  return new Address(proposer.length === 20 ? Uint8Array.from(proposer) : new Uint8Array(20));
}
