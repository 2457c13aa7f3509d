/**
 * Two chains of different ABCI applications side by side in one process: the EVM chain and a
 * chain running CometBFT's kvstore example app, each with its own chain id, consensus, stores and
 * CometBFT RPC, both driven by cosmjs' Comet38Client.
 */
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kvAppHash } from '../../src/apps/kvstore/kvstore-app.js';
import { startNetwork, type Network } from '../../src/network/network.js';
import { signTransfer } from '../helpers/txs.js';
import { FAST_CONSENSUS, TEST_PORTS } from '../helpers/node.js';
import { mergeConfig } from '../../src/config/defaults.js';
import type { DeepPartial, NodeConfig } from '../../src/config/types.js';

const utf8 = (s: string) => new TextEncoder().encode(s);
let net: Network;
let evm: Comet38Client;
let kv: Comet38Client;

beforeAll(async () => {
  const config = mergeConfig(TEST_PORTS as NodeConfig, FAST_CONSENSUS as never) as DeepPartial<NodeConfig>;
  net = await startNetwork({
    chains: [
      { kind: 'evm', config },
      { kind: 'kvstore', chainId: 'kvstore-7', config: { rpc: { laddr: 'tcp://127.0.0.1:0' }, consensus: FAST_CONSENSUS.consensus } },
    ],
  });
  evm = await Comet38Client.connect(net.evm!.urls.rpc!);
  kv = await Comet38Client.connect(net.chain('kvstore-7')!.urls.rpc!);
});
afterAll(async () => {
  evm?.disconnect();
  kv?.disconnect();
  await net?.stop();
});

describe('a network of two chains', () => {
  it('each chain has its own chain id, RPC server and first block', async () => {
    expect(net.chains.map((c) => c.kind)).toEqual(['evm', 'kvstore']);
    const [a, b] = await Promise.all([evm.status(), kv.status()]);
    expect(a.nodeInfo.network).toBe('chainlet_9000-1');
    expect(b.nodeInfo.network).toBe('kvstore-7');
    expect(a.syncInfo.latestBlockHeight).toBe(1);
    expect(b.syncInfo.latestBlockHeight).toBe(1);
    expect(net.evm!.urls.rpc).not.toBe(net.chain('kvstore-7')!.urls.rpc);
    // The kvstore's app hash is its tx count as an 8-byte varint.
    expect(b.syncInfo.latestAppHash).toEqual(kvAppHash(0));
  });

  it('a kv tx commits on the kvstore chain with its events and answers a query; the EVM chain is untouched', async () => {
    const evmHeight = net.evm!.height;
    const r = await kv.broadcastTxCommit({ tx: utf8('name=chainlet') });
    expect(r.checkTx.code).toBe(0);
    expect(r.txResult!.code).toBe(0);
    expect(r.txResult!.events.map((e) => e.type)).toEqual(['app', 'app']);
    const keyAttr = r.txResult!.events[0]!.attributes.find((a) => a.key === 'key');
    expect(keyAttr?.value).toBe('name');
    const q = await kv.abciQuery({ path: '/store', data: utf8('name') });
    expect(new TextDecoder().decode(q.value)).toBe('chainlet');
    expect(q.log).toBe('exists');
    const found = await kv.txSearchAll({ query: "app.key='name'" });
    expect(found.totalCount).toBe(1);
    expect(net.evm!.height).toBe(evmHeight);
    // The app's own view (abci_info) after the block: one tx executed.
    expect((await kv.abciInfo()).lastBlockAppHash).toEqual(kvAppHash(1));
  });

  it('refuses a malformed kv tx with the example app’s code', async () => {
    const r = await kv.broadcastTxSync({ tx: utf8('no-separator') });
    expect(r.code).toBe(2);
  });

  it('an ETH tx commits on the EVM chain only', async () => {
    const kvHeight = net.chain('kvstore-7')!.height;
    const r = await evm.broadcastTxSync({ tx: await signTransfer({ nonce: 0 }) });
    expect(r.code).toBe(0);
    await net.evm!.waitForHeight(2);
    expect(net.chain('kvstore-7')!.height).toBe(kvHeight);
    // An ETH tx is not a valid kv tx, and a kv tx is not an ETH tx.
    expect((await kv.broadcastTxSync({ tx: await signTransfer({ nonce: 1 }) })).code).toBe(2);
    expect((await evm.broadcastTxSync({ tx: utf8('a=b') })).code).not.toBe(0);
  });
});

describe('one routing API over the network', () => {
  let net2: Network;
  beforeAll(async () => {
    const config = mergeConfig(TEST_PORTS as NodeConfig, FAST_CONSENSUS as never) as DeepPartial<NodeConfig>;
    net2 = await startNetwork({
      chains: [
        { kind: 'evm', config },
        { kind: 'evm', config, devnet: { chainId: 'other_77-1', accounts: 2, balance: 3n * 10n ** 18n } },
        { kind: 'kvstore', config: { rpc: { laddr: 'tcp://127.0.0.1:0' } } },
      ],
    });
  });
  afterAll(async () => {
    await net2?.stop();
  });

  it('lists every chain with an adapter and answers balances on each', async () => {
    expect(net2.evm!.urls.routing).toBeUndefined();
    const url = net2.urls.routing!;
    const chains = (await (await fetch(`${url}/v2/info/chains?include_evm=true`)).json()) as { chains: { chain_id: string }[] };
    expect(chains.chains.map((c) => c.chain_id)).toEqual(['chainlet_9000-1', '9000', 'other_77-1', '77']);
    const dev0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
    const r = await fetch(`${url}/v2/info/balances`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chains: { '9000': { address: dev0, denoms: [] }, '77': { address: dev0, denoms: [] } } }),
    });
    const body = (await r.json()) as { chains: Record<string, { denoms: Record<string, { amount: string }> }> };
    // No denoms on an EVM face: Skip's `<chain>-native`.
    expect(body.chains['9000']!.denoms['chainlet-native']!.amount).toBe(String(10_000n * 10n ** 18n));
    expect(body.chains['77']!.denoms['other-native']!.amount).toBe(String(3n * 10n ** 18n));
  });
});
