/**
 * A network assembled from the chain-kind registry (src/chains/registry.ts): the four built-in
 * kinds side by side, plus a fifth, test-only kind added in one folder (test/fixtures/chains/echo)
 * and given to `startNetwork`. Every chain answers on its own RPC, the routing API lists the
 * chains with a routing adapter, the explorer every chain it can read, the banner every chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerOf, bannerText } from '../../src/cli/banner.js';
import { mergeConfig } from '../../src/config/defaults.js';
import type { DeepPartial, NodeConfig } from '../../src/config/types.js';
import { ChainRegistry, type ChainSpec } from '../../src/chains/registry.js';
import { startNetwork, type Network } from '../../src/network/network.js';
import { startNode } from '../../src/index.js';
import { echoKind, type EchoChainSpec } from '../fixtures/chains/echo/kind.js';
import { FAST_CONSENSUS, TEST_PORTS } from '../helpers/node.js';

const PORT0 = { rpc: { laddr: 'tcp://127.0.0.1:0' } };
let net: Network;

async function post(url: string, method: string, params: unknown = []): Promise<{ result?: unknown; error?: unknown }> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await r.json()) as { result?: unknown; error?: unknown };
}

beforeAll(async () => {
  net = await startNetwork<ChainSpec | EchoChainSpec>({
    kinds: [echoKind],
    chains: [
      { kind: 'evm', config: mergeConfig(TEST_PORTS as NodeConfig, FAST_CONSENSUS as never) as DeepPartial<NodeConfig> },
      { kind: 'hub', config: PORT0 },
      { kind: 'svm', rpc: '127.0.0.1:0', ws: '127.0.0.1:0', slotMs: 0 },
      { kind: 'kvstore', config: PORT0 },
      { kind: 'echo', config: PORT0 },
    ],
  });
});
afterAll(async () => {
  await net?.stop();
});

describe('a network from the registry', () => {
  it('starts the chains in order, each answering on its own RPC', async () => {
    expect(net.chains.map((c) => c.kind)).toEqual(['evm', 'hub', 'svm', 'kvstore', 'echo']);
    expect(net.chains.map((c) => c.chainId)).toEqual(['chainlet_9000-1', 'chainlethub-1', 'solana-devnet', 'kvstore-1', 'echo-1']);
    for (const c of net.chains) {
      for (const e of c.capabilities.rpc()) {
        if (e.family === 'comet') {
          const status = (await (await fetch(`${e.url}/status`)).json()) as { result: { node_info: { network: string } } };
          expect(status.result.node_info.network).toBe(c.chainId);
        } else if (e.family === 'eth') expect((await post(e.url, 'eth_chainId')).result).toBe('0x2328');
        else expect((await post(e.url, 'getHealth')).result).toBe('ok');
      }
    }
    expect(net.chains.flatMap((c) => c.capabilities.rpc().map((e) => `${c.kind}:${e.family}`))).toEqual([
      'evm:comet',
      'evm:eth',
      'hub:comet',
      'svm:solana',
      'kvstore:comet',
      'echo:comet',
    ]);
  });

  it('opens IBC between the two chains with an IBC endpoint only', () => {
    expect(net.relayers).toHaveLength(1);
    expect(net.relayer!.status().paths).toEqual([
      expect.objectContaining({ chainA: 'chainlet_9000-1', channelA: 'channel-0', chainB: 'chainlethub-1', channelB: 'channel-0' }),
    ]);
  });

  it('lists every chain with a routing adapter in /v2/info/chains, the test kind too', async () => {
    const r = (await (await fetch(`${net.urls.routing}/v2/info/chains?include_evm=true&include_svm=true`)).json()) as { chains: { chain_id: string }[] };
    expect(r.chains.map((c) => c.chain_id)).toEqual(['chainlet_9000-1', '9000', 'chainlethub-1', 'solana-devnet', 'echo-1']);
  });

  it('shows every chain the explorer can read in its chain list', async () => {
    const cfg = (await (await fetch(`${net.urls.routing}/explorer/api/config`)).json()) as {
      comet_chains: { chain_id: string; evm: boolean }[];
      svm: boolean;
      chains: { chain_id: string }[];
    };
    expect(cfg.comet_chains).toEqual([
      expect.objectContaining({ chain_id: 'chainlet_9000-1', evm: true }),
      expect.objectContaining({ chain_id: 'chainlethub-1', evm: false }),
      expect.objectContaining({ chain_id: 'kvstore-1', evm: false }),
      expect.objectContaining({ chain_id: 'echo-1', evm: false }),
    ]);
    expect(cfg.svm).toBe(true);
    expect(cfg.chains.map((c) => c.chain_id)).toContain('echo-1');
    // The explorer's CometBFT proxy reaches the test kind's chain.
    const r = await fetch(`${net.urls.routing}/explorer/api/comet?chain=echo-1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'status', params: {} }),
    });
    expect(((await r.json()) as { result: { node_info: { network: string } } }).result.node_info.network).toBe('echo-1');
  });

  it('the banner shows each chain as its kind does', async () => {
    const b = await bannerOf(net);
    expect(b.chains.map((c) => c.kind)).toEqual(['evm', 'hub', 'svm', 'kvstore', 'echo']);
    const text = bannerText(b, net);
    expect(text).toContain('echo-1 (echo): height 1');
    expect(text).toContain('solana-devnet (svm, LiteSVM): slot');
    expect(text).toMatch(/chainlet_9000-1 channel-0 <-> chainlethub-1 channel-0/);
    expect(b.endpoints.map((e) => e.name)).toContain('echo-1 (echo): CometBFT RPC');
  });
});

describe('the registry', () => {
  it('lists the built-in kinds, refuses an unknown or doubled kind', () => {
    const r = new ChainRegistry();
    expect(r.names()).toEqual(['evm', 'hub', 'kvstore', 'svm']);
    expect(r.with(echoKind).names()).toEqual(['evm', 'hub', 'kvstore', 'svm', 'echo']);
    expect(() => r.get('echo')).toThrow('unknown chain kind "echo": expected one of evm, hub, kvstore, svm');
    expect(() => r.with(echoKind, echoKind)).toThrow('chain kind "echo" is registered twice');
  });

  it('a network refuses a spec of an unknown kind before starting anything', async () => {
    await expect(startNetwork<ChainSpec | EchoChainSpec>({ chains: [{ kind: 'echo' }] })).rejects.toThrow('unknown chain kind "echo"');
  });
});

describe('startNode()', () => {
  it('is a network of one EVM chain that serves everything of its own', async () => {
    const node = await startNode({ config: mergeConfig(TEST_PORTS as NodeConfig, FAST_CONSENSUS as never) as DeepPartial<NodeConfig> });
    try {
      expect(node).toMatchObject({ kind: 'evm', chainId: 'chainlet_9000-1' });
      expect((node as unknown as { capabilities: { routingHost: { enabled: boolean } } }).capabilities.routingHost.enabled).toBe(false);
      // Its own routing API, listening at once.
      const r = (await (await fetch(`${node.urls.routing}/v2/info/chains`)).json()) as { chains: { chain_id: string }[] };
      expect(r.chains.map((c) => c.chain_id)).toEqual(['chainlet_9000-1']);
      expect((await post(node.urls.jsonRpc!, 'eth_chainId')).result).toBe('0x2328');
    } finally {
      await node.stop();
    }
  });

  it('refuses a standalone network of more than one chain', async () => {
    await expect(startNetwork({ standalone: true, chains: [{ kind: 'evm' }, { kind: 'kvstore' }] })).rejects.toThrow(
      'a standalone network has one chain, not 2',
    );
  });
});
