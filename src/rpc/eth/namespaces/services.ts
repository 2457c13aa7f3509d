/**
 * What the personal, admin, miner and devnet handlers reach beyond EthEnv, as one narrow object
 * built from the node (createEthEnv adds it as `env.namespaces`). The eth server sets
 * `listeners` once its listeners run, so admin_start/stopHTTP/WS can drive them.
 */
import type { ChainletNode } from '../../../node/node.js';
import type { DevnetControl } from '../../../node/devnet/devnet-control.js';
import type { Keystore } from '../../../node/keystore/keystore.js';
import type { EthEnv } from '../env.js';
import { EthRpcError } from '../errors.js';
import type { EthListenerControl } from './listener-control.js';

export interface NodeDescription {
  /** Hex id of the node key (CometBFT node id), or of the first validator when there is none. */
  id: string;
  moniker: string;
  chainId: string;
  evmChainId: number;
  /** The home folder; '' for an in-memory node. */
  datadir: string;
  /** The CometBFT RPC address (`[rpc] laddr`). */
  rpcAddress: string;
  jsonRpc: { http: string; ws: string };
  height(): number;
  genesisHash(): Promise<string | undefined>;
  headHash(): Promise<string | undefined>;
}

export interface NamespaceServices {
  readonly devnet: DevnetControl;
  readonly keystore: Keystore;
  readonly node: NodeDescription;
  /** Set by the eth server when it starts (undefined for in-process providers). */
  listeners: EthListenerControl | undefined;
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

/** The services of an env (-32603 with a clear text when the env was built without them). */
export function servicesOf(env: EthEnv): NamespaceServices {
  const s = (env as EthEnv & { namespaces?: NamespaceServices }).namespaces;
  if (s === undefined) throw new EthRpcError(-32603, 'this eth environment has no namespace services (createEthEnv must set env.namespaces)');
  return s;
}
