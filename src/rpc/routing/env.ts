/**
 * The narrow environment routing handlers see: the hosted chain's identity, balances, CheckTx,
 * tx lookups and block summaries. `createRoutingEnv(node)` builds it once from the node's parts;
 * handlers never touch the node itself, so they can be driven by any implementation of this.
 */
import { keccak256 } from '../../crypto/keccak.js';
import type { Logger } from 'pino';
import type { ExecTxResult, ResponseCheckTx } from '../../abci/types.js';
import { parseEvmGenesis } from '../../app/genesis-state.js';
import type { RoutingConfig } from '../../config/types.js';
import { toHex } from '../../crypto/encoding.js';
import { sha256 } from '../../crypto/hash.js';
import type { ChainletNode } from '../../node/node.js';
import { formatRfc3339Nano } from '../../types/time.js';
import { getApiKeyStore, type ApiKeyStore } from './api-keys.js';
import { readErc20, type Erc20Balance } from './erc20-read.js';
import { monotonicMs, type Clock } from './token-bucket.js';
import type { TxOutcome } from './tx-status.js';

/** The chain this process hosts, seen as the routing API lists it. */
export interface HostedChain {
  /** Cosmos-style id, e.g. `chainlet_9000-1`. */
  cosmosChainId: string;
  /** EVM chain id as a decimal string, e.g. `9000`. */
  evmChainId: string;
  /** e.g. `chainlet` (from the chain id), and a display form `Chainlet`. */
  chainName: string;
  prettyName: string;
  bech32Prefix: string;
  /** Base denom of the native token (`achainlet`), its display denom and decimals. */
  denom: string;
  displayDenom: string;
  decimals: number;
  isTestnet: boolean;
}

/** Gas prices in base units of the native denom per unit of gas. */
export interface GasPriceTiers {
  low: bigint;
  average: bigint;
  high: bigint;
}

export interface EthTxSummary {
  from: string;
  to: string | null;
  value: bigint;
  nonce: bigint;
  gasLimit: bigint;
  type: number;
}

/** A tx found in a committed block. */
export interface FoundTx {
  tx: Uint8Array;
  cometHash: Uint8Array;
  ethHash: Uint8Array;
  height: number;
  index: number;
  /** Undefined while the block is known but its result is not indexed yet. */
  outcome?: TxOutcome;
  result?: ExecTxResult;
  eth?: EthTxSummary;
}

/** A tx waiting in the mempool. */
export interface PooledTx {
  tx: Uint8Array;
  cometHash: Uint8Array;
  ethHash?: Uint8Array;
  sender: string;
  nonce: bigint;
}

export interface BlockSummary {
  height: number;
  hash: Uint8Array;
  /** RFC 3339 with nanoseconds. */
  time: string;
  numTxs: number;
  proposer: Uint8Array;
}

export interface RoutingEnv {
  readonly chain: HostedChain;
  readonly config: RoutingConfig;
  readonly logger: Logger;
  readonly apiKeys: ApiKeyStore;
  /** Monotonic milliseconds (status timeouts, rate limit). */
  readonly now: Clock;
  gasPrices(): GasPriceTiers;
  nativeBalance(address: Uint8Array): Promise<bigint>;
  erc20Balance(contract: Uint8Array, holder: Uint8Array, denom: string): Promise<Erc20Balance>;
  /** CheckTx and mempool admission (broadcast_tx_sync). Mempool admission errors throw. */
  checkTx(tx: Uint8Array): Promise<ResponseCheckTx>;
  /** A committed tx by its CometBFT (sha256) or Ethereum (keccak) hash. */
  findTx(hash: Uint8Array): Promise<FoundTx | undefined>;
  /** A tx in the mempool by either hash. */
  pooledTx(hash: Uint8Array): PooledTx | undefined;
  block(height: number): Promise<BlockSummary | undefined>;
}

/** `chainlet_9000-1` → `chainlet`. */
export function chainNameOf(chainId: string): string {
  return (chainId.split(/[_-]/)[0] || chainId).toLowerCase();
}

function attribute(result: ExecTxResult, type: string, key: string): string | undefined {
  for (const e of result.events) {
    if (e.type !== type) continue;
    for (const a of e.attributes) if (a.key === key) return a.value;
  }
  return undefined;
}

/** Cosmos EVM reports a reverted EVM tx with code 0 and an `ethereum_tx.ethereumTxFailed` attribute. */
export function outcomeOf(result: ExecTxResult): TxOutcome {
  if (result.code !== 0) return { ok: false, code: result.code, log: result.log };
  const failed = attribute(result, 'ethereum_tx', 'ethereumTxFailed');
  return failed === undefined ? { ok: true, code: 0, log: result.log } : { ok: false, code: 0, log: failed || 'execution reverted' };
}

export function createRoutingEnv(node: ChainletNode): RoutingEnv {
  const { app, mempool, txIndexer, blockStore } = node.internals;
  const evm = app.evm;
  const genesis = parseEvmGenesis(node.genesis.appState);
  const name = chainNameOf(node.chainId);
  const chain: HostedChain = Object.freeze({
    cosmosChainId: node.chainId,
    evmChainId: String(node.evmChainId),
    chainName: name,
    prettyName: name.charAt(0).toUpperCase() + name.slice(1),
    bech32Prefix: evm.bech32Prefix,
    denom: evm.denom,
    displayDenom: genesis.displayDenom,
    decimals: genesis.decimals,
    // A node of this emulator is always a development network.
    isTestnet: true,
  });

  async function ethDetails(ethHash: Uint8Array): Promise<{ height: number; index: number; eth: EthTxSummary; raw: Uint8Array } | undefined> {
    const loc = await evm.getTransaction(ethHash);
    if (!loc) return undefined;
    const tx = loc.tx;
    return {
      height: loc.height,
      index: loc.index,
      raw: tx.serialize(),
      eth: { from: loc.sender.toString(), to: tx.to?.toString() ?? null, value: tx.value, nonce: tx.nonce, gasLimit: tx.gasLimit, type: tx.type },
    };
  }

  async function receiptOutcome(height: number, ethHash: Uint8Array): Promise<TxOutcome | undefined> {
    const receipts = await evm.getReceipts(height);
    const r = receipts.find((x) => toHex(x.txHash) === toHex(ethHash));
    if (!r) return undefined;
    return r.status === 1 ? { ok: true, code: 0, log: '' } : { ok: false, code: 0, log: 'execution reverted' };
  }

  return {
    chain,
    config: node.config.routing,
    logger: node.logger.child({ module: 'routing' }),
    apiKeys: getApiKeyStore(node),
    now: monotonicMs,

    gasPrices() {
      const base = evm.nextBaseFee();
      // Read live: miner_setGasPrice / anvil_setMinGasPrice change it on a running node.
      const minGasPrice = evm.minGasPrice();
      const low = base > minGasPrice ? base : minGasPrice;
      const high = 2n * base > minGasPrice ? 2n * base : minGasPrice;
      return { low, average: (low + high + 1n) / 2n, high };
    },

    async nativeBalance(address) {
      const res = await app.query({ path: `/evm/balance/0x${toHex(address)}`, data: new Uint8Array(0), height: 0, prove: false });
      if (res.code !== 0 || !res.value) throw new Error(`balance query failed: ${res.log}`);
      const body = JSON.parse(new TextDecoder().decode(res.value)) as { balance: string };
      return BigInt(body.balance);
    },

    async erc20Balance(contract, holder, denom) {
      const state = await evm.stateAt(evm.latestHeight());
      return readErc20(evm.common, state, contract, holder, denom);
    },

    checkTx: (tx) => mempool.checkTx(tx),

    async findTx(hash) {
      const indexed = txIndexer ? await txIndexer.get(hash) : undefined;
      if (indexed) {
        const ethHash = keccak256(indexed.tx);
        const d = await ethDetails(ethHash);
        return {
          tx: indexed.tx,
          cometHash: sha256(indexed.tx),
          ethHash,
          height: indexed.height,
          index: indexed.index,
          outcome: outcomeOf(indexed.result),
          result: indexed.result,
          eth: d?.eth,
        };
      }
      const d = await ethDetails(hash);
      if (!d) return undefined;
      const cometHash = sha256(d.raw);
      const byComet = txIndexer ? await txIndexer.get(cometHash) : undefined;
      // With an indexer, a block the EVM view knows but the indexer does not yet is "result pending".
      const outcome = byComet ? outcomeOf(byComet.result) : txIndexer ? undefined : await receiptOutcome(d.height, hash);
      return { tx: d.raw, cometHash, ethHash: hash, height: byComet?.height ?? d.height, index: byComet?.index ?? d.index, outcome, result: byComet?.result, eth: d.eth };
    },

    pooledTx(hash) {
      const t = mempool.get(hash);
      return t && { tx: t.tx, cometHash: t.hash, ethHash: t.ethHash, sender: t.sender, nonce: t.nonce };
    },

    async block(height) {
      const meta = await blockStore.loadBlockMeta(height);
      if (!meta) return undefined;
      return { height, hash: meta.blockId.hash, time: formatRfc3339Nano(meta.header.time), numTxs: meta.numTxs, proposer: meta.header.proposerAddress };
    },
  };
}
