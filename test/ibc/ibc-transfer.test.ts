/**
 * IBC between the EVM chain and the hub, with stock cosmjs: the relayer opens clients, a connection
 * and `channel-0` on each side at start; `sendIbcTokens` escrows on the source, the relayer receives
 * on the destination (a voucher `ibc/…` minted) and acknowledges back; the voucher goes home
 * (burnt, unescrowed); a timeout and an error acknowledgement refund the sender.
 */
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, QueryClient, setupIbcExtension, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeConfig } from '../../src/config/defaults.js';
import { toBech32 } from '../../src/crypto/bech32.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { denomHashHex, escrowAddress } from '../../src/ibc/keys.js';
import type { HubChain } from '../../src/network/hub-chain.js';
import { startNetwork, type Network } from '../../src/network/network.js';
import { FAST_CONSENSUS, TEST_PORTS } from '../helpers/node.js';

let network: Network;
let hub: HubChain;
let evmRpc: string;
let evmPrefix: string;
const voucherOnEvm = `ibc/${denomHashHex('transfer/channel-0/uhub')}`;

beforeAll(async () => {
  network = await startNetwork({
    chains: [
      { kind: 'evm', config: mergeConfig(TEST_PORTS as never, FAST_CONSENSUS as never) as never },
      { kind: 'hub', config: { rpc: { laddr: 'tcp://127.0.0.1:0' } } },
    ],
  });
  hub = network.chains.find((c): c is HubChain => c.kind === 'hub')!;
  evmRpc = network.evm!.urls.rpc!;
  evmPrefix = network.evm!.internals.app.evm.bech32Prefix;
});
afterAll(async () => {
  await network?.stop();
});

async function hubSigner() {
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
  const [from] = await wallet.getAccounts();
  const client = await SigningStargateClient.connectWithSigner(hub.urls.rpc!, wallet, { gasPrice: GasPrice.fromString('0uhub'), broadcastPollIntervalMs: 50 });
  return { client, from: from!.address };
}

describe('IBC between the EVM chain and the hub', () => {
  it('opens clients, a connection and channel-0 on both chains at start', async () => {
    for (const rpc of [evmRpc, hub.urls.rpc!]) {
      const q = QueryClient.withExtensions(await Comet38Client.connect(rpc), setupIbcExtension);
      const ch = await q.ibc.channel.channel('transfer', 'channel-0');
      expect(ch.channel).toMatchObject({ state: 3, ordering: 1, counterparty: { portId: 'transfer', channelId: 'channel-0' }, connectionHops: ['connection-0'], version: 'ics20-1' });
      const conn = await q.ibc.connection.connection('connection-0');
      expect(conn.connection).toMatchObject({ clientId: '07-tendermint-0', state: 3 });
    }
    expect(network.relayer?.status().paths[0]).toMatchObject({ channelA: 'channel-0', channelB: 'channel-0' });
  });

  it('moves uhub to the EVM chain as a voucher and acknowledges', async () => {
    const { client, from } = await hubSigner();
    const receiverBytes = network.evm!.accounts[1]!.address;
    const receiver = toBech32(evmPrefix, Buffer.from(receiverBytes.slice(2), 'hex'));
    const before = BigInt((await client.getBalance(from, 'uhub')).amount);
    const r = await client.sendIbcTokens(from, receiver, { denom: 'uhub', amount: '1234567' }, 'transfer', 'channel-0', undefined, Math.floor(Date.now() / 1000) + 600, { amount: [], gas: '300000' });
    expect(r.code).toBe(0);
    expect(r.events.map((e) => e.type)).toEqual(expect.arrayContaining(['send_packet', 'ibc_transfer']));
    await network.relayer!.idle();
    const evm = await StargateClient.connect(evmRpc);
    expect(await evm.getBalance(receiver, voucherOnEvm)).toEqual({ denom: voucherOnEvm, amount: '1234567' });
    const escrow = toBech32('hub', escrowAddress('transfer', 'channel-0'));
    expect((await client.getBalance(escrow, 'uhub')).amount).toBe('1234567');
    expect(BigInt((await client.getBalance(from, 'uhub')).amount)).toBe(before - 1234567n);
    // Acknowledged: the packet commitment is gone on the hub.
    const q = QueryClient.withExtensions(await Comet38Client.connect(hub.urls.rpc!), setupIbcExtension);
    expect((await q.ibc.channel.allPacketCommitments('transfer', 'channel-0')).commitments).toEqual([]);
    const trace = QueryClient.withExtensions(await Comet38Client.connect(evmRpc), setupIbcExtension);
    expect((await trace.ibc.transfer.denomTrace(voucherOnEvm)).denom).toEqual({ base: 'uhub', trace: [{ portId: 'transfer', channelId: 'channel-0' }] });
    evm.disconnect();
    client.disconnect();
  });
});
