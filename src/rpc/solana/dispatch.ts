/**
 * The Solana JSON-RPC on the shared JSON-RPC 2.0 core (src/rpc/jsonrpc), with the forms
 * solana-test-validator's jsonrpc-core answers in:
 *
 *   body ─ depth > max / not JSON ─────▶ -32700 "Parse error", id null
 *        ─ [] / item not a request ─────▶ -32600 "Invalid request" (per item in a batch), id null
 *          or an id not string/number/null (object, array, 1e400)
 *        ─ no id ───────────────────────▶ notification: run, nothing answered
 *        ─ params not an array ─────────▶ -32602 "Invalid params: expected an array"
 *        ─ extra(method) (WS subscriptions) ─ else the method table (own names only) ─ else -32601
 *        ─ result ─────────────────────▶ u64 bigints as bare JSON numbers
 */
import type { Logger } from 'pino';
import { DEFAULT_MAX_JSON_DEPTH, dispatchJsonRpc, methodTable, parseJsonRpcBody, type DispatchOptions, type JsonRpcError } from '../jsonrpc/index.js';
import { methodNotFound, SolanaRpcError } from './errors.js';
import { stringifyWithBigints } from './json.js';
import { SOLANA_METHODS, type SolanaEnv } from './methods.js';

/** A transport's own methods (the WebSocket subscriptions): a result, or undefined when `method` is not one of them. */
export type ExtraMethods = (method: string, params: unknown[]) => unknown;

/** jsonrpc-core's texts. */
const SOLANA_TEXTS = {
  parse: 'Parse error',
  invalidRequest: 'Invalid request',
  methodNotFound: 'Method not found',
  invalidParams: 'Invalid params',
  internal: 'Internal error',
};

/** Looked up by the request's method name: a Map, so `constructor` or `__proto__` is just unknown. */
const METHODS = methodTable(SOLANA_METHODS);

export interface SolanaDispatcherOptions {
  logger: Logger;
  /** Deepest nesting of arrays/objects in a body (default 128, serde_json's limit); 0 = no limit. */
  maxJsonDepth?: number;
}

export interface SolanaDispatcher {
  /** A body (one request or a batch) → the response body; undefined when only notifications came. */
  handleBody(text: string | Uint8Array, extra?: ExtraMethods): Promise<string | undefined>;
}

export function createSolanaDispatcher(env: SolanaEnv, o: SolanaDispatcherOptions): SolanaDispatcher {
  const maxDepth = o.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const toError = (e: unknown): JsonRpcError => {
    if (e instanceof SolanaRpcError) return e.data !== undefined ? { code: e.code, message: e.message, data: e.data } : { code: e.code, message: e.message };
    o.logger.error({ err: e }, 'solana rpc method failed');
    return { code: -32603, message: `Internal error: ${e instanceof Error ? e.message : String(e)}` };
  };
  const opts: DispatchOptions = {
    maxBatch: 0,
    onBatchTooLarge: () => ({ code: -32600, message: SOLANA_TEXTS.invalidRequest }),
    notificationsGetNoResponse: true,
    texts: SOLANA_TEXTS,
    toError,
    stringify: (v) => (v === undefined ? undefined : stringifyWithBigints(v)),
  };
  return {
    async handleBody(text, extra) {
      const parsed = parseJsonRpcBody(text, { texts: SOLANA_TEXTS, reasonAsData: false, maxDepth });
      const out = await dispatchJsonRpc(
        parsed,
        (req) => {
          const params = req.params === undefined ? [] : req.params;
          if (!Array.isArray(params)) throw new SolanaRpcError(-32602, 'Invalid params: expected an array');
          const ext = extra?.(req.method, params);
          if (ext !== undefined) return ext;
          const m = METHODS.get(req.method);
          if (m === undefined) throw methodNotFound();
          return m(env, params);
        },
        opts,
      );
      return out.body;
    },
  };
}
