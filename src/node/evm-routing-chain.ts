/**
 * The routing adapter of an EVM chain (its Cosmos and EVM faces), built from parts: a node's
 * (rpc-routing.ts) or an app's over a CometBFT RPC (comet-front/).
 */
import { parseEvmGenesis } from '../app/stores/genesis-state.js';
import type { EvmView } from '../app/views/evm-view.js';
import type { AppConnQuery } from '../abci/application.js';
import type { ExecTxResult, ResponseCheckTx } from '../abci/types.js';
import { toHex } from '../crypto/encoding.js';
import { sha256 } from '../crypto/hash.js';
import { keccak256 } from '../crypto/keccak.js';
import { voucherOf } from '../ibc/bank.js';
import type { IbcStore } from '../ibc/ibc-store.js';
import { ethermintNativeAssets, storeVouchers, tokenAsset } from '../rpc/routing/assets.js';
import { ethermintFace, ethermintRecords } from '../rpc/routing/chains.js';
import { chainNameOf, outcomeOf, type BlockSummary, type EthTxSummary, type HostedChain, type PooledTx, type RoutingChain } from '../rpc/routing/env.js';
import { Erc20Tokens } from '../rpc/routing/erc20-tokens.js';
import { readErc20, type ContractCalls } from '../rpc/routing/erc20-read.js';
import type { TxOutcome } from '../rpc/routing/tx-status.js';

/** What the routing adapter of an EVM chain is built from: its app and where its txs and blocks are. */
export interface EvmRoutingParts {
  chainId: string;
  evmChainId: number;
  /** The genesis app_state (display denom, decimals). */
  appState: unknown;
  app: AppConnQuery & { readonly evm: EvmView; ibcStore?(): IbcStore };
  /** `[routing] erc20-tokens`: ERC20 contracts listed by /v2/fungible/assets besides those seen on chain. */
  erc20Tokens?: readonly string[];
  /** ERC20 reads: the chain's calls, as eth_call runs them (gas cap, EVM timeout). */
  calls: ContractCalls;
  /** Called when the routing API stops: drops what the parts subscribed to. */
  stop?(): void;
  checkTx(tx: Uint8Array): Promise<ResponseCheckTx>;
  pooledTx(hash: Uint8Array): PooledTx | undefined;
  /** A committed tx by its CometBFT hash; undefined: the chain indexes no txs. */
  indexedTx: ((cometHash: Uint8Array) => Promise<{ tx: Uint8Array; height: number; index: number; result: ExecTxResult } | undefined>) | undefined;
  block(height: number): Promise<BlockSummary | undefined>;
}

export function evmRoutingChainOf(parts: EvmRoutingParts): RoutingChain {
  const { app } = parts;
  const evm = app.evm;
  const genesis = parseEvmGenesis(parts.appState);
  const name = chainNameOf(parts.chainId);
  const chain: HostedChain = Object.freeze({
    cosmosChainId: parts.chainId,
    evmChainId: String(parts.evmChainId),
    chainName: name,
    prettyName: name.charAt(0).toUpperCase() + name.slice(1),
    bech32Prefix: evm.bech32Prefix,
    denom: evm.denom,
    displayDenom: genesis.displayDenom,
    decimals: genesis.decimals,
    // A node of this emulator is always a development network.
    isTestnet: true,
  });
  // The registered ERC20s, and those whose Transfer logs committed blocks carry from now on.
  const erc20s = new Erc20Tokens(parts.erc20Tokens ?? [], parts.calls, () => evm.stateAt(evm.latestHeight()));
  const offBlock = evm.onBlock((_block, receipts) => erc20s.observe(receipts));

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

  const adapter: RoutingChain = {
    chain,
    face: (chainId) => ethermintFace(chain, chainId),
    records: (baseUrl) => ethermintRecords(chain, adapter.gasPrices(), baseUrl),

    gasPrices() {
      const base = evm.nextBaseFee();
      // Read live: miner_setGasPrice / anvil_setMinGasPrice change it on a running node.
      const minGasPrice = evm.minGasPrice();
      const low = base > minGasPrice ? base : minGasPrice;
      const high = 2n * base > minGasPrice ? 2n * base : minGasPrice;
      return { low, average: (low + high + 1n) / 2n, high };
    },

    ...(app.ibcStore ? { voucherBalance: async (holder: Uint8Array, denom: string) => voucherOf(app.ibcStore!(), holder, denom) } : {}),
    // The native denom on both faces, the ERC20s (registered or seen) on the EVM face, the vouchers received.
    async assets() {
      const tokens = (await erc20s.list()).map((t) => tokenAsset(chain.evmChainId, t.address, { ...t.meta, isEvm: true }));
      return [...ethermintNativeAssets(chain), ...tokens, ...(app.ibcStore ? storeVouchers(app.ibcStore(), chain.cosmosChainId) : [])];
    },
    start: () => erc20s.check(),
    stop: () => {
      offBlock();
      parts.stop?.();
    },
    async nativeBalance(address) {
      const res = await app.query({ path: `/evm/balance/0x${toHex(address)}`, data: new Uint8Array(0), height: 0, prove: false });
      if (res.code !== 0 || !res.value) throw new Error(`balance query failed: ${res.log}`);
      const body = JSON.parse(new TextDecoder().decode(res.value)) as { balance: string };
      return BigInt(body.balance);
    },

    erc20Balance: (contract, holder, denom) => readErc20(parts.calls, contract, holder, denom),

    checkTx: (tx) => parts.checkTx(tx),

    async findTx(hash) {
      const txIndexer = parts.indexedTx;
      const indexed = txIndexer ? await txIndexer(hash) : undefined;
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
      const byComet = txIndexer ? await txIndexer(cometHash) : undefined;
      // With an indexer, a block the EVM view knows but the indexer does not yet is "result pending".
      const outcome = byComet ? outcomeOf(byComet.result) : txIndexer ? undefined : await receiptOutcome(d.height, hash);
      return {
        tx: d.raw,
        cometHash,
        ethHash: hash,
        height: byComet?.height ?? d.height,
        index: byComet?.index ?? d.index,
        outcome,
        result: byComet?.result,
        eth: d.eth,
      };
    },

    pooledTx: (hash) => parts.pooledTx(hash),
    block: (height) => parts.block(height),
    height: () => evm.latestHeight(),
  };
  return adapter;
}
