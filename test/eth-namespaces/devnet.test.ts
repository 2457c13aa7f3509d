/**
 * Devnet control (evm_* / anvil_* / hardhat_*) over HTTP with viem's test client, in both of its
 * modes, plus the refusal of every devnet method while `[evm] devnet` is off.
 */
import { BaseError, bytesToHex, createPublicClient, createTestClient, createWalletClient, defineChain, http, parseEther, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erc20DeployData, erc20TransferData } from '../../src/app/fixtures/erc20.js';
import { DEVNET_ROUTES } from '../../src/rpc/eth/namespaces/devnet.js';
import { startNamespaceNode, type NamespaceNode } from './namespace-rpc.js';

const chain = defineChain({
  id: 9000,
  name: 'Chainlet devnet',
  nativeCurrency: { name: 'Chainlet', symbol: 'CHAINLET', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
});
const account = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

function clients(url: string, mode: 'anvil' | 'hardhat') {
  const transport = http(url);
  return {
    test: createTestClient({ chain, mode, transport }),
    pub: createPublicClient({ chain, transport, cacheTime: 0, pollingInterval: 20 }),
    wallet: createWalletClient({ chain, transport, account }),
  };
}

/** The JSON-RPC error under a viem error. */
function rpcError(e: unknown): { code: number; message: string } {
  expect(e).toBeInstanceOf(BaseError);
  const inner = (e as BaseError).walk((x) => typeof (x as { code?: unknown }).code === 'number') as unknown as { code: number; details: string };
  return { code: inner.code, message: inner.details };
}

describe.each(['anvil', 'hardhat'] as const)('devnet control with viem (%s mode)', (mode) => {
  let n: NamespaceNode;
  let c: ReturnType<typeof clients>;
  beforeAll(async () => {
    n = await startNamespaceNode();
    c = clients(n.url, mode);
  });
  afterAll(() => n?.stop());

  it(`${mode}_mine: 10 000 blocks at once, chained, one second apart`, async () => {
    const start = await c.pub.getBlockNumber();
    await c.test.mine({ blocks: 10_000 });
    const head = await c.pub.getBlockNumber();
    expect(head).toBe(start + 10_000n);
    const [top, below, mid] = await Promise.all([
      c.pub.getBlock({ blockNumber: head }),
      c.pub.getBlock({ blockNumber: head - 1n }),
      c.pub.getBlock({ blockNumber: start + 5_000n }),
    ]);
    expect(top.parentHash).toBe(below.hash);
    expect(top.timestamp - below.timestamp).toBe(1n);
    expect(mid.transactions).toEqual([]);
    expect((await c.pub.getBlock({ blockHash: mid.hash })).number).toBe(start + 5_000n);
    // The next real block continues the chain.
    const hash = await c.wallet.sendTransaction({ to: OTHER, value: 1n });
    const receipt = await c.pub.waitForTransactionReceipt({ hash });
    expect((await c.pub.getBlock({ blockNumber: receipt.blockNumber })).parentHash).toBe(top.hash);
  });

  it(`${mode}_mine with an interval spaces the blocks`, async () => {
    await c.test.mine({ blocks: 3, interval: 12 });
    const head = await c.pub.getBlock();
    const prev = await c.pub.getBlock({ blockNumber: head.number - 1n });
    expect(head.timestamp - prev.timestamp).toBe(12n);
  });

  it('evm_mine mines one block, at a timestamp if given', async () => {
    const before = await c.pub.getBlock();
    expect(await c.test.request({ method: 'evm_mine' as never })).toBe('0x0');
    const ts = Number(before.timestamp) + 1_000;
    await c.test.request({ method: 'evm_mine' as never, params: [ts] as never });
    const head = await c.pub.getBlock();
    expect(head.number).toBe(before.number + 2n);
    expect(head.timestamp).toBe(BigInt(ts));
    await c.test.request({ method: 'evm_mine' as never, params: [{ blocks: '0x3' }] as never });
    expect(await c.pub.getBlockNumber()).toBe(head.number + 3n);
  });

  it('evm_snapshot / evm_revert restore the chain, balances and the mempool, with Hardhat’s id rules', async () => {
    await c.test.setAutomine(false);
    try {
      const pending = await c.wallet.sendTransaction({ to: OTHER, value: 1n });
      const id = await c.test.snapshot();
      const height = await c.pub.getBlockNumber();
      const balance = await c.pub.getBalance({ address: OTHER });
      await c.test.mine({ blocks: 1 });
      const mined = await c.wallet.sendTransaction({ to: OTHER, value: parseEther('1') });
      await c.test.mine({ blocks: 1 });
      expect(await c.pub.getBalance({ address: OTHER })).toBe(balance + 1n + parseEther('1'));
      const later = await c.test.snapshot();

      await c.test.revert({ id });
      expect(await c.pub.getBlockNumber()).toBe(height);
      expect(await c.pub.getBalance({ address: OTHER })).toBe(balance);
      await expect(c.pub.getTransactionReceipt({ hash: mined })).rejects.toThrow();
      expect((await c.pub.getTransaction({ hash: pending })).blockNumber).toBeNull(); // pending again
      expect(await c.test.request({ method: 'evm_revert', params: [later] })).toBe(false);
      expect(await c.test.request({ method: 'evm_revert', params: [id] })).toBe(false);
      expect(await c.test.snapshot()).toBe(id); // the id is handed out again
    } finally {
      await c.test.setAutomine(true);
    }
  });

  it('evm_increaseTime and evm_setNextBlockTimestamp move the block clock', async () => {
    const before = await c.pub.getBlock();
    const total = await c.test.increaseTime({ seconds: 3_600 });
    expect(Number(total)).toBeGreaterThanOrEqual(3_600);
    await c.test.mine({ blocks: 1 });
    expect((await c.pub.getBlock()).timestamp).toBeGreaterThanOrEqual(before.timestamp + 3_600n);

    const next = (await c.pub.getBlock()).timestamp + 100n;
    await c.test.setNextBlockTimestamp({ timestamp: next });
    await c.test.mine({ blocks: 1 });
    expect((await c.pub.getBlock()).timestamp).toBe(next);
    const e = await c.test.setNextBlockTimestamp({ timestamp: next - 1n }).catch((x: unknown) => x);
    expect(rpcError(e).message).toBe(`Timestamp ${next - 1n} is lower than or equal to previous block's timestamp ${next}`);
  });

  it('evm_setAutomine / getAutomine, evm_setIntervalMining', async () => {
    expect(await c.test.getAutomine()).toBe(true);
    await c.test.setAutomine(false);
    try {
      expect(await c.test.getAutomine()).toBe(false);
      const hash = await c.wallet.sendTransaction({ to: OTHER, value: 1n });
      await new Promise((r) => setTimeout(r, 50));
      expect((await c.pub.getTransaction({ hash })).blockNumber).toBeNull();
      const height = await c.pub.getBlockNumber();
      // evm_setIntervalMining takes milliseconds (Hardhat; viem's hardhat mode converts its seconds),
      // anvil_setIntervalMining seconds (Anvil).
      if (mode === 'hardhat') await c.test.setIntervalMining({ interval: 0.03 });
      else await c.test.request({ method: 'anvil_setIntervalMining', params: [1] } as never);
      expect(await c.test.request({ method: 'anvil_getIntervalMining' } as never)).toBe(mode === 'hardhat' ? 0 : 1);
      const receipt = await c.pub.waitForTransactionReceipt({ hash });
      expect(receipt.blockNumber).toBeGreaterThan(height);
      if (mode === 'hardhat') await c.pub.waitForTransactionReceipt({ hash, confirmations: 3 }); // empty blocks keep coming
      await c.test.setIntervalMining({ interval: 0 });
      expect(await c.test.request({ method: 'anvil_getIntervalMining' } as never)).toBe(0);
    } finally {
      await c.test.setAutomine(true);
    }
    expect(await c.test.getAutomine()).toBe(true);
  });

  it(`${mode}_setBalance / setCode / setNonce / setStorageAt edit the latest state at once`, async () => {
    const who = '0x000000000000000000000000000000000000bEEF';
    await c.test.setBalance({ address: who, value: parseEther('12') });
    await c.test.setCode({ address: who, bytecode: '0x60016000' });
    await c.test.setNonce({ address: who, nonce: 42 });
    await c.test.setStorageAt({ address: who, index: 2, value: '0x00000000000000000000000000000000000000000000000000000000000000ff' });
    expect(await c.pub.getBalance({ address: who })).toBe(parseEther('12'));
    expect(await c.pub.getCode({ address: who })).toBe('0x60016000');
    expect(await c.pub.getTransactionCount({ address: who })).toBe(42);
    expect(await c.pub.getStorageAt({ address: who, slot: '0x2' })).toBe('0x00000000000000000000000000000000000000000000000000000000000000ff');
  });

  it(`${mode}_impersonateAccount lets eth_sendTransaction send without the key`, async () => {
    const who = '0x000000000000000000000000000000000000CaFE';
    await c.test.setBalance({ address: who, value: parseEther('3') });
    const before = await c.pub.getBalance({ address: OTHER });
    await c.test.impersonateAccount({ address: who });
    const hash = (await c.test.request({ method: 'eth_sendTransaction', params: [{ from: who, to: OTHER, value: '0x7' }] } as never)) as Hex;
    const receipt = await c.pub.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.from).toBe(who.toLowerCase());
    expect(await c.pub.getBalance({ address: OTHER })).toBe(before + 7n);
    await c.test.stopImpersonatingAccount({ address: who });
    const e = await c.test.request({ method: 'eth_sendTransaction', params: [{ from: who, to: OTHER, value: '0x7' }] } as never).catch((x: unknown) => x);
    expect(rpcError(e).message).toBe('unknown account');
  });

  it(`${mode}_dropTransaction removes a pending tx`, async () => {
    await c.test.setAutomine(false);
    try {
      const hash = await c.wallet.sendTransaction({ to: OTHER, value: 1n });
      expect(await c.test.getTxpoolStatus()).toEqual({ pending: 1, queued: 0 });
      await c.test.dropTransaction({ hash });
      expect(await c.test.getTxpoolStatus()).toEqual({ pending: 0, queued: 0 });
      await expect(c.pub.getTransaction({ hash })).rejects.toThrow();
      const again = await c.test.request({ method: `${mode}_dropTransaction`, params: [hash] } as never);
      expect(again).toBe(mode === 'anvil' ? null : false);
    } finally {
      await c.test.setAutomine(true);
    }
  });

  it('anvil_autoImpersonateAccount, anvil_dropAllTransactions and the alias names', async () => {
    const who = '0x000000000000000000000000000000000000d00d';
    await c.test.setBalance({ address: who, value: parseEther('1') });
    const send = () => c.test.request({ method: 'eth_sendTransaction', params: [{ from: who, to: OTHER, value: '0x1' }] } as never) as Promise<Hex>;
    expect(await c.test.request({ method: 'anvil_autoImpersonateAccount', params: [true] } as never)).toBeNull();
    expect((await c.pub.waitForTransactionReceipt({ hash: await send() })).from).toBe(who);
    await c.test.request({ method: 'anvil_autoImpersonateAccount', params: [false] } as never);
    expect(rpcError(await send().catch((x: unknown) => x)).message).toBe('unknown account');

    await c.test.setAutomine(false);
    try {
      const hash = await c.wallet.sendTransaction({ to: OTHER, value: 1n });
      expect(await c.test.request({ method: 'anvil_dropAllTransactions' } as never)).toBeNull();
      await expect(c.pub.getTransaction({ hash })).rejects.toThrow();
    } finally {
      await c.test.setAutomine(true);
    }

    const id = (await c.test.request({ method: 'anvil_snapshot' } as never)) as Hex;
    await c.test.request({ method: 'evm_setAccountNonce', params: [who, '0x5'] } as never);
    expect(await c.pub.getTransactionCount({ address: who })).toBe(5);
    expect(await c.test.request({ method: 'hardhat_revert', params: [id] } as never)).toBe(true);
    expect(await c.pub.getTransactionCount({ address: who })).toBe(1);
  });

  it('the anvil_ and hardhat_ aliases of the evm_ methods act as their evm_ names', async () => {
    const req = (method: string, params: unknown[] = []) => c.test.request({ method, params } as never) as Promise<unknown>;
    // Time: a zero increase answers the same total under every name.
    const total = await req('evm_increaseTime', [0]);
    expect(await req('anvil_increaseTime', [0])).toBe(total);
    expect(await req('hardhat_increaseTime', [0])).toBe(total);
    for (const name of ['anvil_setNextBlockTimestamp', 'hardhat_setNextBlockTimestamp']) {
      const next = (await c.pub.getBlock()).timestamp + 50n;
      expect(await req(name, [Number(next)])).toBeNull();
      await c.test.mine({ blocks: 1 });
      expect((await c.pub.getBlock()).timestamp).toBe(next);
    }
    // Snapshots: an id from one name reverts under another.
    const id = (await req('hardhat_snapshot')) as Hex;
    await c.test.mine({ blocks: 2 });
    expect(await req('anvil_revert', [id])).toBe(true);
    // Mining modes and the gas limit.
    for (const name of ['anvil_setAutomine', 'hardhat_setAutomine']) {
      expect(await req(name, [false])).toBeNull();
      expect(await c.test.getAutomine()).toBe(false);
      expect(await req(name, [true])).toBeNull();
      expect(await c.test.getAutomine()).toBe(true);
    }
    expect(await req('hardhat_setIntervalMining', [0])).toBeNull();
    expect(await req('anvil_getIntervalMining')).toBe(0);
    for (const [name, gas] of [
      ['anvil_setBlockGasLimit', 26_000_000n],
      ['hardhat_setBlockGasLimit', 30_000_000n],
    ] as const) {
      expect(await req(name, [`0x${gas.toString(16)}`])).toBe(true);
      await c.test.mine({ blocks: 1 });
      expect((await c.pub.getBlock()).gasLimit).toBe(gas);
    }
    // The mempool.
    await c.test.setAutomine(false);
    try {
      await c.wallet.sendTransaction({ to: OTHER, value: 1n });
      expect(await c.test.getTxpoolStatus()).toEqual({ pending: 1, queued: 0 });
      expect(await req('hardhat_dropAllTransactions')).toBeNull();
      expect(await c.test.getTxpoolStatus()).toEqual({ pending: 0, queued: 0 });
    } finally {
      await c.test.setAutomine(true);
    }
  });

  it('evm_setBlockGasLimit, setCoinbase and setMinGasPrice act on the next blocks', async () => {
    await c.test.setBlockGasLimit({ gasLimit: 25_000_000n });
    await c.test.setCoinbase({ address: '0x00000000000000000000000000000000000C01b5' });
    await c.test.mine({ blocks: 1 });
    const b = await c.pub.getBlock();
    expect(b.gasLimit).toBe(25_000_000n);
    expect(b.miner).toBe('0x00000000000000000000000000000000000c01b5');
    await c.test.setMinGasPrice({ gasPrice: 10n ** 12n });
    const e = await c.wallet.sendTransaction({ to: OTHER, value: 1n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BaseError);
    await c.test.setMinGasPrice({ gasPrice: 0n });
    await c.test.setBlockGasLimit({ gasLimit: 30_000_000n });
  });

  it(`${mode}_dumpState / loadState keep blocks, receipts and logs`, async () => {
    const deploy = await c.wallet.sendTransaction({ data: bytesToHex(erc20DeployData(1_000n)) });
    const token = (await c.pub.waitForTransactionReceipt({ hash: deploy })).contractAddress!;
    const transfer = await c.wallet.sendTransaction({ to: token, data: bytesToHex(erc20TransferData(OTHER, 5n)) });
    const receipt = await c.pub.waitForTransactionReceipt({ hash: transfer });
    expect(receipt.logs).toHaveLength(1);
    await c.test.mine({ blocks: 50 });
    const height = await c.pub.getBlockNumber();
    const dump = await c.test.dumpState();
    expect(dump).toMatch(/^0x[0-9a-f]+$/);

    // Into the same node after it moved on, and into a fresh node of the same chain.
    await c.test.mine({ blocks: 5 });
    await c.test.loadState({ state: dump });
    expect(await c.pub.getBlockNumber()).toBe(height);
    const fresh = await startNamespaceNode();
    try {
      const f = clients(fresh.url, mode);
      await f.test.loadState({ state: dump });
      expect(await f.pub.getBlockNumber()).toBe(height);
      const r = await f.pub.getTransactionReceipt({ hash: transfer });
      expect(r.blockHash).toBe(receipt.blockHash);
      expect(r.logs.map((l) => [l.address, l.topics, l.data])).toEqual(receipt.logs.map((l) => [l.address, l.topics, l.data]));
      const logs = await f.pub.getLogs({ address: token, fromBlock: receipt.blockNumber, toBlock: receipt.blockNumber });
      expect(logs).toHaveLength(1);
      expect((await f.pub.getBlock({ blockNumber: height })).hash).toBe((await c.pub.getBlock({ blockNumber: height })).hash);
      // The loaded chain goes on.
      await f.test.mine({ blocks: 1 });
      expect(await f.pub.getBlockNumber()).toBe(height + 1n);
    } finally {
      await fresh.stop();
    }
    const bad = await c.test.loadState({ state: '0x1234' }).catch((x: unknown) => x);
    expect(rpcError(bad).message).toBe('invalid state dump: not gzip data');
  });
});

describe('devnet namespaces when [evm] devnet is off', () => {
  let n: NamespaceNode;
  beforeAll(async () => {
    n = await startNamespaceNode({ config: { evm: { devnet: false } } });
  });
  afterAll(() => n?.stop());

  it('answers every evm_, anvil_ and hardhat_ method as an unknown method', async () => {
    const client = createPublicClient({ chain, transport: http(n.url) });
    const names = DEVNET_ROUTES.flatMap((r) => [r.method, ...r.aliases]);
    expect(names.length).toBeGreaterThan(50);
    for (const method of names) {
      const e = await client.request({ method: method as never, params: [] as never }).catch((x: unknown) => x);
      expect(rpcError(e)).toEqual({
        code: -32601,
        message: `the method ${method} does not exist/is not available (devnet control (evm_*, anvil_*, hardhat_*, chainlet_*) is off: start with --evm.devnet, or set [evm] devnet = true in app.toml)`,
      });
    }
  });
});

/** One raw JSON-RPC call over HTTP (no client retries or batching). */
async function rawCall(url: string, method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
}

describe('mining many blocks: the cap and the event loop', () => {
  let n: NamespaceNode;
  let small: NamespaceNode;
  beforeAll(async () => {
    [n, small] = await Promise.all([startNamespaceNode(), startNamespaceNode({ config: { evm: { maxMineBlocks: 50 } } })]);
  });
  afterAll(() => Promise.all([n?.stop(), small?.stop()]));

  it('refuses a count above [evm] max-mine-blocks with -32602 naming the cap, at once and without mining', async () => {
    const head = await rawCall(n.url, 'eth_blockNumber');
    for (const [method, params] of [
      ['anvil_mine', ['0x2000000']],
      ['hardhat_mine', ['0x10000000000']],
      ['evm_mine', [{ blocks: 100_001 }]],
    ] as const) {
      const r = await rawCall(n.url, method, [...params]);
      expect(r.error?.code, method).toBe(-32602);
      expect(r.error?.message).toMatch(/^block count \d+ is above the limit of 100000 blocks a call \(\[evm\] max-mine-blocks, --evm\.max-mine-blocks\)$/);
    }
    expect(await rawCall(n.url, 'eth_blockNumber')).toEqual(head);
  });

  it('mines exactly the cap, and refuses one more (a configured cap of 50)', async () => {
    const start = Number((await rawCall(small.url, 'eth_blockNumber')).result);
    expect((await rawCall(small.url, 'anvil_mine', ['0x32'])).error).toBeUndefined();
    expect(Number((await rawCall(small.url, 'eth_blockNumber')).result)).toBe(start + 50);
    const r = await rawCall(small.url, 'anvil_mine', ['0x33']);
    expect(r.error).toEqual({ code: -32602, message: 'block count 51 is above the limit of 50 blocks a call ([evm] max-mine-blocks, --evm.max-mine-blocks)' });
    expect(Number((await rawCall(small.url, 'eth_blockNumber')).result)).toBe(start + 50);
  });

  it('answers other requests while a large anvil_mine runs (it yields between chunks of the range)', async () => {
    const before = (await rawCall(n.url, 'eth_blockNumber')).result;
    let mined = false;
    const mine = rawCall(n.url, 'anvil_mine', ['0x4e20']).then((r) => {
      mined = true;
      return r;
    });
    // Ask one after the other until the mine answers: answers that came before it show the node
    // served them meanwhile, each on the head as it was before the range.
    const answers: unknown[] = [];
    while (!mined) {
      const r = await rawCall(n.url, 'eth_blockNumber');
      if (!mined) answers.push(r.result);
    }
    expect((await mine).error).toBeUndefined();
    const after = (await rawCall(n.url, 'eth_blockNumber')).result;
    expect(Number(after)).toBe(Number(before) + 20_000);
    expect(answers.filter((a) => a === before).length).toBeGreaterThanOrEqual(5);
    expect(answers.every((a) => a === before || a === after)).toBe(true);
  });

  it('a node stopped during a large mine ends the mine at its next chunk', async () => {
    const m = await startNamespaceNode();
    const mining = m.node.internals.devnet.mine(50_000).then(
      () => 'mined',
      (e: unknown) => (e as Error).message,
    );
    await new Promise((resolve) => setImmediate(resolve)); // the range has begun
    await m.stop();
    expect(await mining).toBe('the node is stopped');
  });
});
