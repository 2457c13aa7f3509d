/**
 * The one dispatcher of the Ethereum JSON-RPC, shared by HTTP, WebSocket and the in-process
 * provider:
 *
 *   body ─ parse (geth texts) ─ batch limit ─ per request: look up (enabled namespaces only;
 *        seed-unsupported → "not supported"; else "does not exist/is not available", with how to
 *        enable its namespace when one is off)
 *        ─ decode params (routes table) ─ handler(env, args, ctx) ─ result | geth error
 */
import { dispatchJsonRpc, InvalidRequestItem, parseJsonRpcBody, type DispatchOptions } from '../jsonrpc/index.js';
import { JSON_RPC_NAMESPACES } from '../../config/keys.js';
import type { JsonRpcConfig } from '../../config/types.js';
import type { EthEnv } from './env.js';
import { EthRpcError, GethText, MethodNotFoundError, NotSupportedError, toJsonRpcError } from './errors.js';
import { decodeParams } from './params.js';
import type { AnyEthRoute, CallContext } from './route.js';
import { ETH_ROUTES, UNSUPPORTED } from './routes.js';

/** geth's texts for the errors the JSON-RPC core itself produces. */
const GETH_TEXTS = { parse: 'parse error', invalidRequest: 'invalid request', internal: 'internal error', responseTooLarge: GethText.responseTooLarge };

function isUnsupported(method: string): boolean {
  return UNSUPPORTED.methods.includes(method) || UNSUPPORTED.prefixes.some((p) => method.startsWith(p));
}

export class EthDispatcher {
  private readonly table = new Map<string, AnyEthRoute>();
  /** Methods of the namespaces `api` leaves off → the namespace, for the hint on how to enable it. */
  private readonly off = new Map<string, string>();
  private readonly enableHint: (namespace: string) => string;
  private readonly batchOpts: DispatchOptions;
  private readonly singleOpts: DispatchOptions;

  constructor(
    private readonly env: EthEnv,
    namespaces: ReadonlySet<string>,
    routes: readonly AnyEthRoute[] = ETH_ROUTES,
  ) {
    for (const r of routes) {
      if (!namespaces.has(r.namespace)) {
        for (const m of [r.method, ...r.aliases]) this.off.set(m, r.namespace);
        continue;
      }
      this.table.set(r.method, r);
      for (const a of r.aliases) this.table.set(a, r);
    }
    const config: JsonRpcConfig = env.config;
    const api = config.api.join(',');
    this.enableHint = (ns) =>
      (JSON_RPC_NAMESPACES as readonly string[]).includes(ns)
        ? `the ${ns} namespace is off: start with --json-rpc.api ${api ? `${api},` : ''}${ns}, or add "${ns}" to [json-rpc] api in app.toml`
        : 'devnet control (evm_*, anvil_*, hardhat_*, chainlet_*) is off: start with --evm.devnet, or set [evm] devnet = true in app.toml';
    this.singleOpts = {
      maxBatch: config.batchRequestLimit,
      onBatchTooLarge: () => ({ code: -32600, message: GethText.batchTooLarge }),
      batchTooLargeAsArray: true,
      notificationsGetNoResponse: true,
      texts: GETH_TEXTS,
      toError: toJsonRpcError,
    };
    // geth's batch-response-max-size applies to batches only.
    this.batchOpts = { ...this.singleOpts, maxResponseBytes: config.batchResponseMaxSize };
  }

  /** Whether `method` is served (the namespace is enabled). */
  has(method: string): boolean {
    return this.table.has(method);
  }

  /** Runs one call. Throws EthRpcError (or a JsonRpcErrorException) for an error answer. */
  async call(method: string, params: unknown, ctx: CallContext): Promise<unknown> {
    const observe = this.env.observe;
    if (observe === undefined) return this.run(method, params, ctx);
    const t0 = performance.now();
    const name = this.table.has(method) ? method : 'unknown';
    try {
      const out = await this.run(method, params, ctx);
      observe(name, (performance.now() - t0) / 1000, true);
      return out;
    } catch (e) {
      observe(name, (performance.now() - t0) / 1000, false);
      throw e;
    }
  }

  private async run(method: string, params: unknown, ctx: CallContext): Promise<unknown> {
    const r = this.table.get(method);
    if (r === undefined) {
      if (isUnsupported(method)) throw new NotSupportedError(method);
      const ns = this.off.get(method);
      throw new MethodNotFoundError(method, ns === undefined ? undefined : this.enableHint(ns));
    }
    if (r.wsOnly && ctx.session === undefined) throw new EthRpcError(-32601, 'notifications not supported');
    const args = decodeParams(r.params, params);
    return r.handler(this.env, args as never, ctx);
  }

  /** A whole request body (one request or a batch) → the response body (undefined: nothing to send). */
  async handleBody(body: string | Uint8Array, ctx: CallContext): Promise<string | undefined> {
    let parsed = parseJsonRpcBody(body, { texts: GETH_TEXTS, reasonAsData: true, maxDepth: this.env.config.maxJsonDepth });
    if (parsed.kind === 'error') {
      // geth sends no `data`; an empty batch has its own message.
      const e = parsed.error;
      parsed = { ...parsed, error: e.data === 'empty batch' ? { code: -32600, message: 'empty batch' } : { code: e.code, message: e.message } };
    } else if (parsed.kind === 'batch') {
      for (const item of parsed.reqs) if (item instanceof InvalidRequestItem) delete (item.error as { data?: unknown }).data;
    }
    const out = await dispatchJsonRpc(parsed, (req) => this.call(req.method, req.params, ctx), parsed.kind === 'batch' ? this.batchOpts : this.singleOpts);
    return out.body;
  }
}
