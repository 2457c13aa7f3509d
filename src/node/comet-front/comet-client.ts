/**
 * A CometBFT v0.38 RPC client (JSON-RPC 2.0 over HTTP POST, as `cometbft` serves on :26657): the
 * calls the Ethereum JSON-RPC and the routing API make of the node in front of the app, as Cosmos
 * EVM's JSON-RPC server does through its CometBFT client. Byte params go as base64 (jsonpb).
 */
import type { ExecTxResult, ResponseCheckTx } from '../../abci/types.js';
import { decodeExecTxResult, type ExecTxResultJson } from '../../codec/json/comet-json-abci.js';
import { fromBase64, toBase64 } from '../../crypto/encoding.js';

export class CometRpcError extends Error {
  override name = 'CometRpcError';
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: string,
  ) {
    super(`CometBFT ${method}: ${message}${data ? ` (${data})` : ''}`);
  }
}

export interface CommittedTx {
  tx: Uint8Array;
  height: number;
  index: number;
  result: ExecTxResult;
}

export interface CometBlockSummary {
  height: number;
  /** Upper-case hex in CometBFT's JSON; bytes here. */
  hash: Uint8Array;
  time: string;
  numTxs: number;
  proposer: Uint8Array;
}

export interface CometRpcClientOptions {
  /** Per-request limit (ms); default 10 000. */
  timeoutMs?: number;
}

export class CometRpcClient {
  private id = 0;
  private readonly timeoutMs: number;

  /** `url` may be set after construction (a CometBFT that starts after the app, on a port chosen late). */
  constructor(
    public url: string,
    opts: CometRpcClientOptions = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  async call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new CometRpcError(method, -32603, `cannot reach CometBFT at ${this.url}: ${(err as Error).message}`);
    }
    const body = (await res.json().catch(() => undefined)) as { result?: T; error?: { code: number; message: string; data?: string } } | undefined;
    if (!body) throw new CometRpcError(method, -32603, `HTTP ${res.status} without a JSON-RPC body from ${this.url}`);
    if (body.error) throw new CometRpcError(method, body.error.code, body.error.message, body.error.data);
    return body.result as T;
  }

  async broadcastTxSync(tx: Uint8Array): Promise<ResponseCheckTx> {
    const r = await this.call<ExecTxResultJson & { hash: string }>('broadcast_tx_sync', { tx: toBase64(tx) });
    return decodeExecTxResult(r);
  }

  /** A committed tx by its CometBFT hash (sha256); undefined when CometBFT has none. */
  async tx(hash: Uint8Array): Promise<CommittedTx | undefined> {
    try {
      const r = await this.call<{ height: string; index: number; tx: string; tx_result: ExecTxResultJson }>('tx', { hash: toBase64(hash), prove: false });
      return { tx: fromBase64(r.tx), height: Number(r.height), index: r.index, result: decodeExecTxResult(r.tx_result) };
    } catch (err) {
      if (err instanceof CometRpcError && /not found/i.test(`${err.message}`)) return undefined;
      throw err;
    }
  }

  async block(height: number): Promise<CometBlockSummary | undefined> {
    try {
      const r = await this.call<{
        block_id: { hash: string };
        block: { header: { height: string; time: string; proposer_address: string }; data: { txs: string[] | null } };
      }>('block', { height: String(height) });
      return {
        height: Number(r.block.header.height),
        hash: Uint8Array.from(Buffer.from(r.block_id.hash, 'hex')),
        time: r.block.header.time,
        numTxs: r.block.data.txs?.length ?? 0,
        proposer: Uint8Array.from(Buffer.from(r.block.header.proposer_address, 'hex')),
      };
    } catch (err) {
      if (
        err instanceof CometRpcError &&
        /must be less than or equal to the current blockchain height|height .* is not available|could not find/i.test(err.message)
      )
        return undefined;
      throw err;
    }
  }

  /** The mempool's txs (CometBFT answers at most `limit`, ≤ 100, per call). */
  async unconfirmedTxs(limit = 100): Promise<Uint8Array[]> {
    const r = await this.call<{ txs: string[] | null }>('unconfirmed_txs', { limit: String(limit) });
    return (r.txs ?? []).map(fromBase64);
  }
}
