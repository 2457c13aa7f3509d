/**
 * Simulate charges what DeliverTx charges, so cosmjs' fee "auto" (simulated gas × 1.4) is enough:
 * the first tx of a fresh account (its public key not yet on chain; cosmjs simulates any wallet with a
 * secp256k1 key URL) on a fresh EVM-only node and on the hub, and, signed with exactly the simulated
 * gas (multiplier 1), a MsgSend, a tx of several messages and an IBC MsgTransfer on both chains; and
 * IBC handshake steps (MsgCreateClient, MsgConnectionOpenInit) on a hub that takes them from anyone.
 */
import { stringToPath } from '@cosmjs/crypto';
import { DirectEthSecp256k1HdWallet, DirectSecp256k1HdWallet, makeCosmoshubPath, type EncodeObject, type OfflineDirectSigner } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient } from '@cosmjs/stargate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBech32 } from '../../src/crypto/bech32.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { clientStateOf, consensusStateOf } from '../../src/ibc/tm-client-state.js';
import { startHubChain, type HubChain } from '../../src/chains/hub/start.js';
import { timestampFromMs } from '../../src/types/time.js';
import type { Network } from '../../src/network/network.js';
import { startEvmHubNetwork } from '../helpers/ibc-network.js';
import { startTestNode } from '../helpers/node.js';

const EVM_GAS_PRICE = GasPrice.fromString('2000000000achainlet');
const HUB_GAS_PRICE = GasPrice.fromString('0.025uhub');
const ethWallet = (i: number, prefix: string) =>
  DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix, hdPaths: [stringToPath(`m/44'/60'/0'/0/${i}`)] });
const hubWallet = (i: number) => DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub', hdPaths: [makeCosmoshubPath(i)] });
const send = (from: string, to: string, denom: string, amount: string): EncodeObject => ({
  typeUrl: '/cosmos.bank.v1beta1.MsgSend',
  value: { fromAddress: from, toAddress: to, amount: [{ denom, amount }] },
});
const transfer = (sender: string, receiver: string, denom: string, amount: string): EncodeObject => ({
  typeUrl: '/ibc.applications.transfer.v1.MsgTransfer',
  value: {
    sourcePort: 'transfer',
    sourceChannel: 'channel-0',
    token: { denom, amount },
    sender,
    receiver,
    timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
    timeoutTimestamp: BigInt(Date.now() + 600_000) * 1_000_000n,
    memo: '',
  },
});

/** Signs `msgs` with exactly the simulated gas: the tx must succeed within it. */
async function withSimulatedGas(client: SigningStargateClient, from: string, msgs: EncodeObject[]): Promise<{ simulated: number; used: bigint }> {
  const simulated = await client.simulate(from, msgs, '');
  const r = await client.signAndBroadcast(from, msgs, 1);
  expect({ code: r.code, log: r.rawLog ?? '' }).toEqual({ code: 0, log: '' });
  expect(r.gasWanted).toBe(BigInt(simulated));
  expect(r.gasUsed).toBeLessThanOrEqual(BigInt(simulated));
  return { simulated, used: r.gasUsed };
}

describe('the first Cosmos tx on a fresh EVM-only node (docs/cosmos-face.md)', () => {
  it('sendTokens with fee "auto" from a DirectEthSecp256k1HdWallet succeeds; out of gas names eth_secp256k1', async () => {
    const node = await startTestNode();
    try {
      const wallet = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'chainlet' });
      const [me] = await wallet.getAccounts();
      const client = await SigningStargateClient.connectWithSigner(node.urls.rpc!, wallet, { gasPrice: EVM_GAS_PRICE, broadcastPollIntervalMs: 50 });
      expect((await client.getAccount(me!.address))?.pubkey).toBeNull();
      const to = toBech32('chainlet', new Uint8Array(20).fill(0x42));
      const r = await client.sendTokens(me!.address, to, [{ denom: 'achainlet', amount: '1000' }], 'auto');
      expect({ code: r.code, log: r.rawLog ?? '' }).toEqual({ code: 0, log: '' });
      expect(r.gasUsed).toBeLessThanOrEqual(r.gasWanted);
      // Too little gas for the signature: the location names the key type the chain charged.
      const low = { amount: [{ denom: 'achainlet', amount: String(2_000_000_000n * 20_000n) }], gas: '20000' };
      await expect(client.sendTokens(me!.address, to, [{ denom: 'achainlet', amount: '1' }], low)).rejects.toThrow(
        /code 11.*out of gas in location: ante verify: eth_secp256k1; gasWanted: 20000/,
      );
      client.disconnect();
    } finally {
      await node.stop();
    }
  });
});

describe('IBC handshake steps signed by a cosmjs client (a hub with no relayer takes them from anyone)', () => {
  it('MsgCreateClient with fee "auto", then it and MsgConnectionOpenInit within the simulated gas', async () => {
    const hub = await startHubChain({ kind: 'hub', config: { rpc: { laddr: 'tcp://127.0.0.1:0' } } });
    try {
      const wallet = await hubWallet(9);
      const [acc] = await wallet.getAccounts();
      const client = await SigningStargateClient.connectWithSigner(hub.urls.rpc!, wallet, { gasPrice: HUB_GAS_PRICE, broadcastPollIntervalMs: 50 });
      const consensus = { timestamp: timestampFromMs(Date.now()), root: new Uint8Array(32).fill(1), nextValidatorsHash: new Uint8Array(32).fill(2) };
      const create = {
        typeUrl: '/ibc.core.client.v1.MsgCreateClient',
        value: { clientState: clientStateOf('other-1', 5n), consensusState: consensusStateOf(consensus), signer: acc!.address },
      };
      const r = await client.signAndBroadcast(acc!.address, [create], 'auto');
      expect({ code: r.code, log: r.rawLog ?? '' }).toEqual({ code: 0, log: '' });
      expect(r.events.find((e) => e.type === 'create_client')?.attributes.find((a) => a.key === 'client_id')?.value).toBe('07-tendermint-0');
      await withSimulatedGas(client, acc!.address, [create]);
      const version = { identifier: '1', features: ['ORDER_ORDERED', 'ORDER_UNORDERED'] };
      const init = {
        typeUrl: '/ibc.core.connection.v1.MsgConnectionOpenInit',
        value: {
          clientId: '07-tendermint-0',
          counterparty: { clientId: '07-tendermint-0', connectionId: '', prefix: { keyPrefix: new TextEncoder().encode('ibc') } },
          version,
          delayPeriod: 0n,
          signer: acc!.address,
        },
      };
      await withSimulatedGas(client, acc!.address, [init]);
      client.disconnect();
    } finally {
      await hub.stop();
    }
  });
});

describe('simulated gas covers delivered gas (EVM chain Cosmos face and hub)', () => {
  let network: Network;
  let hub: HubChain;
  let evmRpc: string;
  let evmPrefix: string;
  beforeAll(async () => {
    ({ network, hub } = await startEvmHubNetwork());
    evmRpc = network.evm!.urls.rpc!;
    evmPrefix = network.evm!.internals.app.evm.bech32Prefix;
  });
  afterAll(async () => {
    await network?.stop();
  });

  async function connect(url: string, wallet: OfflineDirectSigner, gasPrice: GasPrice): Promise<{ client: SigningStargateClient; from: string }> {
    const [acc] = await wallet.getAccounts();
    return { client: await SigningStargateClient.connectWithSigner(url, wallet, { gasPrice, broadcastPollIntervalMs: 50 }), from: acc!.address };
  }

  it('the hub: a fresh account’s first MsgSend with fee "auto"', async () => {
    const { client, from } = await connect(hub.urls.rpc!, await hubWallet(6), HUB_GAS_PRICE);
    expect((await client.getAccount(from))?.pubkey).toBeNull();
    const r = await client.sendTokens(from, hub.devAddresses[1]!, [{ denom: 'uhub', amount: '10' }], 'auto');
    expect({ code: r.code, log: r.rawLog ?? '' }).toEqual({ code: 0, log: '' });
    client.disconnect();
  });

  it('EVM chain: MsgSend (first tx and later), two messages, MsgTransfer, each within the simulated gas', async () => {
    const { client, from } = await connect(evmRpc, await ethWallet(7, evmPrefix), EVM_GAS_PRICE);
    const to = toBech32(evmPrefix, new Uint8Array(20).fill(0x77));
    expect((await client.getAccount(from))?.pubkey).toBeNull();
    await withSimulatedGas(client, from, [send(from, to, 'achainlet', '5')]);
    await withSimulatedGas(client, from, [send(from, to, 'achainlet', '6')]);
    await withSimulatedGas(client, from, [send(from, to, 'achainlet', '1'), send(from, from, 'achainlet', '2')]);
    await withSimulatedGas(client, from, [transfer(from, hub.devAddresses[2]!, 'achainlet', '1000')]);
    client.disconnect();
  });

  it('hub: MsgSend (first tx and later), two messages, MsgTransfer, each within the simulated gas', async () => {
    const { client, from } = await connect(hub.urls.rpc!, await hubWallet(8), HUB_GAS_PRICE);
    const receiver = toBech32(evmPrefix, new Uint8Array(20).fill(0x88));
    await withSimulatedGas(client, from, [send(from, hub.devAddresses[3]!, 'uhub', '5')]);
    await withSimulatedGas(client, from, [send(from, hub.devAddresses[3]!, 'uhub', '6')]);
    await withSimulatedGas(client, from, [send(from, hub.devAddresses[3]!, 'uhub', '1'), send(from, hub.devAddresses[4]!, 'uhub', '2')]);
    await withSimulatedGas(client, from, [transfer(from, receiver, 'uhub', '1000')]);
    client.disconnect();
  });
});
