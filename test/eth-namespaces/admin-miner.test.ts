/**
 * The admin and miner namespaces over HTTP and WebSocket with viem: the node's description, the
 * eth listeners really stopped and started again, block production paused and resumed, and the
 * coinbase / gas price / gas limit of the next blocks; plus their refusal while not in `api`.
 */
import { createServer } from 'node:net';
import { BaseError, createPublicClient, createWalletClient, defineChain, http, webSocket, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROUTES } from '../../src/rpc/eth/namespaces/admin.js';
import { MINER_ROUTES } from '../../src/rpc/eth/namespaces/miner.js';
import { startNamespaceNode, type NamespaceNode } from './namespace-rpc.js';

const chain = defineChain({
  id: 9000,
  name: 'Chainlet devnet',
  nativeCurrency: { name: 'Chainlet', symbol: 'CHAINLET', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
});
const account = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const OTHER = '0x00000000000000000000000000000000000000ee';

type Client = ReturnType<typeof createPublicClient>;
const call = (c: Client, method: string, params: unknown[] = []) => c.request({ method: method as never, params: params as never }) as Promise<unknown>;

function rpcError(e: unknown): { code: number; message: string } {
  expect(e).toBeInstanceOf(BaseError);
  const inner = (e as BaseError).walk((x) => typeof (x as { code?: unknown }).code === 'number') as unknown as { code: number; details: string };
  return { code: inner.code, message: inner.details };
}

/** Resolves once `check` passes (the listener change happens after the reply); generous for a loaded CI. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not reached');
}

/** A port nobody listens on now. (Restarting on the port just closed is not what is tested here.) */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const answers = (url: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' }).then(
    (r) => r.ok,
    () => false,
  );

describe('admin namespace', () => {
  let n: NamespaceNode;
  beforeAll(async () => {
    n = await startNamespaceNode({ config: { jsonRpc: { api: ['eth', 'web3', 'net', 'admin'] } } });
  });
  afterAll(() => n?.stop());

  it('describes the node: info, no peers, data folder', async () => {
    const c = createPublicClient({ chain, transport: http(n.url) });
    const info = (await call(c, 'admin_nodeInfo')) as {
      id: string;
      name: string;
      enode: string;
      protocols: { eth: { network: number; config: { chainId: number } } };
    };
    expect(info.id).toMatch(/^[0-9a-f]{40}$/);
    expect(info.name).toMatch(/^Chainlet\//);
    expect(info.enode).toBe(`enode://${info.id}@127.0.0.1:26656?discport=0`);
    expect(info.protocols.eth.network).toBe(9000);
    expect(await call(c, 'admin_peers')).toEqual([]);
    expect(await call(c, 'admin_datadir')).toBe('');
  });

  it('stops and starts the HTTP listener (driven over WebSocket) and the WebSocket one (over HTTP)', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const ws = createPublicClient({ chain, transport: webSocket(n.wsUrl) });
    try {
      expect(await answers(n.url)).toBe(true);
      expect(await call(ws, 'admin_stopHTTP')).toBe(true);
      await eventually(async () => !(await answers(n.url)));
      expect(await call(ws, 'admin_startHTTP', ['127.0.0.1', port])).toBe(true);
      expect(await answers(url)).toBe(true);
      const twice = await call(ws, 'admin_startHTTP', ['127.0.0.1', port]).catch((x: unknown) => x);
      expect(rpcError(twice).message).toBe(`HTTP RPC already running on 127.0.0.1:${port}`);
    } finally {
      await (await ws.transport.getRpcClient()).close();
    }
    const httpClient = createPublicClient({ chain, transport: http(url) });
    expect(await call(httpClient, 'admin_stopWS')).toBe(true);
    const wsPort = await freePort();
    await eventually(async () => (await call(httpClient, 'admin_startWS', ['127.0.0.1', wsPort]).catch(() => false)) === true);
    const ws2 = createPublicClient({ chain, transport: webSocket(`ws://127.0.0.1:${wsPort}`) });
    try {
      expect(await call(ws2, 'eth_chainId')).toBe('0x2328');
      // geth's older names of the HTTP pair.
      expect(await call(ws2, 'admin_stopRPC')).toBe(true);
      await eventually(async () => !(await answers(url)));
      const port2 = await freePort();
      expect(await call(ws2, 'admin_startRPC', ['127.0.0.1', port2])).toBe(true);
      expect(await answers(`http://127.0.0.1:${port2}`)).toBe(true);
    } finally {
      await (await ws2.transport.getRpcClient()).close();
    }
  });
});

describe('miner namespace', () => {
  let n: NamespaceNode;
  let c: Client;
  beforeAll(async () => {
    n = await startNamespaceNode({ config: { jsonRpc: { api: ['eth', 'web3', 'net', 'miner'] } } });
    c = createPublicClient({ chain, transport: http(n.url), cacheTime: 0, pollingInterval: 20 });
  });
  afterAll(() => n?.stop());

  it('miner_stop pauses block production and miner_start resumes it', async () => {
    const wallet = createWalletClient({ chain, transport: http(n.url), account });
    expect(await call(c, 'miner_stop')).toBeNull();
    const height = await c.getBlockNumber();
    const hash: Hex = await wallet.sendTransaction({ to: OTHER, value: 1n });
    await new Promise((r) => setTimeout(r, 100));
    expect(await c.getBlockNumber()).toBe(height);
    expect((await c.getTransaction({ hash })).blockNumber).toBeNull();
    expect(await call(c, 'miner_start')).toBeNull();
    expect((await c.waitForTransactionReceipt({ hash })).status).toBe('success');
  });

  it('sets the coinbase, gas limit and minimum gas price of the next blocks', async () => {
    const wallet = createWalletClient({ chain, transport: http(n.url), account });
    expect(await call(c, 'miner_setEtherbase', ['0x00000000000000000000000000000000000C01b5'])).toBe(true);
    expect(await call(c, 'miner_setGasLimit', ['0x17d7840'])).toBe(true); // 25 000 000
    const receipt = await c.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: OTHER, value: 1n }) });
    const block = await c.getBlock({ blockNumber: receipt.blockNumber });
    expect(block.miner).toBe('0x00000000000000000000000000000000000c01b5');
    expect(block.gasLimit).toBe(25_000_000n);
    expect(await call(c, 'miner_setGasPrice', ['0xe8d4a51000'])).toBe(true); // 1000 gwei
    const e = await wallet.sendTransaction({ to: OTHER, value: 1n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BaseError);
    expect(await call(c, 'miner_setGasPrice', ['0x0'])).toBe(true);
    expect((await c.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: OTHER, value: 1n }) })).status).toBe('success');
  });
});

describe('admin and miner when not in api', () => {
  let n: NamespaceNode;
  beforeAll(async () => {
    n = await startNamespaceNode();
  });
  afterAll(() => n?.stop());

  it('answers every admin and miner method as an unknown method', async () => {
    const c = createPublicClient({ chain, transport: http(n.url) });
    for (const r of [...ADMIN_ROUTES, ...MINER_ROUTES]) {
      for (const method of [r.method, ...r.aliases]) {
        const e = await call(c, method).catch((x: unknown) => x);
        expect(rpcError(e)).toEqual({
          code: -32601,
          message: expect.stringMatching(
            new RegExp(
              `^the method ${method} does not exist/is not available \\(the ${r.namespace} namespace is off: start with --json-rpc\\.api \\S*,${r.namespace}, `,
            ),
          ),
        });
      }
    }
  });
});
