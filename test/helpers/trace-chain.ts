/**
 * A chain for tracing tests: an in-process node in manual block production (each `block(...)`
 * call is one block with exactly those txs), the ERC20 fixture deployed by dev account 0, and a
 * forwarder contract that CALLs the token with its own calldata and returns what the token
 * returned (a nested frame whose failure does not fail the tx).
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { Address, createContractAddress } from '@ethereumjs/util';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, DEV_KEY_0, signErc20Deploy, signTx, type TxOpts } from '../../src/app/fixtures/signed-txs.js';
import type { ExecutionSource } from '../../src/app/evm/offchain.js';
import type { EvmView } from '../../src/app/views/evm-view.js';
import { mergeConfig } from '../../src/config/defaults.js';
import type { DeepPartial, NodeConfig } from '../../src/config/types.js';
import type { ChainletNode } from '../../src/node/node.js';
import { startEthRpc } from '../../src/node/rpc-eth.js';
import { startTestNode } from './node.js';

export const TOKEN_SUPPLY = 1000n;

export interface TraceChain {
  /** Height of the block that deployed the token and the forwarder. */
  deployHeight: number;
  node: ChainletNode;
  view: EvmView;
  /** What traces run on: the node's off-chain executor (eth_call's memoised state readers). */
  source: ExecutionSource;
  /** Ethereum JSON-RPC over HTTP (with `servers`): the node's own, else one started for the test. */
  rpcUrl: string | undefined;
  /** Lower-case 0x addresses. */
  token: string;
  forwarder: string;
  /** Next nonce of dev account 0. */
  nonce(): bigint;
  /** Signs a tx from dev account 0 with the next nonce. */
  sign(fields: { to?: string; value?: bigint; data?: Uint8Array }, opts?: Omit<TxOpts, 'nonce'>): Uint8Array;
  /** Broadcasts `txs` (each must pass CheckTx) and mines one block; resolves with its height. */
  block(...txs: Uint8Array[]): Promise<number>;
  stop(): Promise<void>;
}

export const addr = (hex: string): Address => new Address(Buffer.from(hex.slice(2), 'hex'));
export const ethHash = (tx: Uint8Array): Uint8Array => keccak_256(tx);

/** Runtime: calldatacopy; call(gas, token, 0, 0, cds, 0, 0); pop; returndatacopy; return(0, rds). */
export function forwarderInitCode(token: string): Uint8Array {
  const runtime = `365f5f37` + `5f5f365f5f73${token.slice(2)}5af1` + `50` + `3d5f5f3e` + `3d5ff3`;
  const len = (runtime.length / 2).toString(16).padStart(2, '0');
  return new Uint8Array(Buffer.from(`60${len}8060095f395ff3${runtime}`, 'hex'));
}

/** `opts.servers` starts the RPC servers too; `opts.config` overrides the node config. */
export async function startTraceChain(opts: { servers?: boolean; config?: DeepPartial<NodeConfig> } = {}): Promise<TraceChain> {
  const config = mergeConfig({ consensus: { mode: 'manual' } } as NodeConfig, opts.config as never) as DeepPartial<NodeConfig>;
  const node = await startTestNode({ servers: opts.servers ?? false, config });
  const view = node.internals.app.evm;
  let rpcUrl = node.urls.jsonRpc;
  let ownRpc: { stop(): Promise<void> } | undefined;
  if (opts.servers && rpcUrl === undefined) {
    const rpc = await startEthRpc(node);
    ownRpc = rpc;
    rpcUrl = rpc.url;
  }
  let nonce = 0n;
  const sender = addr(DEV_ADDRESS_0);
  const chain: TraceChain = {
    deployHeight: 0,
    node,
    view,
    source: node.internals.eth.env.calls.executor,
    rpcUrl,
    token: createContractAddress(sender, 0n).toString(),
    forwarder: createContractAddress(sender, 1n).toString(),
    nonce: () => nonce,
    sign: (fields, opts = {}) => signTx(DEV_KEY_0, fields, { gasLimit: 200_000n, ...opts, nonce: nonce++ }),
    async block(...txs) {
      for (const tx of txs) {
        const res = await node.broadcastTx(tx);
        if (res.code !== 0) throw new Error(`CheckTx refused a test tx: ${res.log}`);
      }
      const [height] = await node.mine(1);
      return height!;
    },
    async stop() {
      await ownRpc?.stop();
      await node.stop();
    },
  };
  const deploy = signErc20Deploy(DEV_KEY_0, TOKEN_SUPPLY, { nonce: nonce++ });
  const forwarder = chain.sign({ data: forwarderInitCode(chain.token) });
  chain.deployHeight = await chain.block(deploy, forwarder);
  return chain;
}

export { DEV_ADDRESS_0, DEV_ADDRESS_1 };
