/**
 * CometBFT's `kvstore` example application (abci/example/kvstore, v0.38 semantics) behind the same
 * ABCI 2.0 interface as the EVM app, so one consensus engine, mempool, set of stores and CometBFT
 * RPC drive either. Txs are `key=value` or `key:value` (PrepareProposal rewrites `:` to `=`); each
 * executed tx emits the kvstore's two `app` events; Query answers the value stored under `data`.
 * The app hash is the number of txs executed, as an 8-byte varint, as the example computes it.
 *
 * Simplification (named in docs/architecture.md): validator-update txs (`val=…`) are refused as an
 * invalid format rather than executed; this network's validator sets are fixed at genesis.
 */
import type { AbstractLevel } from 'abstract-level';
import type { Application } from '../../abci/application.js';
import {
  CodeTypeOK,
  ProposalStatus,
  type AbciEvent,
  type ExecTxResult,
  type RequestCheckTx,
  type RequestFinalizeBlock,
  type RequestInfo,
  type RequestInitChain,
  type RequestPrepareProposal,
  type RequestProcessProposal,
  type RequestQuery,
  type ResponseCheckTx,
  type ResponseCommit,
  type ResponseFinalizeBlock,
  type ResponseInfo,
  type ResponseInitChain,
  type ResponsePrepareProposal,
  type ResponseProcessProposal,
  type ResponseQuery,
} from '../../abci/types.js';

/** The example app's codes (abci/example/kvstore/code.go). */
export const KvCode = { OK: 0, EncodingError: 1, InvalidTxFormat: 2, Unauthorized: 3, Executed: 5 } as const;

export const KVSTORE_APP_VERSION = 1;

type Db = AbstractLevel<string | Uint8Array | Buffer, string, Uint8Array>;

const STATE_KEY = 'stateKey';
const PAIR_PREFIX = 'kvPairKey:';
const utf8 = new TextEncoder();
const text = new TextDecoder();

/** Exactly one `=` or one `:` (not both), not first nor last. */
export function isValidKvTx(tx: Uint8Array): boolean {
  const s = text.decode(tx);
  const eq = s.split('=').length - 1;
  const colon = s.split(':').length - 1;
  const sep = eq === 1 && colon === 0 ? '=' : colon === 1 && eq === 0 ? ':' : undefined;
  return sep !== undefined && !s.startsWith(sep) && !s.endsWith(sep) && !s.startsWith('val=');
}

/** The varint (zig-zag, as Go's binary.PutVarint) of `n` in an 8-byte buffer: the example's app hash. */
export function kvAppHash(size: number): Uint8Array {
  const out = new Uint8Array(8);
  let v = BigInt(size) << 1n;
  if (size < 0) v = ~v;
  for (let i = 0; i < 8; i++) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    if (v === 0n) {
      out[i] = b;
      break;
    }
    out[i] = b | 0x80;
  }
  return out;
}

function txEvents(key: string, value: string): AbciEvent[] {
  const attrs = (creator: string, k: string) => [
    { key: 'creator', value: creator, index: true },
    { key: 'key', value: k, index: true },
    { key: 'index_key', value: 'index is working', index: true },
    { key: 'noindex_key', value: 'index is working', index: false },
  ];
  return [
    { type: 'app', attributes: attrs('Cosmoshi Netowoko', key) },
    { type: 'app', attributes: attrs('Cosmoshi', value) },
  ];
}

interface KvState {
  size: number;
  height: number;
}

export class KvStoreApp implements Application {
  private state: KvState = { size: 0, height: 0 };
  private staged: [string, string][] = [];

  private constructor(private readonly db: Db) {}

  /** Opens the app on a (sub)level database; state persists there across restarts. */
  static async open(db: Db): Promise<KvStoreApp> {
    const app = new KvStoreApp(db);
    const raw = await db.get(STATE_KEY);
    if (raw !== undefined) app.state = JSON.parse(text.decode(raw)) as KvState;
    return app;
  }

  async info(_req: RequestInfo): Promise<ResponseInfo> {
    return {
      data: JSON.stringify({ size: this.state.size }),
      version: '0.38.0',
      appVersion: KVSTORE_APP_VERSION,
      lastBlockHeight: this.state.height,
      lastBlockAppHash: this.state.height > 0 ? kvAppHash(this.state.size) : new Uint8Array(0),
    };
  }

  async initChain(_req: RequestInitChain): Promise<ResponseInitChain> {
    return { validators: [], appHash: kvAppHash(this.state.size) };
  }

  async checkTx(req: RequestCheckTx): Promise<ResponseCheckTx> {
    const ok = isValidKvTx(req.tx);
    return {
      code: ok ? CodeTypeOK : KvCode.InvalidTxFormat,
      data: new Uint8Array(0),
      log: ok ? '' : 'invalid tx format: expected key=value or key:value',
      info: '',
      gasWanted: ok ? 1 : 0,
      gasUsed: 0,
      events: [],
      codespace: '',
    };
  }

  async prepareProposal(req: RequestPrepareProposal): Promise<ResponsePrepareProposal> {
    return { txs: req.txs.filter(isValidKvTx).map((tx) => utf8.encode(text.decode(tx).replace(':', '='))) };
  }

  async processProposal(req: RequestProcessProposal): Promise<ResponseProcessProposal> {
    return { status: req.txs.every(isValidKvTx) ? ProposalStatus.Accept : ProposalStatus.Reject };
  }

  async finalizeBlock(req: RequestFinalizeBlock): Promise<ResponseFinalizeBlock> {
    this.staged = [];
    const txResults: ExecTxResult[] = req.txs.map((tx) => {
      const s = text.decode(tx);
      const parts = s.split('=');
      const [key, value] = parts.length === 2 ? [parts[0]!, parts[1]!] : [s, s];
      this.staged.push([key, value]);
      this.state.size++;
      return { code: CodeTypeOK, data: new Uint8Array(0), log: '', info: '', gasWanted: 1, gasUsed: 0, events: txEvents(key, value), codespace: '' };
    });
    this.state.height = req.height;
    return { events: [], txResults, validatorUpdates: [], appHash: kvAppHash(this.state.size) };
  }

  async commit(): Promise<ResponseCommit> {
    const ops = this.staged.map(([k, v]) => ({ type: 'put' as const, key: PAIR_PREFIX + k, value: utf8.encode(v) }));
    ops.push({ type: 'put', key: STATE_KEY, value: utf8.encode(JSON.stringify(this.state)) });
    await this.db.batch(ops);
    this.staged = [];
    return { retainHeight: 0 };
  }

  async query(req: RequestQuery): Promise<ResponseQuery> {
    const key = text.decode(req.data);
    const value = (await this.db.get(PAIR_PREFIX + key)) ?? null;
    return {
      code: CodeTypeOK,
      log: value === null ? 'does not exist' : 'exists',
      info: '',
      index: -1,
      key: req.data,
      value,
      proofOps: null,
      height: this.state.height,
      codespace: '',
    };
  }

  async close(): Promise<void> {}
}
