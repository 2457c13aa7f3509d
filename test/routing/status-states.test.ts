/**
 * The status states a real node shows only for an instant (STATE_PENDING: block committed, result
 * not indexed yet) or only after minutes (stalled → STATE_ABANDONED), and a tx that failed with a
 * non-zero result code (e.g. undecodable), driven through real HTTP over a scripted RoutingEnv with
 * a hand-driven clock: no sleeps, every transition deterministic.
 */
import { createHash } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecTxResult, ResponseCheckTx } from '../../src/abci/types.js';
import { MemoryApiKeyStore } from '../../src/rpc/routing/api-keys.js';
import type { FoundTx, RoutingChain, RoutingEnv } from '../../src/rpc/routing/env.js';
import { ethermintFace, ethermintRecords } from '../../src/rpc/routing/chains.js';
import { outcomeOf } from '../../src/rpc/routing/env.js';
import { startRoutingServer, type RoutingApi } from '../../src/rpc/routing/server.js';
import { getJson, postJson } from './helpers.js';

const COSMOS = 'fake_7-1';
const EVM = '7';
const SUBMITTED_MS = 60_000;
const STALLED_MS = 120_000;

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const sha256 = (b: Uint8Array) => new Uint8Array(createHash('sha256').update(b).digest());

function execResult(code: number, log: string): ExecTxResult {
  return { code, data: new Uint8Array(0), log, info: '', gasWanted: 21_000, gasUsed: code === 0 ? 21_000 : 0, events: [], codespace: code === 0 ? '' : 'evm' };
}

/** A chain the test scripts: which txs are in blocks, with or without a known result. */
class ScriptedChain {
  clock = 0;
  private readonly inBlocks = new Map<string, FoundTx>();

  /** Puts `tx` in block `height`; `result` undefined = the block is known, its result is not (yet). */
  include(tx: Uint8Array, height: number, result?: ExecTxResult): void {
    const f: FoundTx = {
      tx,
      cometHash: sha256(tx),
      ethHash: keccak_256(tx),
      height,
      index: 0,
      result,
      outcome: result && outcomeOf(result),
    };
    this.inBlocks.set(hex(f.cometHash), f);
    this.inBlocks.set(hex(f.ethHash), f);
  }

  env(): RoutingEnv {
    const okCheck: ResponseCheckTx = { code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 21_000, gasUsed: 0, events: [], codespace: '' };
    const chainInfo = {
      cosmosChainId: COSMOS,
      evmChainId: EVM,
      chainName: 'fake',
      prettyName: 'Fake',
      bech32Prefix: 'fake',
      denom: 'afake',
      displayDenom: 'fake',
      decimals: 18,
      isTestnet: true,
    };
    const adapter: RoutingChain = {
      chain: chainInfo,
      face: (chainId) => ethermintFace(chainInfo, chainId),
      records: (baseUrl) => ethermintRecords(chainInfo, adapter.gasPrices(), baseUrl),
      gasPrices: () => ({ low: 1n, average: 2n, high: 3n }),
      nativeBalance: async () => 0n,
      erc20Balance: async () => ({ balance: 0n, decimals: 18 }),
      checkTx: async (tx) => ({ ...okCheck, ethHash: keccak_256(tx) }),
      findTx: async (hash) => this.inBlocks.get(hex(hash)),
      pooledTx: () => undefined,
      block: async () => undefined,
    };
    return {
      chains: [adapter],
      config: {
        enable: true,
        address: '127.0.0.1:0',
        rateLimitPerSecond: 0,
        rateLimitBurst: 0,
        submittedTimeoutMs: SUBMITTED_MS,
        stalledTimeoutMs: STALLED_MS,
        prices: {},
        publicUrl: '',
        erc20Tokens: [],
      },
      logger: pino({ level: 'silent' }),
      apiKeys: new MemoryApiKeyStore(),
      now: () => this.clock,
    };
  }
}

let chain: ScriptedChain;
let api: RoutingApi;

beforeAll(async () => {
  chain = new ScriptedChain();
  api = await startRoutingServer(chain.env(), { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await api?.stop();
});

const submit = (tx: Uint8Array, chainId = EVM) => postJson(`${api.url}/v2/tx/submit`, { chain_id: chainId, tx: Buffer.from(tx).toString('base64') });
const status = async (txHash: string, chainId = EVM) => {
  const r = await getJson(`${api.url}/v2/tx/status?chain_id=${chainId}&tx_hash=${txHash}`);
  expect(r.status).toBe(200);
  return r.body;
};

describe('status states over HTTP (scripted chain, driven clock)', () => {
  it('SUBMITTED → PENDING (in a block, result not known) → COMPLETED_ERROR for a non-zero result code', async () => {
    const tx = Uint8Array.from([1, 1, 1]);
    const sub = await submit(tx);
    expect(sub.status).toBe(200);
    expect(await status(sub.body.tx_hash)).toMatchObject({ state: 'STATE_SUBMITTED', transfers: [], error: null, status: 'STATE_SUBMITTED' });

    chain.include(tx, 5);
    chain.clock += 1000;
    expect(await status(sub.body.tx_hash)).toMatchObject({ state: 'STATE_PENDING', transfers: [], error: null, status: 'STATE_PENDING' });

    // A tx the app could not decode is committed with code 2 (TxDecode) and its log.
    chain.include(tx, 5, execResult(2, 'tx parse error: invalid RLP'));
    const done = await status(sub.body.tx_hash);
    expect(done).toMatchObject({ state: 'STATE_COMPLETED_ERROR', status: 'STATE_COMPLETED', transfers: [] });
    expect(done.error).toEqual({
      type: 'STATUS_ERROR_TRANSACTION_EXECUTION',
      message: 'tx parse error: invalid RLP',
      details: { code: 2, message: 'tx parse error: invalid RLP' },
    });
  });

  it('PENDING → ABANDONED when the result stays unknown past the stalled timeout', async () => {
    const tx = Uint8Array.from([2, 2, 2]);
    const sub = await submit(tx, COSMOS);
    expect(sub.body.tx_hash).toBe(hex(sha256(tx)).toUpperCase());
    chain.include(tx, 6);
    expect((await status(sub.body.tx_hash, COSMOS)).state).toBe('STATE_PENDING');
    chain.clock += STALLED_MS - 1;
    expect((await status(sub.body.tx_hash, COSMOS)).state).toBe('STATE_PENDING');
    chain.clock += 1;
    const s = await status(sub.body.tx_hash, COSMOS);
    expect(s).toMatchObject({ state: 'STATE_ABANDONED', status: 'STATE_ABANDONED', transfers: [] });
    expect(s.error.type).toBe('STATUS_ERROR_INDEXING');
    expect(s.error.message).toBe('tracking abandoned: no result for the tx within 120s of its block');
    // Terminal: a late result does not revive it.
    chain.include(tx, 6, execResult(0, ''));
    expect((await status(sub.body.tx_hash, COSMOS)).state).toBe('STATE_ABANDONED');
  });

  it('SUBMITTED → ABANDONED exactly at the submitted timeout', async () => {
    const tx = Uint8Array.from([3, 3, 3]);
    const sub = await submit(tx);
    chain.clock += SUBMITTED_MS - 1;
    expect((await status(sub.body.tx_hash)).state).toBe('STATE_SUBMITTED');
    chain.clock += 1;
    const s = await status(sub.body.tx_hash);
    expect(s.state).toBe('STATE_ABANDONED');
    expect(s.error).toEqual({ type: 'STATUS_ERROR_UNKNOWN', message: 'tracking abandoned: tx not seen in a block within 60s' });
  });

  it('track: `tx is invalid on chain` for a tx committed with a non-zero code; a tx in a block without a result is tracked', async () => {
    const malformed = Uint8Array.from([4, 4, 4]);
    chain.include(malformed, 7, execResult(2, 'tx parse error'));
    for (const [chainId, h] of [
      [COSMOS, hex(sha256(malformed)).toUpperCase()],
      [EVM, `0x${hex(keccak_256(malformed))}`],
    ] as const) {
      const r = await postJson(`${api.url}/v2/tx/track`, { chain_id: chainId, tx_hash: h });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ code: 3, message: 'tx is invalid on chain', details: [] });
    }
    const pending = Uint8Array.from([5, 5, 5]);
    chain.include(pending, 8);
    const t = await postJson(`${api.url}/v2/tx/track`, { chain_id: EVM, tx_hash: `0x${hex(keccak_256(pending))}` });
    expect(t.status).toBe(200);
    expect(t.body.explorer_link).toBe(`${api.url}/explorer/tx/0x${hex(keccak_256(pending))}`);
    expect((await status(t.body.tx_hash)).state).toBe('STATE_PENDING');
  });
});
