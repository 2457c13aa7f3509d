/**
 * The CometBFT RPC's environment (CometEnv) filled from a chain's parts, and its server started:
 * any chain of the network, whatever its application. Nothing under src/rpc imports the node
 * (test/core/layers.test.ts holds that).
 */
import { toHex } from '../crypto/encoding.js';
import { sha256 } from '../crypto/hash.js';
import { genesisToJson } from '../genesis/genesis-doc.js';
import { startCometServer, type CometRpcOptions, type CometRpcServer } from '../rpc/comet/server.js';
import type { CometEnv, RoundStateView } from '../rpc/comet/env.js';
import type { AppConnMempool, AppConnQuery } from '../abci/application.js';
import type { ChainletNode, NodeInternals } from './node.js';

/** Starts the CometBFT RPC of `node` on `[rpc] laddr`. */
export function startCometRpc(node: CometChainSource, opts: CometRpcOptions = {}): Promise<CometRpcServer> {
  return startCometServer(cometEnvFromNode(node), opts);
}

const P2P_DEFAULT_LADDR = 'tcp://0.0.0.0:26656';
const STEP_NEW_HEIGHT = 1;

/** What the CometBFT RPC needs of a chain: any chain of the network, whatever its application. */
export interface CometChainSource {
  readonly chainId: string;
  readonly genesis: ChainletNode['genesis'];
  readonly config: Pick<ChainletNode['config'], 'rpc' | 'moniker' | 'mempool'>;
  readonly logger: ChainletNode['logger'];
  readonly internals: Pick<
    NodeInternals,
    'mempool' | 'eventBus' | 'blockStore' | 'stateStore' | 'txIndexer' | 'blockIndexer' | 'consensus' | 'validators' | 'nodeKey'
  > & {
    readonly app: AppConnQuery & AppConnMempool;
  };
}

/** The CometBFT RPC environment of a running chain. */
export function cometEnvFromNode(node: CometChainSource): CometEnv {
  const i = node.internals;
  const localKey = i.validators[0]?.key;
  const idKey = i.nodeKey ?? localKey;
  let genesisJson: unknown;

  return {
    config: node.config.rpc,
    nodeInfo: {
      id: idKey ? toHex(idKey.address) : toHex(sha256(new TextEncoder().encode(node.chainId)).subarray(0, 20)),
      moniker: node.config.moniker,
      network: node.chainId,
      listenAddr: P2P_DEFAULT_LADDR,
      txIndex: i.txIndexer ? 'on' : 'off',
      rpcAddress: node.config.rpc.laddr,
    },
    genesis: node.genesis,
    genesisJson: () => (genesisJson ??= genesisToJson(node.genesis)),
    blockStore: i.blockStore,
    stateStore: i.stateStore,
    txIndexer: i.txIndexer,
    blockIndexer: i.blockIndexer,
    mempool: {
      checkTx: (tx) => i.mempool.checkTx(tx),
      reapMaxTxs: (max) => i.mempool.reapMaxTxs(max),
      has: (hash) => i.mempool.has(hash),
      size: () => i.mempool.size(),
      sizeBytes: () => i.mempool.sizeBytes(),
      flush: () => i.mempool.flush(),
      hasQueued: () => i.mempool.hasQueued(),
      limits: node.config.mempool,
    },
    eventBus: i.eventBus,
    appQuery: i.app,
    appMempool: i.app,
    consensus: {
      roundState(): RoundStateView {
        const s = i.consensus.state;
        const validators = s.validators.validators;
        return {
          height: s.lastBlockHeight === 0 ? s.initialHeight : s.lastBlockHeight + 1,
          round: 0,
          step: STEP_NEW_HEIGHT,
          stepName: 'RoundStepNewHeight',
          startTime: s.lastBlockTime,
          validators,
          proposer: validators.length > 0 ? s.validators.proposer : undefined,
          lastValidators: s.lastValidators?.validators ?? [],
          lastCommit: undefined,
        };
      },
      localValidator: () => (localKey ? { address: localKey.address, pubKey: localKey.publicKey } : undefined),
      votingPowerOf(address) {
        return i.consensus.state.validators.getByAddress(address)?.validator.votingPower ?? 0;
      },
    },
    logger: node.logger.child({ module: 'rpc-comet' }),
  };
}
