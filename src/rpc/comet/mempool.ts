/**
 * Tx submission and the mempool view (rpc/core/mempool.go): broadcast_tx_async / _sync / _commit,
 * check_tx, unconfirmed_txs, num_unconfirmed_txs and the unsafe unsafe_flush_mempool.
 *
 *   broadcast_tx_commit:  subscribe Tx(hash) ──> CheckTx ──code≠0──> answer at once (height "0")
 *                                                   └──ok──> wait for the Tx event, or time out
 */
import { hex, i64 } from '../../codec/json/comet-json.js';
import { emptyExecTxResult, encodeExecTxResult, encodeResponseCheckTx } from '../../codec/json/comet-json-abci.js';
import { CheckTxType } from '../../abci/types.js';
import { toHexUpper } from '../../crypto/encoding.js';
import { SubscriptionNotFoundError } from '../../events/errors.js';
import { MempoolFullError, TxInCacheError, TxTooLargeError } from '../../mempool/errors.js';
import type { Subscription } from '../../events/subscription.js';
import { txHash } from '../../types/txs.js';
import type { CallContext } from './context.js';
import type { CometEnv } from './env.js';
import { BroadcastTimeoutError, CometHandlerError } from './errors.js';
import { checkSubscriptionLimits } from './events.js';
import type { ResultBroadcastTx, ResultBroadcastTxCommit, ResultCheckTx, ResultEmpty, ResultUnconfirmedTxs } from './results.js';
import { validatePerPage } from './rules.js';
import { timerMs } from '../../util/timer.js';

const nextMacrotask = () => new Promise<'pending'>((resolve) => setImmediate(() => resolve('pending')));

/** CometBFT's cheap mempool checks, in its order, answered without waiting for the pool's lock. */
function precheck(env: CometEnv, tx: Uint8Array, hash: Uint8Array): void {
  const m = env.mempool;
  const { size, maxTxsBytes, maxTxBytes } = m.limits;
  // A full pool holding queued txs may still take an executable tx: the mempool decides after CheckTx.
  if ((m.size() >= size || m.sizeBytes() + tx.length > maxTxsBytes) && !m.hasQueued()) {
    throw new MempoolFullError({ numTxs: m.size(), maxTxs: size, txsBytes: m.sizeBytes(), maxTxsBytes });
  }
  if (tx.length > maxTxBytes) throw new TxTooLargeError({ max: maxTxBytes, actual: tx.length });
  if (m.has(hash)) throw new TxInCacheError();
}

/**
 * Returns once the mempool's pre-checks passed, without waiting for the app's CheckTx.
 * More: https://docs.cometbft.com/v0.38/rpc/#/Tx/broadcast_tx_async
 */
export async function broadcastTxAsync(env: CometEnv, tx: Uint8Array): Promise<ResultBroadcastTx> {
  const hash = txHash(tx);
  precheck(env, tx, hash);
  const pending = env.mempool.checkTx(tx);
  // The seen cache also holds committed txs: the pool reports a hit there within this
  // macrotask unless a commit holds its lock; later failures are only logged, as in CometBFT.
  const early = await Promise.race([
    pending.then(
      () => 'done' as const,
      (err: unknown) => ({ err }),
    ),
    nextMacrotask(),
  ]);
  if (typeof early === 'object') throw early.err;
  if (early === 'pending') pending.catch((err: unknown) => env.logger.debug({ err }, 'broadcast_tx_async: tx rejected'));
  return { code: 0, data: '', log: '', codespace: '', hash: hex(hash) };
}

/** Waits for CheckTx. More: https://docs.cometbft.com/v0.38/rpc/#/Tx/broadcast_tx_sync */
export async function broadcastTxSync(env: CometEnv, tx: Uint8Array): Promise<ResultBroadcastTx> {
  const res = await env.mempool.checkTx(tx);
  return { code: res.code, data: hex(res.data), log: res.log, codespace: res.codespace, hash: hex(txHash(tx)) };
}

async function nextWithTimeout(sub: Subscription, ms: number, signal: AbortSignal): Promise<'timeout' | 'aborted' | Awaited<ReturnType<Subscription['next']>>> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      sub.next(),
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timerMs(ms)))),
      new Promise<'aborted'>((resolve) => {
        onAbort = () => resolve('aborted');
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Waits for CheckTx and then for the tx's inclusion, up to `timeout_broadcast_tx_commit`.
 * More: https://docs.cometbft.com/v0.38/rpc/#/Tx/broadcast_tx_commit
 */
export async function broadcastTxCommit(env: CometEnv, ctx: CallContext, tx: Uint8Array): Promise<ResultBroadcastTxCommit> {
  const subscriber = ctx.remoteAddr;
  checkSubscriptionLimits(env, subscriber);
  const hash = txHash(tx);
  const query = `tm.event = 'Tx' AND tx.hash = '${toHexUpper(hash)}'`;
  let sub: Subscription;
  try {
    sub = env.eventBus.subscribe(subscriber, query);
  } catch (err) {
    throw new CometHandlerError(`failed to subscribe to tx: ${(err as Error).message}`);
  }
  try {
    let checkRes;
    try {
      checkRes = await env.mempool.checkTx(tx);
    } catch (err) {
      throw new CometHandlerError(`error on broadcastTxCommit: ${(err as Error).message}`);
    }
    const checkTx = encodeResponseCheckTx(checkRes);
    const base = { check_tx: checkTx, tx_result: emptyExecTxResult(), hash: hex(hash), height: '0' };
    if (checkRes.code !== 0) return base;

    const got = await nextWithTimeout(sub, env.config.timeoutBroadcastTxCommitMs, ctx.signal);
    if (got === 'timeout') throw new BroadcastTimeoutError(env.config.timeoutBroadcastTxCommitMs);
    if (got === 'aborted') throw new CometHandlerError('broadcast confirmation not received: context canceled');
    if (got === undefined || got.data.type !== 'Tx') {
      throw new CometHandlerError(`txSub was canceled (reason: ${sub.cancelReason ?? 'CometBFT exited'})`);
    }
    const r = got.data.value.txResult;
    return { check_tx: checkTx, tx_result: encodeExecTxResult(r.result), hash: hex(hash), height: i64(r.height) };
  } finally {
    try {
      env.eventBus.unsubscribe(subscriber, query);
    } catch (err) {
      if (!(err instanceof SubscriptionNotFoundError)) env.logger.error({ err }, 'broadcast_tx_commit: unsubscribe failed');
    }
  }
}

/** CheckTx without admitting the tx. More: https://docs.cometbft.com/v0.38/rpc/#/Tx/check_tx */
export async function checkTx(env: CometEnv, tx: Uint8Array): Promise<ResultCheckTx> {
  return encodeResponseCheckTx(await env.appMempool.checkTx({ tx, type: CheckTxType.New }));
}

/** Up to `limit` (default 30, max 100) pending txs. More: https://docs.cometbft.com/v0.38/rpc/#/Info/unconfirmed_txs */
export function unconfirmedTxs(env: CometEnv, limit: number | undefined): ResultUnconfirmedTxs {
  const txs = env.mempool.reapMaxTxs(validatePerPage(limit));
  return {
    n_txs: i64(txs.length),
    total: i64(env.mempool.size()),
    total_bytes: i64(env.mempool.sizeBytes()),
    txs: txs.map((t) => Buffer.from(t).toString('base64')),
  };
}

/** More: https://docs.cometbft.com/v0.38/rpc/#/Info/num_unconfirmed_txs */
export function numUnconfirmedTxs(env: CometEnv): ResultUnconfirmedTxs {
  const n = env.mempool.size();
  return { n_txs: i64(n), total: i64(n), total_bytes: i64(env.mempool.sizeBytes()), txs: null };
}

/** Unsafe. More: https://docs.cometbft.com/v0.38/rpc/#/Unsafe/unsafe_flush_mempool */
export function unsafeFlushMempool(env: CometEnv): ResultEmpty {
  env.mempool.flush();
  return {};
}
