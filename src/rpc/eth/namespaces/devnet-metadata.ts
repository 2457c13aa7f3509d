/**
 * What Hardhat's and Anvil's tooling asks a development node about itself (hardhat_metadata,
 * anvil_metadata, anvil_nodeInfo), and hardhat_reset / anvil_reset without a fork. Shapes as
 * Hardhat's reference and Anvil (alloy's `Metadata` / `NodeInfo`) answer them.
 */
import type { EthEnv } from '../env.js';
import { InvalidParamsError } from '../errors.js';
import { data, quantity } from '../hex.js';
import { gasPrice } from '../fees.js';
import { guarded } from './namespace-params.js';
import { servicesOf } from './services.js';

const ZERO_HASH = `0x${'00'.repeat(32)}`;

async function latest(env: EthEnv): Promise<{ number: number; hash: string; timestamp: number }> {
  const h = env.view.latestHeight();
  const b = await env.view.getBlock(h);
  return { number: h, hash: b ? data(b.hash) : ZERO_HASH, timestamp: b ? Number(b.timestamp) : 0 };
}

/** hardhat_metadata: `forkedNetwork` is null (this node never forks). */
export async function hardhatMetadata(env: EthEnv): Promise<Record<string, unknown>> {
  const head = await latest(env);
  return {
    clientVersion: env.clientVersion,
    chainId: Number(env.chainId),
    instanceId: servicesOf(env).devnet.instanceId,
    latestBlockNumber: head.number,
    latestBlockHash: head.hash,
    forkedNetwork: null,
  };
}

/** anvil_metadata: hardhat_metadata plus the live snapshots as `{ id: [blockNumber, blockHash] }`. */
export async function anvilMetadata(env: EthEnv): Promise<Record<string, unknown>> {
  const snapshots: Record<string, [number, string]> = {};
  for (const s of servicesOf(env).devnet.listSnapshots()) {
    const b = await env.view.getBlock(s.height);
    snapshots[quantity(BigInt(s.id))] = [s.height, b ? data(b.hash) : ZERO_HASH];
  }
  return { ...(await hardhatMetadata(env)), snapshots };
}

/** anvil_nodeInfo. */
export async function anvilNodeInfo(env: EthEnv): Promise<Record<string, unknown>> {
  const head = await latest(env);
  return {
    currentBlockNumber: quantity(BigInt(head.number)),
    currentBlockTimestamp: head.timestamp,
    currentBlockHash: head.hash,
    hardFork: env.view.common.hardfork(),
    // The mempool reaps by fee priority within each sender's nonce order.
    transactionOrder: 'fees',
    environment: {
      baseFee: quantity(env.view.nextBaseFee()),
      chainId: Number(env.chainId),
      gasLimit: quantity(env.view.nextGasLimit()),
      gasPrice: gasPrice(env),
    },
    forkConfig: { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
  };
}

/** `hardhat_reset` / `anvil_reset` take a forking config; this node has no fork to go to. */
function refuseFork(options: unknown): void {
  if (options === undefined || options === null) return;
  if (typeof options !== 'object' || Array.isArray(options)) throw new InvalidParamsError('reset options must be an object');
  const o = options as Record<string, unknown>;
  const forking = (o['forking'] ?? o) as Record<string, unknown> | null;
  // viem sends `blockNumber: Number(undefined)` (NaN; null once serialised) when it means none.
  const given = (v: unknown) => v !== undefined && v !== null && !(typeof v === 'number' && Number.isNaN(v));
  if (forking && (given(forking['jsonRpcUrl']) || given(forking['blockNumber']))) {
    throw new InvalidParamsError('forking is not supported: Chainlet runs its own chain; reset without options goes back to its genesis');
  }
}

export const reset = guarded(async (env: EthEnv, [options]: [unknown]) => {
  refuseFork(options);
  await servicesOf(env).devnet.reset();
});
