/**
 * The routing API's ERC-20 reads run as eth_call runs, so `[json-rpc] gas-cap` and `evm-timeout`
 * bound them: a token whose `balanceOf` / `decimals` loops forever costs one timeout, the API
 * answers (a per-denom error in /v2/info/balances, the token left out of /v2/fungible/assets) and
 * the node keeps answering its other requests meanwhile. Tokens are set with `anvil_setCode`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode } from '../helpers/node.js';
import { EVM_CHAIN_ID, startRoutingNode, type RoutingFixture } from './helpers.js';

const HOLDER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
/** JUMPDEST PUSH1 0 JUMP: every call loops until it runs out of gas or time. */
const ENDLESS_CODE = '0x5b600056';
/** `decimals()` answers 18; every other call answers the gas left (GAS) as a word. */
const GAS_REPORTER_CODE = '0x5f3560e01c63313ce567146015575a5f5260205ff35b60125f5260205ff3';
/** Registered in `[routing] erc20-tokens` with no code at start; given the endless code later. */
const ENDLESS = '0x00000000000000000000000000000000000E1001';
const GAS_REPORTER = '0x00000000000000000000000000000000000E1002';
/** Generous client bounds: a frozen node fails the test instead of hanging it. */
const CLIENT_TIMEOUT_MS = 30_000;

async function post(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
  });
  return { status: r.status, body: await r.json() };
}

async function rpc(f: RoutingFixture, method: string, params: unknown[] = []): Promise<unknown> {
  const r = await post(f.node.urls.jsonRpc!, { jsonrpc: '2.0', id: 1, method, params });
  if (r.body.error) throw new Error(`${method}: ${r.body.error.message}`);
  return r.body.result;
}

const balanceOf = (f: RoutingFixture, token: string) => post(`${f.url}/v2/info/balances`, { chains: { [EVM_CHAIN_ID]: { address: HOLDER, denoms: [token] } } });

describe('ERC-20 reads under [json-rpc] evm-timeout', () => {
  let f: RoutingFixture;
  beforeAll(async () => {
    // No gas cap and no block gas limit (2^32 - 1 gas, minutes of looping): only the timeout stops the loop.
    const node = await startTestNode({
      config: {
        consensus: { mode: 'manual' },
        jsonRpc: { gasCap: 0n, evmTimeoutMs: 2_000 },
        routing: { erc20Tokens: [ENDLESS], rateLimitPerSecond: 10_000, rateLimitBurst: 10_000 },
      },
      devnet: { blockMaxGas: -1 },
    });
    f = { node, url: node.urls.routing!, api: undefined, stop: () => node.stop() };
    await rpc(f, 'anvil_setCode', [ENDLESS, ENDLESS_CODE]);
  });
  afterAll(async () => {
    await f?.stop();
  });

  it('answers a balance of an endless token with a per-denom error, serving other requests meanwhile', async () => {
    const balances = balanceOf(f, ENDLESS);
    const order: string[] = [];
    const marked = (name: string, p: Promise<unknown>) => p.then(() => void order.push(name));
    const readUnderway = marked('balances', balances);
    // Asked once the read loops (a loop that never yields would hold this timer back until it ends):
    // the read yields while it loops, so eth_blockNumber is answered before the read times out.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await Promise.all([readUnderway, marked('eth_blockNumber', rpc(f, 'eth_blockNumber'))]);
    expect(order).toEqual(['eth_blockNumber', 'balances']);
    const r = await balances;
    expect(r.status).toBe(200);
    expect(r.body.chains[EVM_CHAIN_ID].denoms[ENDLESS]).toEqual({
      amount: '0',
      formatted_amount: '0',
      error: { message: `balanceOf failed on ${ENDLESS.toLowerCase()}: execution aborted (timeout = 2s)` },
    });
    expect(await rpc(f, 'eth_blockNumber')).toMatch(/^0x[0-9a-f]+$/);
  });

  it('leaves an endless registered token out of /v2/fungible/assets', async () => {
    const r = await fetch(`${f.url}/v2/fungible/assets?include_evm_assets=true&chain_ids=${EVM_CHAIN_ID}`, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    expect(r.status).toBe(200);
    const assets = ((await r.json()) as any).chain_to_assets_map[EVM_CHAIN_ID].assets as { denom: string }[];
    expect(assets.map((a) => a.denom)).toEqual(['chainlet-native']);
    expect(await rpc(f, 'eth_blockNumber')).toMatch(/^0x[0-9a-f]+$/);
  });
});

describe('ERC-20 reads under [json-rpc] gas-cap', () => {
  const GAS_CAP = 1_000_000n;
  let f: RoutingFixture;
  beforeAll(async () => {
    f = await startRoutingNode({ consensus: { mode: 'manual' }, jsonRpc: { gasCap: GAS_CAP, evmTimeoutMs: 60_000 } });
    await rpc(f, 'anvil_setCode', [GAS_REPORTER, GAS_REPORTER_CODE]);
    await rpc(f, 'anvil_setCode', [ENDLESS, ENDLESS_CODE]);
  });
  afterAll(async () => {
    await f?.stop();
  });

  it('gives balanceOf the gas cap, as eth_call does', async () => {
    const r = await balanceOf(f, GAS_REPORTER);
    const d = r.body.chains[EVM_CHAIN_ID].denoms[GAS_REPORTER];
    expect(d.decimals).toBe(18);
    // What the call had left: the cap less the intrinsic gas and a few opcodes.
    const left = BigInt(d.amount);
    expect(left).toBeLessThan(GAS_CAP - 21_000n);
    expect(left).toBeGreaterThan(GAS_CAP - 30_000n);
  });

  it('stops an endless balanceOf at the gas cap', async () => {
    const r = await balanceOf(f, ENDLESS);
    expect(r.body.chains[EVM_CHAIN_ID].denoms[ENDLESS].error).toEqual({ message: `balanceOf failed on ${ENDLESS.toLowerCase()}: out of gas` });
  });
});
