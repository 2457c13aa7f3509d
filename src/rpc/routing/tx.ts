/**
 * POST /v2/tx/submit, POST /v2/tx/track and GET /v2/tx/status.
 *
 *   submit: base64 → hosted chain? → CheckTx + mempool → register both hashes → {tx_hash, explorer_link}
 *   track:  hex hash → hosted chain? → failed on chain? (400) → register → {tx_hash, explorer_link}
 *   status: registered (or committed before this start)? (404 `tx not found`) → observe the chain → state machine → StatusTxResponse
 *
 * Registration happens before the reply, so the first status call (the official client aborts on a
 * 404) already sees the tx. `tx_hash` is the hash users of the named chain know: upper-case hex
 * SHA-256 on the Cosmos face, 0x keccak-256 on the EVM face.
 */
import { keccak256 } from '../../crypto/keccak.js';
import { toHex, toHexUpper } from '../../crypto/encoding.js';
import { sha256 } from '../../crypto/hash.js';
import { MempoolError, MempoolFullError, TxInCacheError } from '../../mempool/errors.js';
import type { ResponseCheckTx } from '../../abci/types.js';
import type { RoutingChain } from './env.js';
import { resolveChain, type ChainType } from './chains.js';
import type { Reply, RouteContext } from './context.js';
import { json } from './context.js';
import type { SubmitRequest, TxRef } from './decode.js';
import { ChainBusyError, InvalidArgumentError, TxInvalidOnChainError, TxNotFoundError, TxRejectedError } from './errors.js';
import type { StatusError, TxState } from './tx-status.js';
import {
  combineTransfers,
  transferStatusOf,
  type NextBlockingTransferJson,
  type TransferAssetReleaseJson,
  type TransferEventJson,
  type TransferStatusJson,
  type TransferTxState,
} from './transfer-status.js';

export interface TxHashResponse {
  tx_hash: string;
  explorer_link: string;
}

export interface StatusTxResponse {
  state: TxState | TransferTxState;
  /** One entry per transfer the tx initiated: none for a single-chain tx. */
  transfers: TransferStatusJson[];
  /** Deprecated flat list, kept because the schema requires it. */
  transfer_sequence: TransferEventJson[];
  next_blocking_transfer: NextBlockingTransferJson | null;
  transfer_asset_release: TransferAssetReleaseJson | null;
  error: StatusError | null;
  /** High-level indicator: STATE_COMPLETED once the tx settled with a result. */
  status: string;
}

export const EXPLORER_PREFIX = '/explorer/tx/';

function displayHash(type: ChainType, cometHash: Uint8Array, ethHash: Uint8Array | undefined, rc?: RoutingChain): string {
  if (rc?.displayHash) return rc.displayHash(cometHash);
  return type === 'evm' && ethHash ? `0x${toHex(ethHash)}` : toHexUpper(cometHash);
}

function reply(ctx: RouteContext, txHash: string): Reply {
  const body: TxHashResponse = { tx_hash: txHash, explorer_link: `${ctx.baseUrl()}${EXPLORER_PREFIX}${txHash}` };
  return json(body);
}

async function admit(rc: RoutingChain, tx: Uint8Array, cometHash: Uint8Array): Promise<ResponseCheckTx | 'known'> {
  try {
    return await rc.checkTx(tx);
  } catch (err) {
    // A retried submit of a tx the chain already holds is not an error: it is being tracked.
    if (err instanceof TxInCacheError && (rc.pooledTx(cometHash) || (await rc.findTx(cometHash)))) return 'known';
    if (err instanceof MempoolFullError) throw new ChainBusyError(err.message, { cause: err });
    if (err instanceof MempoolError) throw new InvalidArgumentError(err.message, { cause: err });
    throw err;
  }
}

export async function handleSubmit(ctx: RouteContext, req: SubmitRequest): Promise<Reply> {
  const { chain: rc, type } = resolveChain(ctx.env, req.chainId);
  if (rc.submitTx) {
    const sent = await rc.submitTx(req.tx);
    ctx.tracker.register(rc, [sent.hash]);
    return reply(ctx, sent.display);
  }
  const cometHash = sha256(req.tx);
  const res = await admit(rc, req.tx, cometHash);
  if (res !== 'known' && res.code !== 0) throw new TxRejectedError({ log: res.log, chainCode: res.code, codespace: res.codespace });
  const ethHash = (res !== 'known' ? res.ethHash : undefined) ?? keccak256(req.tx);
  ctx.tracker.register(rc, [cometHash, ethHash]);
  ctx.env.logger.debug({ txHash: toHexUpper(cometHash), ethHash: toHex(ethHash) }, 'routing: tx submitted');
  return reply(ctx, displayHash(type, cometHash, ethHash));
}

export async function handleTrack(ctx: RouteContext, req: TxRef): Promise<Reply> {
  const { chain: rc, type } = resolveChain(ctx.env, req.chainId);
  const found = await rc.findTx(req.txHash);
  if (found?.outcome && !found.outcome.ok) throw new TxInvalidOnChainError({ chainCode: found.outcome.code, chainLog: found.outcome.log });
  if (found) {
    ctx.tracker.register(rc, [found.cometHash, found.ethHash]);
    return reply(ctx, displayHash(type, found.cometHash, found.ethHash, rc));
  }
  const pooled = rc.pooledTx(req.txHash);
  if (pooled) {
    ctx.tracker.register(rc, pooled.ethHash ? [pooled.cometHash, pooled.ethHash] : [pooled.cometHash]);
    return reply(ctx, displayHash(type, pooled.cometHash, pooled.ethHash, rc));
  }
  // Not seen yet: track it under the given hash, written the way the named chain writes hashes.
  ctx.tracker.register(rc, [req.txHash]);
  return reply(ctx, rc.displayHash ? rc.displayHash(req.txHash) : type === 'evm' ? `0x${toHex(req.txHash)}` : toHexUpper(req.txHash));
}

export async function handleStatus(ctx: RouteContext, req: TxRef): Promise<Reply> {
  const { chain: rc } = resolveChain(ctx.env, req.chainId);
  // Registered here, or committed before this start (a restarted home may have tracked it before its stop).
  const rec = ctx.tracker.get(req.txHash) ?? (await ctx.tracker.recall(rc, req.txHash));
  if (!rec || rec.chain !== rc) throw new TxNotFoundError(toHex(req.txHash));
  const s = await ctx.tracker.refresh(rec);
  const settled = s.state === 'STATE_COMPLETED_SUCCESS' || s.state === 'STATE_COMPLETED_ERROR';
  const body: StatusTxResponse = {
    state: s.state,
    transfers: [],
    transfer_sequence: [],
    next_blocking_transfer: null,
    transfer_asset_release: null,
    error: s.error,
    status: settled ? 'STATE_COMPLETED' : s.state,
  };
  // A tx that sent IBC packets is done only when its transfers are (REFERENCE-COSMOS §5.3).
  if (s.state === 'STATE_COMPLETED_SUCCESS' && ctx.env.ibcTransfers) {
    const found = await rc.findTx(req.txHash);
    const lifecycles = found ? await ctx.env.ibcTransfers(rc.chain.cosmosChainId, found.cometHash, found.height) : [];
    if (lifecycles.length > 0) {
      const t = combineTransfers(lifecycles.map(transferStatusOf));
      const done = t.state === 'STATE_COMPLETED_SUCCESS' || t.state === 'STATE_COMPLETED_ERROR';
      Object.assign(body, {
        state: t.state,
        transfers: t.transfers,
        transfer_sequence: t.transfer_sequence,
        next_blocking_transfer: t.next_blocking_transfer,
        transfer_asset_release: t.transfer_asset_release,
        error: t.error,
        status: done ? 'STATE_COMPLETED' : t.state,
      });
    }
  }
  return json(body);
}
