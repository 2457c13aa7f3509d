/**
 * `chainlet rpc`'s shape without a CometBFT binary: the home's EVM app is served over the ABCI
 * socket by startCometFront, and this project's own consensus engine, mempool and CometBFT RPC drive
 * it from the other end of the socket (connectSocketApp, as `cometbft node --proxy_app` does). Real
 * clients then use the front: viem over its Ethereum JSON-RPC (HTTP and WebSocket) and the routing
 * API, with txs travelling front → CometBFT RPC → mempool → socket CheckTx → block → socket
 * FinalizeBlock/Commit → the app's stores → the front's answers.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createPublicClient, http, parseEther, webSocket, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSocketApp, type SocketApplication } from '../../src/abci-server/socket-client.js';
import { initHome, loadHome } from '../../src/genesis/home.js';
import { startAbciChain, type AbciChain } from '../../src/chains/abci-chain.js';
import { CometRpcClient } from '../../src/node/comet-front/comet-client.js';
import { startCometFront, type CometFront } from '../../src/node/comet-front/front.js';
import { signErc20Deploy } from '../../src/app/fixtures/signed-txs.js';

const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;
const account = privateKeyToAccount(KEY0);
const RECIPIENT = '0x00000000000000000000000000000000000c0fee' as const;
const silent = pino({ level: 'silent' });

const home = mkdtempSync(join(tmpdir(), 'chainlet-front-'));
let front: CometFront;
let socketApp: SocketApplication;
let comet: AbciChain<SocketApplication>;
let chainId: number;

async function cometCall<T>(method: string, params: Record<string, unknown>): Promise<T> {
  const r = await fetch(comet.urls.rpc!, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await r.json()) as { result: T };
  return body.result;
}

beforeAll(async () => {
  initHome(home);
  // CometBFT starts after its app and on a port chosen at start: the front learns the URL late.
  const client = new CometRpcClient('http://127.0.0.1:1');
  front = await startCometFront({
    home,
    comet: client,
    proxyApp: 'tcp://127.0.0.1:0',
    config: {
      jsonRpc: { address: '127.0.0.1:0', wsAddress: '127.0.0.1:0', api: ['eth', 'net', 'web3', 'txpool'] },
      routing: { address: '127.0.0.1:0', rateLimitBurst: 10_000, rateLimitPerSecond: 10_000 },
    },
    logger: silent,
  });
  socketApp = await connectSocketApp(front.abciAddress);
  const h = loadHome(home);
  comet = await startAbciChain({
    app: socketApp,
    genesis: h.genesis,
    validatorKeys: h.validatorKeys,
    config: { rpc: { laddr: 'tcp://127.0.0.1:0' }, consensus: { mode: 'manual' } },
    logger: silent,
    closeApp: () => socketApp.close(),
  });
  client.url = comet.urls.rpc!;
  chainId = Number(
    BigInt(
      (
        (await (
          await fetch(front.urls.jsonRpc!, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
          })
        ).json()) as { result: string }
      ).result,
    ),
  );
}, 30_000);

afterAll(async () => {
  await comet?.stop();
  await front?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('chainlet rpc in front of a consensus engine that reaches the app over the ABCI socket', () => {
  it('serves the chain the engine built: heights, block hashes and balances agree with the CometBFT RPC', async () => {
    const pub = createPublicClient({ transport: http(front.urls.jsonRpc) });
    expect(comet.height).toBe(1);
    expect(await pub.getBlockNumber()).toBe(1n);
    const block = await pub.getBlock({ blockNumber: 1n });
    const cb = await cometCall<{ block_id: { hash: string } }>('block', { height: '1' });
    expect(block.hash.slice(2).toUpperCase()).toBe(cb.block_id.hash);
    const alloc = (loadHome(home).genesis.appState as { evm: { alloc: Record<string, { balance: string }> } }).evm.alloc;
    const entry = Object.entries(alloc).find(([a]) => a.toLowerCase() === account.address.toLowerCase());
    const genesisBalance = BigInt(entry![1].balance);
    expect(await pub.getBalance({ address: account.address })).toBe(genesisBalance);
  });

  it('a tx sent to the front waits in CometBFT’s mempool (pending nonce, pending tx, txpool) and is mined by the engine', async () => {
    const pub = createPublicClient({ transport: http(front.urls.jsonRpc) });
    const nonce = await pub.getTransactionCount({ address: account.address });
    const raw = await account.signTransaction({
      chainId,
      type: 'eip1559',
      nonce,
      to: RECIPIENT,
      value: parseEther('1.5'),
      gas: 21_000n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    });
    const hash = await pub.sendRawTransaction({ serializedTransaction: raw });
    // In CometBFT's mempool, not yet in a block (manual mode).
    expect(await pub.getTransactionCount({ address: account.address, blockTag: 'pending' })).toBe(nonce + 1);
    const pending = await pub.getTransaction({ hash });
    expect(pending.blockNumber).toBeNull();
    const content = (await pub.request({ method: 'txpool_content' as never })) as { pending: Record<string, Record<string, unknown>> };
    expect(Object.keys(content.pending).map((a) => a.toLowerCase())).toContain(account.address.toLowerCase());
    const unconfirmed = await cometCall<{ n_txs: string }>('unconfirmed_txs', {});
    expect(unconfirmed.n_txs).toBe('1');

    await comet.mine(1);
    const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    expect(receipt.status).toBe('success');
    expect(receipt.blockNumber).toBe(2n);
    expect(await pub.getBalance({ address: RECIPIENT })).toBe(parseEther('1.5'));
    // CometBFT indexed the same tx with code 0.
    const cometHash = createHash('sha256')
      .update(Buffer.from(raw.slice(2), 'hex'))
      .digest('base64');
    const cometTx = await cometCall<{ height: string; tx_result: { code: number } }>('tx', { hash: cometHash });
    expect(cometTx.height).toBe('2');
    expect(cometTx.tx_result.code).toBe(0);
    expect(await pub.getTransactionCount({ address: account.address, blockTag: 'pending' })).toBe(nonce + 1);
  });

  it('contract deploys, calls and estimates run on the app’s state; newHeads arrive over the WebSocket', async () => {
    const pub = createPublicClient({ transport: http(front.urls.jsonRpc) });
    const ws = createPublicClient({ transport: webSocket(front.urls.jsonRpcWs) });
    const heads: bigint[] = [];
    const unwatch = ws.watchBlocks({ onBlock: (b) => heads.push(b.number!) });
    await new Promise((r) => setTimeout(r, 100));
    const nonce = await pub.getTransactionCount({ address: account.address });
    const raw = signErc20Deploy(KEY0, 10n ** 24n, { nonce: BigInt(nonce), chainId: BigInt(chainId) });
    const hash = (await pub.request({ method: 'eth_sendRawTransaction', params: [`0x${Buffer.from(raw).toString('hex')}` as Hex] })) as Hex;
    await comet.mine(1);
    const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    expect(receipt.status).toBe('success');
    const token = receipt.contractAddress!;
    const balanceOf = `0x70a08231${account.address.slice(2).toLowerCase().padStart(64, '0')}` as Hex;
    const r = await pub.call({ to: token, data: balanceOf });
    expect(BigInt(r.data!)).toBe(10n ** 24n);
    const transfer = `0xa9059cbb${RECIPIENT.slice(2).padStart(64, '0')}${5n.toString(16).padStart(64, '0')}` as Hex;
    const gas = await pub.estimateGas({ account: account.address, to: token, data: transfer });
    expect(gas).toBeGreaterThan(21_000n);
    for (let i = 0; i < 100 && !heads.includes(receipt.blockNumber); i++) await new Promise((r2) => setTimeout(r2, 20));
    unwatch();
    expect(heads).toContain(receipt.blockNumber);
  });

  it('the routing API submits through CometBFT and follows the tx to success with CometBFT’s index', async () => {
    const pub = createPublicClient({ transport: http(front.urls.jsonRpc) });
    const nonce = await pub.getTransactionCount({ address: account.address });
    const raw = await account.signTransaction({
      chainId,
      type: 'eip1559',
      nonce,
      to: RECIPIENT,
      value: 7n,
      gas: 21_000n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    });
    const chainIdStr = String(chainId);
    const submit = await fetch(`${front.urls.routing}/v2/tx/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chain_id: chainIdStr, tx: Buffer.from(raw.slice(2), 'hex').toString('base64') }),
    });
    expect(submit.status).toBe(200);
    const { tx_hash } = (await submit.json()) as { tx_hash: string };
    expect(tx_hash).toMatch(/^[0-9A-Fa-fx]+$/);
    await comet.mine(1);
    let state = '';
    for (let i = 0; i < 200 && state !== 'STATE_COMPLETED_SUCCESS'; i++) {
      const s = await fetch(`${front.urls.routing}/v2/tx/status?chain_id=${chainIdStr}&tx_hash=${tx_hash}`);
      state = ((await s.json()) as { state: string }).state;
      if (state !== 'STATE_COMPLETED_SUCCESS') await new Promise((r) => setTimeout(r, 25));
    }
    expect(state).toBe('STATE_COMPLETED_SUCCESS');
    const bal = await fetch(`${front.urls.routing}/v2/info/balances`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chains: { [chainIdStr]: { address: RECIPIENT, denoms: [] } } }),
    });
    expect(bal.status).toBe(200);
  });

  it('refuses the namespaces that need the in-process node', async () => {
    const other = mkdtempSync(join(tmpdir(), 'chainlet-front-'));
    initHome(other);
    try {
      await expect(
        startCometFront({
          home: other,
          comet: 'http://127.0.0.1:1',
          proxyApp: 'tcp://127.0.0.1:0',
          config: { jsonRpc: { api: ['eth', 'personal'] } },
          logger: silent,
        }),
      ).rejects.toThrow(/cannot serve the personal namespace/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
