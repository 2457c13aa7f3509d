/**
 * Errors of the CometBFT node RPC. Every message is CometBFT v0.38's own text (rpc/core,
 * rpc/jsonrpc, libs/json), because clients match on it: the dispatcher puts it verbatim in the
 * JSON-RPC error's `data`.
 *
 *   ParamError        → -32602 "Invalid params" over HTTP, -32603 over WebSocket
 *   any other thrown  → -32603 "Internal error" (CometBFT maps every handler error there)
 *   SubscriptionCanceledError → -32000 "Server error" (sent on the subscription's id)
 */

export abstract class CometRpcError extends Error {
  /** The protocol-fixed text (equal to `message`). */
  readonly shortMessage: string;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
    this.shortMessage = message;
  }
}

/** A param that could not be converted to its Go type; `reason` is the decoder's text. */
export class ParamError extends CometRpcError {
  readonly reason: string;
  readonly param: string | undefined;

  constructor(args: { reason: string; param?: string }) {
    super(args.reason);
    this.reason = args.reason;
    this.param = args.param;
  }
}

export class HeightNotPositiveError extends CometRpcError {
  constructor(readonly height: number) {
    super(`height must be greater than 0, but got ${height}`);
  }
}

export class HeightTooHighError extends CometRpcError {
  constructor(
    readonly height: number,
    readonly latest: number,
  ) {
    super(`height ${height} must be less than or equal to the current blockchain height ${latest}`);
  }
}

export class HeightNotAvailableError extends CometRpcError {
  constructor(
    readonly height: number,
    readonly base: number,
  ) {
    super(`height ${height} is not available, lowest height is ${base}`);
  }
}

export class PageOutOfRangeError extends CometRpcError {
  constructor(
    readonly page: number,
    readonly pages: number,
  ) {
    super(`page should be within [1, ${pages}] range, given ${page}`);
  }
}

export class InvalidOrderByError extends CometRpcError {
  constructor(readonly orderBy: string) {
    super(`expected order_by to be either 'asc' or 'desc' or empty`);
  }
}

export class IndexingDisabledError extends CometRpcError {
  constructor(readonly what: 'transaction' | 'block') {
    super(`${what} indexing is disabled`);
  }
}

export class QueryTooLongError extends CometRpcError {
  constructor(readonly length: number) {
    super('maximum query length exceeded');
  }
}

/** The query did not parse; CometBFT wraps the parser error for subscribe/unsubscribe only. */
export class QueryParseError extends CometRpcError {
  constructor(
    readonly reason: string,
    wrap: boolean,
  ) {
    super(wrap ? `failed to parse query: ${reason}` : reason);
  }
}

export class TxNotFoundError extends CometRpcError {
  constructor(readonly hashHex: string) {
    super(`tx (${hashHex}) not found`);
  }
}

export class MinMaxHeightError extends CometRpcError {
  constructor(message: string) {
    super(message);
  }
}

/** state.ErrNoABCIResponsesForHeight, ErrNoValSetForHeight, ErrNoConsensusParamsForHeight. */
export class NoStateForHeightError extends CometRpcError {
  constructor(
    readonly what: 'results' | 'validator set' | 'consensus params',
    readonly height: number,
  ) {
    super(`could not find ${what} for height #${height}`);
  }
}

export class MaxSubscriptionClientsError extends CometRpcError {
  constructor(readonly max: number) {
    super(`max_subscription_clients ${max} reached`);
  }
}

export class MaxSubscriptionsPerClientError extends CometRpcError {
  constructor(readonly max: number) {
    super(`max_subscriptions_per_client ${max} reached`);
  }
}

export class BroadcastTimeoutError extends CometRpcError {
  constructor(readonly timeoutMs: number) {
    super('timed out waiting for tx to be included in a block');
  }
}

export class GenesisTooLargeError extends CometRpcError {
  constructor() {
    super('genesis response is large, please use the genesis_chunked API instead');
  }
}

export class GenesisChunkError extends CometRpcError {
  constructor(
    readonly chunks: number,
    readonly asked: number,
  ) {
    super(`there are ${chunks - 1} chunks, ${asked} is invalid`);
  }
}

/** A subscription ended by something else than the client: sent as -32000 on its id. */
export class SubscriptionCanceledError extends CometRpcError {
  constructor(readonly reason: string) {
    super(`subscription was canceled (reason: ${reason})`);
  }
}

/** A handler failure with a fixed CometBFT text that needs no fields of its own. */
export class CometHandlerError extends CometRpcError {}
