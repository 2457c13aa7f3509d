/**
 * The Ethereum JSON-RPC's environment (EthEnv with its NamespaceServices) filled from an EVM node,
 * the node's one eth service over it, its HTTP/WS server and the in-process EIP-1193 provider.
 */
import { createTxFromRLP } from '@ethereumjs/tx';
import { Address, createZeroAddress } from '@ethereumjs/util';
import type { Common } from '@ethereumjs/common';
import type { Logger } from 'pino';
import { CallExecutor } from '../app/evm/call-executor.js';
import { CallService } from '../rpc/eth/call-service.js';
import { clientVersion, type DevSigner, type EthCalls, type EthEnv, type EthTxPool } from '../rpc/eth/env.js';
import { FilterRegistry } from '../rpc/eth/filter-registry.js';
import { ProfilerSlot } from '../rpc/eth/namespaces/debug-profiling.js';
import { SubscriptionRegistry } from '../rpc/eth/subscriptions.js';
import { GenesisAwareView } from '../rpc/eth/genesis-block.js';
import type { NamespaceServices } from '../rpc/eth/namespaces/services.js';
import { providerForService, type Eip1193Provider } from '../rpc/eth/provider.js';
import { startEthServer, type RunningEthRpc } from '../rpc/eth/server.js';
import { newEthService, type EthService } from '../rpc/eth/service.js';
import type { EvmView } from '../app/views/evm-view.js';
import type { JsonRpcConfig } from '../config/types.js';
import type { DevAccount } from '../genesis/dev-accounts.js';
import type { GenesisDoc } from '../genesis/genesis-doc.js';
import type { Timestamp } from '../types/time.js';
import type { ChainletNode } from './node.js';

/**
 * Builds the node's one eth service: node.ts calls it once, at the first use of
 * `node.internals.eth`, and closes it when the node stops. Its env (filters, call executor,
 * subscriptions, profiler) is shared by the HTTP/WS server and every in-process provider.
 */
export function createEthService(node: ChainletNode): EthService {
  return newEthService(createEthEnv(node), { devnet: node.config.evm.devnet, onStateChange: (l) => node.internals.devnet.onChange(l) });
}

/** Starts the Ethereum JSON-RPC of `node` on `[json-rpc] address` and `ws-address`, over the node's eth service. */
export function startEthRpc(node: ChainletNode): Promise<RunningEthRpc> {
  return startEthServer(node.internals.eth, node.logger);
}

/**
 * An EIP-1193 provider for `node` in the same process (no HTTP): the fastest path for tests. It
 * serves the node's one env: a filter installed here can be polled over HTTP with the same id.
 */
export function createEip1193Provider(node: ChainletNode): Eip1193Provider {
  return providerForService(node.internals.eth);
}

function createEthEnv(node: ChainletNode): EthEnv {
  const mempool = node.internals.mempool;
  const consensus = node.internals.consensus;
  return ethEnvOf({
    view: node.internals.app.evm,
    genesis: node.genesis,
    config: node.config.jsonRpc,
    devnet: node.config.evm.devnet,
    txpool: (common) => ({
      submit: (raw) => mempool.checkTx(raw),
      pendingNonce: (sender) => mempool.pendingNonce(sender.toLowerCase()),
      pending(ethHash) {
        const t = mempool.get(ethHash);
        if (t === undefined || t.ethHash === undefined) return undefined;
        return { tx: createTxFromRLP(t.tx, { common }), sender: new Address(Buffer.from(t.sender.slice(2), 'hex')), hash: t.ethHash };
      },
      content: () => mempool.content(),
      onNewTx(listener) {
        return mempool.onNewTx((t) => {
          if (t.ethHash !== undefined) listener(t.ethHash);
        });
      },
    }),
    accounts: node.accounts,
    logger: node.logger,
    namespaces: createNamespaceServices(node),
    nextBlock: () => ({ time: consensus.pendingBlockTime(), proposer: consensus.nextProposer() }),
    observe: node.internals.metrics?.observeEth,
  });
}

/** What an Ethereum JSON-RPC environment is built from: an EVM chain's view and where its txs go. */
export interface EthEnvParts {
  /** The app's view (app.evm). */
  view: EvmView;
  genesis: Pick<GenesisDoc, 'genesisTime' | 'consensusParams'>;
  config: JsonRpcConfig;
  devnet: boolean;
  /** The tx pool, given the view's Common (to decode pending txs). */
  txpool: (common: Common) => EthTxPool;
  /** Accounts whose keys this server holds (eth_accounts, eth_sendTransaction). */
  accounts: readonly DevAccount[];
  logger: Logger;
  namespaces?: NamespaceServices;
  /** Time and proposer of the next block (the `pending` block of calls). */
  nextBlock: () => { time: Timestamp; proposer: Uint8Array | undefined };
  /** Told of every call (metrics). */
  observe?: (method: string, seconds: number, ok: boolean) => void;
}

export function ethEnvOf(parts: EthEnvParts): EthEnv {
  const maxGas = parts.genesis.consensusParams.block.maxGas;
  const view = new GenesisAwareView(parts.view, {
    timestamp: BigInt(parts.genesis.genesisTime.seconds),
    gasLimit: maxGas < 0 ? 4_294_967_295n : BigInt(maxGas),
  });
  const config = parts.config;
  const txpool = parts.txpool(view.common);
  const signers = parts.accounts.map((a): DevSigner => {
    const privateKey = new Uint8Array(Buffer.from(a.privateKey.slice(2), 'hex'));
    // The dev accounts carry their address: no public key to compute at start.
    const address = new Address(Buffer.from(a.address.slice(2), 'hex'));
    return { address, hex: address.toString(), privateKey };
  });
  return {
    chainId: view.chainId,
    config,
    view,
    txpool,
    signers,
    calls: callServiceOf(view, config),
    filters: new FilterRegistry(view, txpool, { timeoutMs: config.filterTimeoutMs, cap: config.filterCap }),
    subscriptions: new SubscriptionRegistry(),
    profiler: new ProfilerSlot(),
    clientVersion: clientVersion(config, parts.devnet),
    logger: parts.logger.child({ module: 'eth-rpc' }),
    namespaces: parts.namespaces,
    ...(parts.observe ? { observe: parts.observe } : {}),
    pendingHeader: () => {
      const next = parts.nextBlock();
      return {
        number: BigInt(view.latestHeight() + 1),
        timestamp: BigInt(next.time.seconds),
        coinbase: view.coinbaseOverride ?? (next.proposer ? new Address(Uint8Array.from(next.proposer)) : createZeroAddress()),
        gasLimit: view.nextGasLimit(),
        baseFeePerGas: view.nextBaseFee(),
      };
    },
  };
}

/**
 * The calls of a chain (eth_call and what runs like it, traces on the same state readers) over the
 * chain's off-chain EVM (src/app/evm), bounded by `[json-rpc] gas-cap` and `evm-timeout`.
 */
export function callServiceOf(view: EvmView, config: Pick<JsonRpcConfig, 'gasCap' | 'evmTimeoutMs'>): EthCalls {
  return new CallService(new CallExecutor(view), { gasCap: config.gasCap, timeoutMs: config.evmTimeoutMs });
}

export function createNamespaceServices(node: ChainletNode): NamespaceServices {
  const { devnet, keystore, nodeKey, validators, app } = node.internals;
  const key = nodeKey ?? validators[0]?.key;
  const hashAt = async (h: number) => {
    const b = await app.evm.getBlock(h);
    return b === undefined ? undefined : `0x${Buffer.from(b.hash).toString('hex')}`;
  };
  return {
    devnet,
    keystore,
    listeners: undefined,
    node: {
      id: key ? Buffer.from(key.address).toString('hex') : '',
      moniker: node.config.moniker,
      chainId: node.chainId,
      evmChainId: node.evmChainId,
      datadir: node.config.home ?? '',
      rpcAddress: node.config.rpc.laddr,
      jsonRpc: { http: node.config.jsonRpc.address, ws: node.config.jsonRpc.wsAddress },
      height: () => node.height,
      genesisHash: () => hashAt(1),
      headHash: () => hashAt(node.height),
    },
  };
}
