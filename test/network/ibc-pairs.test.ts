/**
 * IBC between any two chains with an IBC endpoint: a network of the EVM chain and two hubs gets a
 * `transfer` channel per pair (three), each pair with its own relayer and its own accounts, funded
 * in the geneses at start. A transfer between the two hubs lands over their own channel, and the
 * routing API plans it over that channel.
 */
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubChain } from '../../src/chains/hub/start.js';
import { mergeConfig } from '../../src/config/defaults.js';
import type { DeepPartial, NodeConfig } from '../../src/config/types.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { denomHashHex } from '../../src/ibc/keys.js';
import { startNetwork, type Network } from '../../src/network/network.js';
import { FAST_CONSENSUS, TEST_PORTS } from '../helpers/node.js';

const PORT0 = { rpc: { laddr: 'tcp://127.0.0.1:0' } };
let net: Network;
let hub1: HubChain;
let hub2: HubChain;

beforeAll(async () => {
  net = await startNetwork({
    chains: [
      { kind: 'evm', config: mergeConfig(TEST_PORTS as NodeConfig, FAST_CONSENSUS as never) as DeepPartial<NodeConfig> },
      { kind: 'hub', config: PORT0 },
      { kind: 'hub', chainId: 'chainlethub-2', config: PORT0 },
    ],
  });
  hub1 = net.chain('chainlethub-1') as HubChain;
  hub2 = net.chain('chainlethub-2') as HubChain;
});
afterAll(async () => {
  await net?.stop();
});

const pathOf = (a: string, b: string) =>
  net.relayers.flatMap((r) => r.status().paths).find((p) => (p.chainA === a && p.chainB === b) || (p.chainA === b && p.chainB === a))!;

describe('IBC between every two chains with an IBC endpoint', () => {
  it('opens a channel per pair, each with its own relayer', async () => {
    expect(net.relayers).toHaveLength(3);
    const paths = net.relayers.map((r) => r.status().paths[0]!);
    expect(paths.map((p) => [p.chainA, p.channelA, p.chainB, p.channelB])).toEqual([
      ['chainlet_9000-1', 'channel-0', 'chainlethub-1', 'channel-0'],
      ['chainlet_9000-1', 'channel-1', 'chainlethub-2', 'channel-0'],
      ['chainlethub-1', 'channel-1', 'chainlethub-2', 'channel-1'],
    ]);
    // The first relayer is the documented one (`network.relayer`); the devnet control covers all three.
    expect(net.relayer).toBe(net.relayers[0]);
    const res = await fetch(net.evm!.urls.jsonRpc!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'chainlet_relayerStatus', params: [] }),
    });
    const status = ((await res.json()) as { result: { paused: boolean; paths: unknown[] } }).result;
    expect(status).toMatchObject({ paused: false, paths: paths });
  });

  it('gives each relayer its own account on each of its chains', async () => {
    const relayerTxSigners = new Set<string>();
    for (const hub of [hub1, hub2]) {
      const balances = hub.genesis.appState as { hub: { accounts: { address: string }[] } };
      // Ten dev accounts, then one account per relayer of the chain (two each).
      const extra = balances.hub.accounts.slice(10).map((a) => a.address);
      expect(extra).toHaveLength(2);
      for (const a of extra) relayerTxSigners.add(a);
    }
    // The hubs' own pair has one relayer, with the same address on both (one key, one prefix): three relayers, three addresses.
    expect(relayerTxSigners.size).toBe(3);
  });

  it('moves uhub from one hub to the other over their own channel', async () => {
    const path = pathOf('chainlethub-1', 'chainlethub-2');
    const [src, dst] = path.chainA === 'chainlethub-1' ? [path.channelA, path.channelB] : [path.channelB, path.channelA];
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
    // The same dev account on the other hub (same mnemonic and prefix) receives.
    const [from] = await wallet.getAccounts();
    const to = from;
    const client = await SigningStargateClient.connectWithSigner(hub1.urls.rpc!, wallet, {
      gasPrice: GasPrice.fromString('0uhub'),
      broadcastPollIntervalMs: 50,
    });
    const r = await client.sendIbcTokens(
      from!.address,
      to!.address,
      { denom: 'uhub', amount: '4242' },
      'transfer',
      src,
      undefined,
      Math.floor(Date.now() / 1000) + 600,
      {
        amount: [],
        gas: '300000',
      },
    );
    expect(r.code).toBe(0);
    client.disconnect();
    await Promise.all(net.relayers.map((x) => x.idle()));
    const voucher = `ibc/${denomHashHex(`transfer/${dst}/uhub`)}`;
    const there = await StargateClient.connect(hub2.urls.rpc!);
    expect(await there.getBalance(to!.address, voucher)).toEqual({ denom: voucher, amount: '4242' });
    there.disconnect();
    expect(net.relayers.flatMap((x) => x.status().pending)).toEqual([]);
  });

  it('the routing API plans a hub → hub transfer over that channel', async () => {
    const path = pathOf('chainlethub-1', 'chainlethub-2');
    const [src, dst] = path.chainA === 'chainlethub-1' ? [path.channelA, path.channelB] : [path.channelB, path.channelA];
    const res = await fetch(`${net.urls.routing}/v2/fungible/route`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        amount_in: '10',
        source_asset_denom: 'uhub',
        source_asset_chain_id: 'chainlethub-1',
        dest_asset_denom: `ibc/${denomHashHex(`transfer/${dst}/uhub`)}`,
        dest_asset_chain_id: 'chainlethub-2',
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { operations: { transfer: { channel: string } }[] };
    expect(body.operations[0]!.transfer.channel).toBe(src);
  });
});
