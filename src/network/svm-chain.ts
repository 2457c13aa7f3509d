/**
 * The SVM chain of the network: a LiteSVM ledger (src/svm/ledger.ts) whose slots advance on the
 * network's clock (a slot every `slotMs`, 400 by default as on Solana; `mine()` closes slots at
 * once), served by a Solana JSON-RPC as solana-test-validator serves it (HTTP :8899, WS :8900).
 * Loaded on first use: a network without an SVM chain never loads LiteSVM.
 */
import type { Logger } from 'pino';
import { silentLogger } from '../util/logger.js';
import { DEV_MNEMONIC } from '../genesis/dev-accounts.js';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SvmLedger, type SvmLedgerState } from '../svm/ledger.js';
import { startSolanaRpc, type RunningSolanaRpc } from '../rpc/solana/server.js';

/** How the Skip Go API names a Solana devnet chain. */
export const DEFAULT_SVM_CHAIN_ID = 'solana-devnet';
export const DEFAULT_SVM_RPC = '127.0.0.1:8899';
export const DEFAULT_SVM_WS = '127.0.0.1:8900';
/** The solana-core version the RPC reports (the LiteSVM runtime's Agave line). */
export const SVM_CORE_VERSION = '2.2.20';

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
  /** With a home, the chain's state is saved at stop to `<home>/data/svm-state.json` and loaded at start. */
  home?: string;
  logger?: Logger;
}

export interface SvmChain {
  readonly kind: 'svm';
  readonly chainId: string;
  readonly ledger: SvmLedger;
  readonly urls: { rpc?: string; rpcWs?: string };
  readonly height: number;
  /** Closes `n` slots now. */
  mine(n?: number): Promise<number[]>;
  stop(): Promise<void>;
}

export async function startSvmChain(spec: SvmChainSpec): Promise<SvmChain> {
  const logger = spec.logger ?? silentLogger();
  const opts = { mnemonic: spec.mnemonic ?? DEV_MNEMONIC, accounts: spec.accounts };
  const file = spec.home ? join(spec.home, 'data', 'svm-state.json') : undefined;
  const ledger = file && existsSync(file) ? SvmLedger.restore(JSON.parse(readFileSync(file, 'utf8')) as SvmLedgerState, opts) : await SvmLedger.create(opts);
  const slotMs = spec.slotMs ?? 400;
  const timer = slotMs > 0 ? setInterval(() => ledger.advanceSlot(), slotMs) : undefined;
  timer?.unref();
  let rpc: RunningSolanaRpc | undefined;
  const rpcAddr = spec.rpc ?? DEFAULT_SVM_RPC;
  if (rpcAddr !== '') {
    try {
      rpc = await startSolanaRpc({ ledger, version: SVM_CORE_VERSION, featureSet: 3294202862, maxAirdropLamports: 1_000_000n * 1_000_000_000n }, { address: rpcAddr, wsAddress: spec.ws ?? DEFAULT_SVM_WS, logger });
    } catch (e) {
      if (timer) clearInterval(timer);
      throw e;
    }
  }
  let stopped = false;
  return {
    kind: 'svm',
    chainId: spec.chainId ?? DEFAULT_SVM_CHAIN_ID,
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
      if (timer) clearInterval(timer);
      await rpc?.stop();
      if (file) {
        mkdirSync(dirname(file), { recursive: true });
        // Written beside and renamed: a crash mid-write leaves the previous state.
        writeFileSync(`${file}.tmp`, JSON.stringify(ledger.save()));
        renameSync(`${file}.tmp`, file);
      }
    },
  };
}
