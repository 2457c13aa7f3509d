/**
 * What an off-the-shelf relayer (@confio/relayer, ts-relayer) reads of the chains before it relays:
 * the staking Params (`unbonding_time`, for a new client's trusting period) on both chains, blocks
 * while idle (its `waitOneBlock`: the hub in interval mode), and the packet data and
 * acknowledgement in the plain `packet_data` / `packet_ack` attributes beside the `_hex` ones.
 */
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { QueryClient, setupStakingExtension, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBech32 } from '../../src/crypto/bech32.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { startHubChain, type HubChain } from '../../src/chains/hub/start.js';
import type { Network } from '../../src/network/network.js';
import { startEvmHubNetwork } from '../helpers/ibc-network.js';

let network: Network;
let hub: HubChain;

beforeAll(async () => {
  ({ network, hub } = await startEvmHubNetwork());
});
afterAll(async () => {
  await network?.stop();
});

describe('staking Params, as relayers read them', () => {
  it('answers /cosmos.staking.v1beta1.Query/Params on both chains through cosmjs setupStakingExtension', async () => {
    for (const [rpc, denom] of [
      [hub.urls.rpc!, 'uhub'],
      [network.evm!.urls.rpc!, network.evm!.internals.app.evm.denom],
    ] as const) {
      const tm = await Comet38Client.connect(rpc);
      const q = QueryClient.withExtensions(tm, setupStakingExtension);
      const { params } = await q.staking.params();
      expect(params).toEqual({
        unbondingTime: { seconds: 21n * 24n * 3600n, nanos: 0 },
        maxValidators: 100,
        maxEntries: 7,
        historicalEntries: 10000,
        bondDenom: denom,
        minCommissionRate: '0',
      });
      tm.disconnect();
    }
  });
});

describe('packet events for relayers of ibc-go v8 and v10', () => {
  it('carry packet_data and packet_ack as text beside packet_data_hex and packet_ack_hex', async () => {
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
    const [from] = await wallet.getAccounts();
    const client = await SigningStargateClient.connectWithSigner(hub.urls.rpc!, wallet, { broadcastPollIntervalMs: 50 });
    const receiver = toBech32(network.evm!.internals.app.evm.bech32Prefix, Buffer.from(network.evm!.accounts[3]!.address.slice(2), 'hex'));
    const r = await client.sendIbcTokens(
      from!.address,
      receiver,
      { denom: 'uhub', amount: '31' },
      'transfer',
      'channel-0',
      undefined,
      Math.floor(Date.now() / 1000) + 600,
      { amount: [], gas: '300000' },
    );
    expect(r.code).toBe(0);
    await network.relayer!.idle();
    const attrs = (e: { attributes: readonly { key: string; value: string }[] } | undefined) => Object.fromEntries(e!.attributes.map((a) => [a.key, a.value]));
    const send = attrs(r.events.find((e) => e.type === 'send_packet'));
    const data = JSON.parse(send['packet_data']!) as Record<string, string>;
    expect(data).toEqual({ amount: '31', denom: 'uhub', receiver, sender: from!.address });
    expect(Buffer.from(send['packet_data_hex']!, 'hex').toString()).toBe(send['packet_data']);
    // ibc-go v8's order: the text before the hex.
    expect(
      r.events
        .find((e) => e.type === 'send_packet')!
        .attributes.map((a) => a.key)
        .slice(0, 2),
    ).toEqual(['packet_data', 'packet_data_hex']);

    const evm = await StargateClient.connect(network.evm!.urls.rpc!);
    const recv = (await evm.searchTx(`recv_packet.packet_sequence='${send['packet_sequence']}'`)).at(-1)!;
    expect(attrs(recv.events.find((e) => e.type === 'recv_packet'))['packet_data']).toBe(send['packet_data']);
    const ack = attrs(recv.events.find((e) => e.type === 'write_acknowledgement'));
    expect(ack['packet_data']).toBe(send['packet_data']);
    expect(ack['packet_ack']).toBe('{"result":"AQ=="}');
    expect(Buffer.from(ack['packet_ack_hex']!, 'hex').toString()).toBe(ack['packet_ack']);
    evm.disconnect();
    client.disconnect();
  });
});

describe('the hub in interval mode', () => {
  it('makes blocks while idle (a relayer waiting one block is answered); automine stays the default', async () => {
    const ticking = await startHubChain({ kind: 'hub', config: { rpc: { laddr: 'tcp://127.0.0.1:0' } }, consensus: { mode: 'interval', timeoutCommitMs: 20 } });
    const idle = await startHubChain({ kind: 'hub', config: { rpc: { laddr: '' } } });
    try {
      const tm = await Comet38Client.connect(ticking.urls.rpc!);
      const start = (await tm.status()).syncInfo.latestBlockHeight;
      // No tx is sent: the heights come from the interval alone.
      await ticking.waitForHeight(start + 3);
      expect((await tm.status()).syncInfo.latestBlockHeight).toBeGreaterThanOrEqual(start + 3);
      tm.disconnect();
      expect(idle.height).toBe(1);
    } finally {
      await ticking.stop();
      await idle.stop();
    }
  });
});
