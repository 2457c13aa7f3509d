/**
 * Runs parsed JSON-RPC requests through a family's `call` and writes the response body.
 *
 *   parsed ─ error ──────────────▶ one error response
 *          ─ single ─ call ───────▶ result | error (thrown JsonRpcErrorException → its error,
 *          │                        anything else → internal error with the message as data)
 *          ─ batch ─ > maxBatch ──▶ onBatchTooLarge() (bare object, or geth's one-element array)
 *                    └ calls run concurrently, responses keep request order,
 *                      notifications and all-notification batches answer nothing.
 * With maxResponseBytes, the response that crosses the cumulative size and all after it become
 * `response too large` errors (geth's batch-response-max-size rule).
 *
 * Hot path (eth_call benchmarks): a single request allocates one result string and no arrays.
 */
import { ErrorCode, JsonRpcErrorException, SPEC_ERROR_TEXTS, responseTooLarge, rpcError, type ErrorTexts } from './errors.js';
import { InvalidRequestItem, type BatchItem, type ParsedBody } from './parse.js';
import { errorJson, exceedsBytes, successJson } from './serialize.js';
import type { JsonRpcError, JsonRpcId, JsonRpcRequest } from './types.js';

export type JsonRpcCall = (req: JsonRpcRequest) => unknown;

export interface DispatchOptions {
  /** 0 = unlimited. */
  maxBatch: number;
  onBatchTooLarge: () => JsonRpcError;
  /** geth answers a too-large batch with `[error]` under the first call's id; CometBFT with a bare object, id null (default). */
  batchTooLargeAsArray?: boolean;
  maxResponseBytes?: number;
  onResponseTooLarge?: () => JsonRpcError;
  notificationsGetNoResponse: boolean;
  /** The spec runs notifications; CometBFT skips them. Default true. */
  executeNotifications?: boolean;
  /** CometBFT reads `"id": null` as a notification; the spec and geth as a call. Default false. */
  nullIdIsNotification?: boolean;
  /** Messages for the errors dispatch itself creates (internal error, response too large). */
  texts?: Partial<ErrorTexts>;
  /** Map a thrown error that is not a JsonRpcErrorException (e.g. a family's error classes); undefined = internal error. */
  toError?: (err: unknown) => JsonRpcError | undefined;
  /** Writes a result (default JSON.stringify); Solana writes u64 bigints as bare numbers. */
  stringify?: (value: unknown) => string | undefined;
}

export interface DispatchResult {
  /** undefined when nothing is to be sent (notifications only). */
  body: string | undefined;
  /** True when the body is a JSON array. */
  isBatch: boolean;
  /** Number of response objects in the body. */
  responses: number;
}

const NOTHING: DispatchResult = Object.freeze({ body: undefined, isBatch: false, responses: 0 });

export async function dispatchJsonRpc(parsed: ParsedBody, call: JsonRpcCall, opts: DispatchOptions): Promise<DispatchResult> {
  if (parsed.kind === 'error') {
    return { body: errorJson(parsed.id, parsed.error), isBatch: false, responses: 1 };
  }
  if (parsed.kind === 'batch') return batch(parsed.reqs, call, opts);
  const req = parsed.req;
  if (isNotification(req, opts) && opts.notificationsGetNoResponse) {
    await runNotification(req, call, opts);
    return NOTHING;
  }
  const id = req.id ?? null;
  let body = await respond(id, req, call, opts);
  const limit = opts.maxResponseBytes;
  if (limit !== undefined && limit > 0 && exceedsBytes(body, limit)) body = errorJson(id, tooLarge(opts));
  return { body, isBatch: false, responses: 1 };
}

async function batch(items: BatchItem[], call: JsonRpcCall, opts: DispatchOptions): Promise<DispatchResult> {
  if (opts.maxBatch > 0 && items.length > opts.maxBatch) {
    const error = opts.onBatchTooLarge();
    if (!opts.batchTooLargeAsArray) return { body: errorJson(null, error), isBatch: false, responses: 1 };
    const first = items.find((i): i is JsonRpcRequest => !(i instanceof InvalidRequestItem) && !isNotification(i, opts));
    return { body: `[${errorJson(first?.id ?? null, error)}]`, isBatch: true, responses: 1 };
  }

  // One slot per item, in request order; undefined = no response (notification).
  const parts = await Promise.all(
    items.map(async (item): Promise<{ id: JsonRpcId; json: string } | undefined> => {
      if (item instanceof InvalidRequestItem) return { id: item.id, json: errorJson(item.id, item.error) };
      if (isNotification(item, opts) && opts.notificationsGetNoResponse) {
        await runNotification(item, call, opts);
        return undefined;
      }
      const id = item.id ?? null;
      return { id, json: await respond(id, item, call, opts) };
    }),
  );

  const limit = opts.maxResponseBytes !== undefined && opts.maxResponseBytes > 0 ? opts.maxResponseBytes : 0;
  let body = '';
  let count = 0;
  let size = 2; // '[' and ']'
  let overflow = false;
  for (const p of parts) {
    if (!p) continue;
    let json = p.json;
    if (limit > 0) {
      if (!overflow) {
        size += Buffer.byteLength(json) + (count === 0 ? 0 : 1);
        overflow = size > limit;
      }
      if (overflow) json = errorJson(p.id, tooLarge(opts));
    }
    body += count === 0 ? json : `,${json}`;
    count++;
  }
  if (count === 0) return NOTHING;
  return { body: `[${body}]`, isBatch: true, responses: count };
}

function isNotification(req: JsonRpcRequest, opts: DispatchOptions): boolean {
  return req.id === undefined || (req.id === null && opts.nullIdIsNotification === true);
}

/** Notifications run only for their side effect; the outcome is dropped. */
async function runNotification(req: JsonRpcRequest, call: JsonRpcCall, opts: DispatchOptions): Promise<void> {
  if (opts.executeNotifications === false) return;
  try {
    await call(req);
  } catch {
    // nobody to tell
  }
}

/** One response string for one call; never throws. */
async function respond(id: JsonRpcId, req: JsonRpcRequest, call: JsonRpcCall, opts: DispatchOptions): Promise<string> {
  try {
    return successJson(id, await call(req), opts.stringify);
  } catch (err) {
    return errorJson(id, toRpcError(err, opts));
  }
}

function toRpcError(err: unknown, opts: DispatchOptions): JsonRpcError {
  if (err instanceof JsonRpcErrorException) return err.error;
  const mapped = opts.toError?.(err);
  if (mapped) return mapped;
  const message = err instanceof Error ? err.message : String(err);
  return rpcError(ErrorCode.InternalError, opts.texts?.internal ?? SPEC_ERROR_TEXTS.internal, message);
}

function tooLarge(opts: DispatchOptions): JsonRpcError {
  return opts.onResponseTooLarge?.() ?? responseTooLarge(undefined, opts.texts?.responseTooLarge);
}
