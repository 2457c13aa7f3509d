/**
 * Routing API test fixture: a test node plus its routing API on port 0. Uses the node's own
 * routing server when the node starts one (servers.ts), else starts one with startRoutingApi.
 */
import type { Logger } from 'pino';
import { privateKeyToAccount } from 'viem/accounts';
import { mergeConfig } from '../../src/config/defaults.js';
import type { DeepPartial, NodeConfig } from '../../src/config/types.js';
import type { ChainletNode } from '../../src/node/node.js';
import { startRoutingApi } from '../../src/node/rpc-routing.js';
import type { RoutingApi } from '../../src/rpc/routing/server.js';
import { startTestNode } from '../helpers/node.js';

export const DEV_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;
export const account = privateKeyToAccount(DEV_KEY);
export const CHAIN_ID = 'chainlet_9000-1';
export const EVM_CHAIN_ID = '9000';

/** Generous limits so functional tests never meet the rate limit; a test's own `routing` values win. */
const NO_LIMIT: DeepPartial<NodeConfig> = { routing: { rateLimitPerSecond: 10_000, rateLimitBurst: 10_000 } };

export interface RoutingFixture {
  node: ChainletNode;
  url: string;
  api: RoutingApi | undefined;
  stop(): Promise<void>;
}

export async function startRoutingNode(config: DeepPartial<NodeConfig> = {}, opts: { logger?: Logger; home?: string } = {}): Promise<RoutingFixture> {
  const merged = mergeConfig(NO_LIMIT as NodeConfig, config as never) as DeepPartial<NodeConfig>;
  const node = await startTestNode({ config: merged, logger: opts.logger, home: opts.home });
  let api: RoutingApi | undefined;
  let url = node.urls.routing;
  if (!url) {
    api = await startRoutingApi(node);
    url = api.url;
  }
  return {
    node,
    url,
    api,
    async stop() {
      await api?.stop();
      await node.stop();
    },
  };
}

export interface SignOpts {
  nonce: number;
  to?: `0x${string}`;
  value?: bigint;
  data?: `0x${string}`;
  gas?: bigint;
  chainId?: number;
}

/** A signed EIP-1559 tx from dev account 0 (viem), as base64 for /v2/tx/submit. */
export async function signedTxBase64(o: SignOpts): Promise<string> {
  const raw = await account.signTransaction({
    chainId: o.chainId ?? 9000,
    type: 'eip1559',
    nonce: o.nonce,
    to: o.to ?? '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    value: o.value ?? 1n,
    data: o.data,
    gas: o.gas ?? 21_000n,
    maxFeePerGas: 10_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  });
  return Buffer.from(raw.slice(2), 'hex').toString('base64');
}

export interface JsonReply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function getJson<T = any>(url: string, headers: Record<string, string> = {}): Promise<JsonReply<T>> {
  const r = await fetch(url, { headers });
  return { status: r.status, headers: r.headers, body: (await r.json()) as T };
}

export async function postJson<T = any>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonReply<T>> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: r.status, headers: r.headers, body: (await r.json()) as T };
}

/** Polls /v2/tx/status (as the official client does, but faster) until `done` or the deadline. */
export async function pollStatus(url: string, chainId: string, txHash: string, done: (state: string) => boolean, timeoutMs = 20_000): Promise<any[]> {
  const seen: any[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await getJson(`${url}/v2/tx/status?chain_id=${encodeURIComponent(chainId)}&tx_hash=${txHash}`);
    if (r.status !== 200) throw new Error(`status ${r.status}: ${JSON.stringify(r.body)}`);
    seen.push(r.body);
    if (done(r.body.state)) return seen;
    if (Date.now() > deadline) throw new Error(`timed out; last state ${r.body.state}`);
    await new Promise((res) => setTimeout(res, 25));
  }
}
