/**
 * What development tools check before they run (hardhat-network-helpers' clientVersion test,
 * hardhat_metadata, anvil_metadata / anvil_nodeInfo), and hardhat_reset / anvil_reset without a fork.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initHome } from '../../src/genesis/home.js';
import { rpc } from '../eth/helpers.js';
import { signTransfer } from '../helpers/txs.js';
import { startNamespaceNode, type NamespaceNode } from './namespace-rpc.js';

const started: NamespaceNode[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((n) => n.stop()));
});
async function start(opts: Parameters<typeof startNamespaceNode>[0] = {}): Promise<NamespaceNode> {
  const n = await startNamespaceNode(opts);
  started.push(n);
  return n;
}
const call = async (n: NamespaceNode, method: string, params: unknown[] = []) => {
  const r = await rpc(n.url, method, params);
  if (r.error) throw new Error(`${method}: ${r.error.message}`);
  return r.result as any; // eslint-disable-line @typescript-eslint/no-explicit-any
};

describe('development-network checks', () => {
  it("web3_clientVersion passes hardhat-network-helpers' check on the devnet and stays plain on a home", async () => {
    const dev = await start();
    const v = (await call(dev, 'web3_clientVersion')) as string;
    // hardhat-network-helpers accepts versions starting with hardhatnetwork, zksync or anvil (case-insensitive).
    expect(v.toLowerCase().startsWith('anvil')).toBe(true);
    expect(v).toMatch(/Chainlet\/v\d+\.\d+\.\d+/);
    const custom = await start({ config: { jsonRpc: { clientVersion: 'MyNode/v9' } } });
    expect(await call(custom, 'web3_clientVersion')).toBe('MyNode/v9');
    const home = mkdtempSync(join(tmpdir(), 'chainlet-cv-'));
    try {
      initHome(home, {});
      const onHome = await start({ home });
      expect(await call(onHome, 'web3_clientVersion')).toMatch(/^Chainlet\/v\d/);
      await onHome.stop();
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('hardhat_metadata, anvil_metadata and anvil_nodeInfo describe the node', async () => {
    const n = await start();
    const m = await call(n, 'hardhat_metadata');
    const head = await call(n, 'eth_getBlockByNumber', ['latest', false]);
    expect(m).toEqual({
      clientVersion: await call(n, 'web3_clientVersion'),
      chainId: 9000,
      instanceId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      latestBlockNumber: Number(head.number),
      latestBlockHash: head.hash,
      forkedNetwork: null,
    });
    const snap = await call(n, 'evm_snapshot');
    const am = await call(n, 'anvil_metadata');
    expect(am.instanceId).toBe(m.instanceId);
    expect(am.snapshots).toEqual({ [snap]: [Number(head.number), head.hash] });
    const info = await call(n, 'anvil_nodeInfo');
    expect(info).toMatchObject({
      currentBlockNumber: head.number,
      currentBlockTimestamp: Number(head.timestamp),
      currentBlockHash: head.hash,
      hardFork: 'prague',
      transactionOrder: 'fees',
      environment: { chainId: 9000, baseFee: expect.stringMatching(/^0x/), gasLimit: expect.stringMatching(/^0x/), gasPrice: expect.stringMatching(/^0x/) },
      forkConfig: { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
    });
    // Another node (a restart) has another instance id.
    const other = await start();
    expect((await call(other, 'hardhat_metadata')).instanceId).not.toBe(m.instanceId);
  });

  it('hardhat_reset and anvil_reset go back to the starting chain, keep the dev accounts and change the instance id', async () => {
    const n = await start();
    const genesisHead = await call(n, 'eth_getBlockByNumber', ['latest', false]);
    const startBalance = await call(n, 'eth_getBalance', ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8', 'latest']);
    const before = (await call(n, 'hardhat_metadata')).instanceId;
    await call(n, 'eth_sendRawTransaction', [
      `0x${Buffer.from(await signTransfer({ nonce: 0, from: 0, to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: 10n ** 18n })).toString('hex')}`,
    ]);
    await call(n, 'anvil_mine', ['0x5']);
    await call(n, 'evm_snapshot');
    await call(n, 'evm_increaseTime', [3600]);
    expect(Number(await call(n, 'eth_blockNumber'))).toBeGreaterThan(Number(genesisHead.number));

    expect(await call(n, 'hardhat_reset', [])).toBe(true);
    expect(await call(n, 'eth_blockNumber')).toBe(genesisHead.number);
    expect((await call(n, 'eth_getBlockByNumber', ['latest', false])).hash).toBe(genesisHead.hash);
    expect(await call(n, 'eth_getBalance', ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8', 'latest'])).toBe(startBalance);
    expect(await call(n, 'eth_getTransactionCount', ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'latest'])).toBe('0x0');
    expect((await call(n, 'anvil_metadata')).snapshots).toEqual({});
    const after = (await call(n, 'hardhat_metadata')).instanceId;
    expect(after).not.toBe(before);

    // The chain goes on from there: the dev key's nonce 0 is usable again.
    await call(n, 'eth_sendRawTransaction', [`0x${Buffer.from(await signTransfer({ nonce: 0 })).toString('hex')}`]);
    expect(Number(await call(n, 'eth_blockNumber'))).toBe(Number(genesisHead.number) + 1);

    expect(await call(n, 'anvil_reset', [])).toBeNull();
    expect(await call(n, 'eth_blockNumber')).toBe(genesisHead.number);
    expect((await call(n, 'hardhat_metadata')).instanceId).not.toBe(after);
  });

  it('refuses a reset to a fork with a clear error', async () => {
    const n = await start();
    const r = await rpc(n.url, 'hardhat_reset', [{ forking: { jsonRpcUrl: 'http://127.0.0.1:1', blockNumber: 1 } }]);
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.message).toMatch(/forking is not supported/);
    const a = await rpc(n.url, 'anvil_reset', [{ forking: { jsonRpcUrl: 'http://127.0.0.1:1' } }]);
    expect(a.error?.message).toMatch(/forking is not supported/);
  });
});
