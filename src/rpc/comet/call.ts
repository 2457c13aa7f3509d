/**
 * One method call, whatever the transport: decode the args (JSON-RPC params by name or position,
 * or URI query values), run the handler, and turn the outcome into a result or a CometBFT error.
 *
 *   args fail to decode ─> -32602 "Invalid params" (HTTP) / -32603 (WebSocket), data =
 *                          "error converting <json|http> params to arguments: <reason>"
 *   handler throws      ─> -32603 "Internal error", data = the error's text
 */
import type { Logger } from 'pino';
import { EventsError } from '../../events/errors.js';
import { MempoolError } from '../../mempool/errors.js';
import { JsonRpcErrorException, type JsonRpcError } from '../jsonrpc/index.js';
import type { CallContext } from './context.js';
import { COMET_ERRORS } from './envelope.js';
import type { CometEnv } from './env.js';
import { CometRpcError, ParamError } from './errors.js';
import { isCacheable, type AnyRoute } from './routes.js';

export type CallOutcome = { ok: true; result: unknown; cacheable: boolean } | { ok: false; error: JsonRpcError };

/** Go's `%v` of a []json.RawMessage: each element's bytes as decimals. */
function goRawList(values: readonly unknown[]): string {
  return `[${values.map((v) => `[${[...Buffer.from(JSON.stringify(v) ?? 'null')].join(' ')}]`).join(' ')}]`;
}

function kindOf(v: unknown): string {
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

/** JSON-RPC `params`, as jsonParamsToArgs reads them. A missing `params` gives every zero value. */
export function argsFromJson(route: AnyRoute, params: unknown): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  if (Array.isArray(params)) {
    if (params.length !== route.params.length) {
      const names = `[${route.params.map((x) => x.name).join(' ')}]`;
      throw new ParamError({ reason: `expected ${route.params.length} parameters (${names}), got ${params.length} (${goRawList(params)})` });
    }
    route.params.forEach((param, i) => (args[param.name] = param.fromJson(params[i])));
    return args;
  }
  if (params !== undefined && params !== null && typeof params !== 'object') {
    throw new ParamError({
      reason: `unknown type for JSON params: json: cannot unmarshal ${kindOf(params)} into Go value of type []json.RawMessage. Expected map or array`,
    });
  }
  const byName = (params ?? {}) as Record<string, unknown>;
  for (const param of route.params) args[param.name] = param.fromJson(Object.hasOwn(byName, param.name) ? byName[param.name] : undefined);
  return args;
}

/** URI query values (then form values); an empty value is the zero value. */
export function argsFromUri(route: AnyRoute, get: (name: string) => string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const param of route.params) {
    const text = get(param.name);
    args[param.name] = text === '' ? param.zero : param.fromUri(text);
  }
  return args;
}

/** Errors whose text is the answer; anything else is also answered, but logged as unexpected. */
function isExpected(err: unknown): boolean {
  return err instanceof CometRpcError || err instanceof MempoolError || err instanceof EventsError;
}

export interface CallOptions {
  env: CometEnv;
  ctx: CallContext;
  route: AnyRoute;
  decode: () => Record<string, unknown>;
  /** 'json' or 'http', as in "error converting json params to arguments". */
  paramSource: 'json' | 'http';
  /** CometBFT's WebSocket handler reports param errors as internal errors. */
  paramErrorsAreInternal: boolean;
  logger: Logger;
}

export async function callRoute(o: CallOptions): Promise<CallOutcome> {
  let args: Record<string, unknown>;
  try {
    args = o.decode();
  } catch (err) {
    if (!(err instanceof ParamError)) throw err;
    const data = `error converting ${o.paramSource} params to arguments: ${err.reason}`;
    return { ok: false, error: o.paramErrorsAreInternal ? COMET_ERRORS.internal(data) : COMET_ERRORS.invalidParams(data) };
  }
  try {
    const result = await o.route.handler(o.env, o.ctx, args);
    return { ok: true, result, cacheable: isCacheable(o.route, args) };
  } catch (err) {
    if (err instanceof JsonRpcErrorException) return { ok: false, error: err.error };
    if (!isExpected(err)) o.logger.warn({ err, method: o.route.method }, 'comet rpc handler failed');
    return { ok: false, error: COMET_ERRORS.internal(err instanceof Error ? err.message : String(err)) };
  }
}
