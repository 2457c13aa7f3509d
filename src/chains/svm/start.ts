/**
 * The SVM chain of the network: a LiteSVM ledger (src/svm/ledger.ts) whose slots advance on the
 * network's clock (a slot every `slotMs`, 400 by default as on Solana; `mine()` closes slots at
 * once), served by a Solana JSON-RPC as solana-test-validator serves it (HTTP :8899, WS :8900).
 * Loaded on first use: a network without an SVM chain never loads LiteSVM.
 */
import type { Logger } from 'pino';
import { silentLogger } from '../../util/logger.js';
import { DEV_MNEMONIC } from '../../genesis/dev-accounts.js';
import { join } from 'node:path';
import { SvmLedger } from '../../svm/ledger.js';
import { openSvmStore, type SvmStore } from '../../svm/journal.js';
import { startSolanaRpc, type RunningSolanaRpc } from '../../rpc/solana/server.js';
import type { SolanaEnv } from '../../rpc/solana/methods.js';
import type { MetricsRegistry } from '../../node/metrics.js';
import type { Chain, ChainCapabilities } from '../types.js';
import { svmActivity } from './activity.js';
import { DEFAULT_SVM_CHAIN_ID, DEFAULT_SVM_RPC, DEFAULT_SVM_WS } from './defaults.js';
import { svmSpecOnHome } from './settings.js';
/** The solana-core version the RPC reports (the LiteSVM runtime's Agave line). */
export const SVM_CORE_VERSION = '2.2.20';

function hostPort(url: string): string {
  return new URL(url).host;
}

export interface SvmChainSpec {
  kind: 'svm';
  chainId?: string;
  mnemonic?: string;
  accounts?: number;
  /** Milliseconds per slot (default 400); 0: slots close only on `mine()`. */
  slotMs?: number;
  /** `host:port` of the JSON-RPC (HTTP) and its WebSocket; '' starts none. */
  rpc?: string;
  ws?: string;
  /** Deepest nesting of arrays/objects in a JSON-RPC request (default 128, as solana-test-validator); 0 = no limit. */
  maxJsonDepth?: number;
  /** Origins allowed cross-origin requests to the RPC (`[svm] cors-allowed-origins`): default any ("*") in the devnet, none with a home. */
  corsAllowedOrigins?: string[];
  /** `[svm] max-body-bytes` (default 50 MiB): a larger request body gets 413, a larger WebSocket message closes its connection. */
  maxBodyBytes?: number;
  /** `[svm] max-header-bytes` (default 1 MiB): a larger request head gets 431. */
  maxHeaderBytes?: number;
  /** `[svm] max-url-bytes` (default 65 536): a longer request target gets 414. */
  maxUrlBytes?: number;
  /** `[svm] ws-write-buffer-bytes` (default 4 MiB): a WebSocket client with more unsent is closed (1008). */
  wsWriteBufferBytes?: number;
  /**
   * With a home, the chain's state lives in `<home>/data`: a snapshot (`svm-state.json`) and a
   * journal of every tx and slot since (`svm-journal.log`), so a kill -9 loses nothing answered;
   * the `[svm]` keys of `<home>/config/app.toml` apply to what this spec leaves out.
   */
  home?: string;
  /** Journal size that folds it into a new snapshot (default 64 MiB). */
  maxJournalBytes?: number;
  /** Tx records and blocks kept for getTransaction, getBlock and getSignaturesForAddress (default 100 000 each). */
  maxRecords?: number;
  maxBlocks?: number;
  logger?: Logger;
  /** A network's one metrics registry: the chain reports its slot, txs and fees there. */
  metrics?: MetricsRegistry;
}

export interface SvmChain extends Chain {
  readonly kind: 'svm';
  readonly chainId: string;
  readonly ledger: SvmLedger;
  readonly urls: { rpc?: string; rpcWs?: string };
  readonly height: number;
  /** Closes `n` slots now. */
  mine(n?: number): Promise<number[]>;
  stop(): Promise<void>;
  /** Its Solana RPC, routing adapter, explorer feed, activity lines and metrics (src/chains/types.ts). */
  readonly capabilities: ChainCapabilities;
}

/** Each limit, its config key and its least value. */
const LIMITS = {
  maxRecords: ['max-records', 1],
  maxBlocks: ['max-blocks', 1],
  maxJournalBytes: ['max-journal-bytes', 0],
  maxBodyBytes: ['max-body-bytes', 0],
  maxHeaderBytes: ['max-header-bytes', 0],
  maxUrlBytes: ['max-url-bytes', 1],
  wsWriteBufferBytes: ['ws-write-buffer-bytes', 1],
} as const;

function checkLimits(spec: SvmChainSpec): void {
  for (const [name, [key, min]] of Object.entries(LIMITS)) {
    const v = spec[name as keyof typeof LIMITS];
    if (v !== undefined && (!Number.isSafeInteger(v) || v < min)) throw new Error(`svm chain: ${name} ([svm] ${key}) must be an integer ≥ ${min}, got ${v}`);
  }
}

export async function startSvmChain(given: SvmChainSpec): Promise<SvmChain> {
  // With a home, its app.toml's [svm] keys fill what the spec leaves out (settings.ts).
  const spec = svmSpecOnHome(given);
  const logger = spec.logger ?? silentLogger();
  checkLimits(spec);
  const opts = { mnemonic: spec.mnemonic ?? DEV_MNEMONIC, accounts: spec.accounts, maxRecords: spec.maxRecords, maxBlocks: spec.maxBlocks };
  const store: SvmStore | undefined = spec.home
    ? await openSvmStore({ dir: join(spec.home, 'data'), ledger: opts, maxJournalBytes: spec.maxJournalBytes })
    : undefined;
  const ledger = store ? store.ledger : await SvmLedger.create(opts);
  const slotMs = spec.slotMs ?? 400;
  // Slots follow the wall clock, closed when the ledger is read: no timer ticks while idle.
  if (slotMs > 0) ledger.startClock(slotMs);
  let rpc: RunningSolanaRpc | undefined;
  const env: SolanaEnv = { ledger, version: SVM_CORE_VERSION, featureSet: 3294202862, maxAirdropLamports: 1_000_000n * 1_000_000_000n };
  const rpcAddr = spec.rpc ?? DEFAULT_SVM_RPC;
  if (rpcAddr !== '') {
    try {
      rpc = await startSolanaRpc(env, {
        address: rpcAddr,
        wsAddress: spec.ws ?? DEFAULT_SVM_WS,
        logger,
        corsAllowedOrigins: spec.corsAllowedOrigins ?? (spec.home ? [] : ['*']),
        ...(spec.maxJsonDepth !== undefined ? { maxJsonDepth: spec.maxJsonDepth } : {}),
        ...(spec.maxBodyBytes !== undefined ? { maxBodyBytes: spec.maxBodyBytes } : {}),
        ...(spec.maxHeaderBytes !== undefined ? { maxHeaderBytes: spec.maxHeaderBytes } : {}),
        ...(spec.maxUrlBytes !== undefined ? { maxUrlBytes: spec.maxUrlBytes } : {}),
        ...(spec.wsWriteBufferBytes !== undefined ? { wsWriteBufferBytes: spec.wsWriteBufferBytes } : {}),
      });
      env.endpoints = { rpc: hostPort(rpc.url), pubsub: hostPort(rpc.wsUrl) };
    } catch (e) {
      ledger.stopClock();
      store?.close();
      throw e;
    }
  }
  let stopped = false;
  const stopMetrics = spec.metrics?.svmChain({
    chainId: spec.chainId ?? DEFAULT_SVM_CHAIN_ID,
    slot: () => ledger.slot,
    onTransaction: (l) => ledger.onTransaction(l),
  });
  const chainId = spec.chainId ?? DEFAULT_SVM_CHAIN_ID;
  const chain: SvmChain = {
    kind: 'svm',
    chainId,
    ledger,
    urls: rpc ? { rpc: rpc.url, rpcWs: rpc.wsUrl } : {},
    get height() {
      return Number(ledger.slot);
    },
    async mine(n = 1) {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        ledger.advanceSlot();
        out.push(Number(ledger.slot));
      }
      return out;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      ledger.stopClock();
      stopMetrics?.();
      await rpc?.stop();
      store?.close();
    },
    capabilities: {
      rpc: () => (rpc ? [{ family: 'solana', url: rpc.url, ws: rpc.wsUrl }] : []),
      routing: async () => (await import('./routing.js')).svmRoutingChain(chain),
      explorer: () => (rpc ? { chainId, svm: { rpc: rpc.url, ws: rpc.wsUrl } } : undefined),
      metrics: spec.metrics !== undefined,
      activity: (write) => svmActivity(ledger, write),
    },
  };
  return chain;
}
