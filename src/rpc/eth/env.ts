/**
 * EthEnv: everything an eth_* handler may touch, as narrow interfaces built once from a node
 * (as CometBFT's rpc/core Environment). Handlers never see the node, the consensus engine or
 * the app object; the stateful parts of one server (filters, call executor) live here too.
 */
import type { MempoolContent } from '../../mempool/types.js';
import type { Logger } from 'pino';
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { Address, privateToAddress } from '@ethereumjs/util';
import type { ResponseCheckTx } from '../../abci/types.js';
import type { EvmView } from '../../app/evm-view.js';
import type { JsonRpcConfig } from '../../config/types.js';
import type { ChainletNode } from '../../node/node.js';
import { VERSION } from '../../version.js';
import { CallService } from './call-service.js';
import { createNamespaceServices, type NamespaceServices } from './namespaces/services.js';
import { CallExecutor, type PendingHeader } from './exec/call-executor.js';
import { FilterRegistry } from './filter-registry.js';
import { GenesisAwareView } from './genesis-block.js';

/** A tx waiting in the mempool, decoded for the eth view. */
export interface PendingTx {
  tx: TypedTransaction;
  sender: Address;
  hash: Uint8Array;
}

export interface EthTxPool {
  /** CheckTx + admission (eth_sendRawTransaction). Mempool pre-check errors throw. */
  submit(raw: Uint8Array): Promise<ResponseCheckTx>;
  /** Next nonce after `sender`'s executable pending txs; undefined when it has none. */
  pendingNonce(sender: string): bigint | undefined;
  /** A pending tx by its EVM hash. */
  pending(ethHash: Uint8Array): PendingTx | undefined;
  /** EVM hashes of txs as they are admitted (newPendingTransactions). */
  onNewTx(listener: (ethHash: Uint8Array) => void): () => void;
  /** Pending and queued txs per sender (txpool_*). */
  content(): MempoolContent;
}

export interface DevSigner {
  address: Address;
  /** Lower-case 0x. */
  hex: string;
  privateKey: Uint8Array;
}

export interface EthEnv {
  readonly chainId: bigint;
  readonly config: JsonRpcConfig;
  readonly view: EvmView;
  readonly txpool: EthTxPool;
  readonly signers: readonly DevSigner[];
  readonly calls: CallService;
  readonly filters: FilterRegistry;
  readonly clientVersion: string;
  readonly logger: Logger;
  /** personal / admin / miner / devnet services (src/rpc/eth/namespaces/services.ts). */
  readonly namespaces?: NamespaceServices;
  /** The header the next block will have if it is proposed now: the `pending` block of calls and estimates. */
  pendingHeader(): PendingHeader;
}

/**
 * web3_clientVersion. With devnet control on, the answer starts with `anvil-compatible`: the node
 * serves Anvil's method set, and hardhat-network-helpers and Foundry tools accept a development
 * network only when the version starts with `anvil` (or `hardhatnetwork`); Chainlet's own name and
 * version follow, so the answer stays truthful. `[json-rpc] client-version` replaces it.
 */
export function clientVersion(cfg: { clientVersion: string } = { clientVersion: '' }, devnet = false): string {
  if (cfg.clientVersion !== '') return cfg.clientVersion;
  const own = `Chainlet/v${VERSION}/${process.platform}-${process.arch}/node${process.versions.node}`;
  return devnet ? `anvil-compatible ${own}` : own;
}

export function createEthEnv(node: ChainletNode): EthEnv {
  const maxGas = node.genesis.consensusParams.block.maxGas;
  const view = new GenesisAwareView(node.internals.app.evm, {
    timestamp: BigInt(node.genesis.genesisTime.seconds),
    gasLimit: maxGas < 0 ? 4_294_967_295n : BigInt(maxGas),
  });
  const mempool = node.internals.mempool;
  const config = node.config.jsonRpc;
  const common = view.common;
  const txpool: EthTxPool = {
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
  };
  const signers = node.accounts.map((a): DevSigner => {
    const privateKey = new Uint8Array(Buffer.from(a.privateKey.slice(2), 'hex'));
    const address = new Address(privateToAddress(privateKey));
    return { address, hex: address.toString(), privateKey };
  });
  const logger = node.logger.child({ module: 'eth-rpc' });
  return {
    chainId: view.chainId,
    config,
    view,
    txpool,
    signers,
    calls: new CallService(new CallExecutor(view), { gasCap: config.gasCap, timeoutMs: config.evmTimeoutMs }),
    filters: new FilterRegistry(view, txpool, { timeoutMs: config.filterTimeoutMs, cap: config.filterCap }),
    clientVersion: clientVersion(config, node.config.evm.devnet),
    logger,
    namespaces: createNamespaceServices(node),
    pendingHeader: () => ({
      number: BigInt(view.latestHeight() + 1),
      timestamp: BigInt(node.internals.consensus.pendingBlockTime().seconds),
      coinbase: view.coinbaseOverride ?? new Address(Uint8Array.from(node.internals.consensus.nextProposer())),
      gasLimit: view.nextGasLimit(),
      baseFeePerGas: view.nextBaseFee(),
    }),
  };
}
