/**
 * IBC between the EVM chain and the hub, with stock cosmjs: the relayer opens clients, a connection
 * and `channel-0` on each side at start; `sendIbcTokens` escrows on the source, the relayer receives
 * on the destination (a voucher `ibc/…` minted) and acknowledges back; the voucher goes home
 * (burnt, unescrowed); a timeout and an error acknowledgement refund the sender.
 */
import { DirectEthSecp256k1HdWallet, DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, QueryClient, setupBankExtension, setupIbcExtension, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBech32 } from '../../src/crypto/bech32.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { denomHashHex, escrowAddress } from '../../src/ibc/keys.js';
import type { HubChain } from '../../src/chains/hub/start.js';
import type { Network } from '../../src/network/network.js';
import { startEvmHubNetwork } from '../helpers/ibc-network.js';

let network: Network;
let hub: HubChain;
let evmRpc: string;
let evmPrefix: string;
const voucherOnEvm = `ibc/${denomHashHex('transfer/channel-0/uhub')}`;

beforeAll(async () => {
  ({ network, hub } = await startEvmHubNetwork());
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

async function evmSigner() {
  const wallet = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: evmPrefix });
  const [from] = await wallet.getAccounts();
  const denom = network.evm!.internals.app.evm.denom;
  const client = await SigningStargateClient.connectWithSigner(evmRpc, wallet, {
    gasPrice: GasPrice.fromString(`2000000000${denom}`),
    broadcastPollIntervalMs: 50,
  });
  return { client, from: from!.address, denom };
}

const fee = (denom: string) => ({ amount: [{ denom, amount: (2_000_000_000n * 400_000n).toString() }], gas: '400000' });
const inTenMinutes = () => Math.floor(Date.now() / 1000) + 600;

describe('IBC between the EVM chain and the hub', () => {
  it('opens clients, a connection and channel-0 on both chains at start', async () => {
    for (const rpc of [evmRpc, hub.urls.rpc!]) {
      const q = QueryClient.withExtensions(await Comet38Client.connect(rpc), setupIbcExtension);
      const ch = await q.ibc.channel.channel('transfer', 'channel-0');
      expect(ch.channel).toMatchObject({
        state: 3,
        ordering: 1,
        counterparty: { portId: 'transfer', channelId: 'channel-0' },
        connectionHops: ['connection-0'],
        version: 'ics20-1',
      });
      const conn = await q.ibc.connection.connection('connection-0');
      expect(conn.connection).toMatchObject({ clientId: '07-tendermint-0', state: 3 });
    }
    expect(network.relayer?.status().paths[0]).toMatchObject({ channelA: 'channel-0', channelB: 'channel-0' });
  });

  it('pauses and resumes the relayer through the devnet JSON-RPC methods', async () => {
    const call = async (method: string) =>
      (await (
        await fetch(network.evm!.urls.jsonRpc!, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
        })
      ).json()) as { result: { paused: boolean; paths: unknown[] } };
    expect((await call('chainlet_relayerStatus')).result).toMatchObject({
      paused: false,
      mode: 'block',
      paths: [
        {
          chainA: network.evm!.chainId,
          chainB: hub.chainId,
          channelA: 'channel-0',
          channelB: 'channel-0',
          clientA: '07-tendermint-0',
          clientB: '07-tendermint-0',
        },
      ],
    });
    expect((await call('chainlet_pauseRelayer')).result.paused).toBe(true);
    expect(network.relayer!.paused).toBe(true);
    expect((await call('chainlet_resumeRelayer')).result.paused).toBe(false);
    expect((await call('chainlet_flushRelayer')).result.paused).toBe(false);
  });

  it('moves uhub to the EVM chain as a voucher and acknowledges', async () => {
    const { client, from } = await hubSigner();
    const receiverBytes = network.evm!.accounts[1]!.address;
    const receiver = toBech32(evmPrefix, Buffer.from(receiverBytes.slice(2), 'hex'));
    const before = BigInt((await client.getBalance(from, 'uhub')).amount);
    const r = await client.sendIbcTokens(
      from,
      receiver,
      { denom: 'uhub', amount: '1234567' },
      'transfer',
      'channel-0',
      undefined,
      Math.floor(Date.now() / 1000) + 600,
      { amount: [], gas: '300000' },
    );
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

  it('sends the voucher home from the EVM chain (eth_secp256k1 key): burnt there, unescrowed on the hub', async () => {
    const hubSide = await hubSigner();
    const { client, from, denom } = await evmSigner();
    const r1 = await hubSide.client.sendIbcTokens(hubSide.from, from, { denom: 'uhub', amount: '5000' }, 'transfer', 'channel-0', undefined, inTenMinutes(), {
      amount: [],
      gas: '300000',
    });
    expect(r1.code).toBe(0);
    await network.relayer!.idle();
    expect((await client.getBalance(from, voucherOnEvm)).amount).toBe('5000');
    // x/bank's supply of the voucher: what was minted on this chain and not burnt (earlier transfers included).
    const bank = QueryClient.withExtensions(await Comet38Client.connect(evmRpc), setupBankExtension);
    const supplyBefore = BigInt((await bank.bank.supplyOf(voucherOnEvm)).amount);
    expect(supplyBefore).toBeGreaterThanOrEqual(5000n);
    const total = (await bank.bank.totalSupply()).supply;
    expect(total.map((c) => c.denom)).toEqual([...total.map((c) => c.denom)].sort());
    expect(total).toContainEqual({ denom: voucherOnEvm, amount: supplyBefore.toString() });
    expect(total.find((c) => c.denom === denom)?.amount).toBe((await bank.bank.supplyOf(denom)).amount);
    const hubBefore = BigInt((await hubSide.client.getBalance(hub.devAddresses[3]!, 'uhub')).amount);
    const r2 = await client.sendIbcTokens(
      from,
      hub.devAddresses[3]!,
      { denom: voucherOnEvm, amount: '2000' },
      'transfer',
      'channel-0',
      undefined,
      inTenMinutes(),
      fee(denom),
    );
    expect(r2.code).toBe(0);
    expect(r2.events.map((e) => e.type)).toEqual(expect.arrayContaining(['burn', 'send_packet', 'ibc_transfer']));
    await network.relayer!.idle();
    expect((await client.getBalance(from, voucherOnEvm)).amount).toBe('3000');
    expect(BigInt((await bank.bank.supplyOf(voucherOnEvm)).amount)).toBe(supplyBefore - 2000n);
    expect(BigInt((await hubSide.client.getBalance(hub.devAddresses[3]!, 'uhub')).amount)).toBe(hubBefore + 2000n);
    client.disconnect();
    hubSide.client.disconnect();
  });

  it("sends the EVM chain's native denom to the hub: escrowed on the EVM chain, a voucher on the hub", async () => {
    const { client, from, denom } = await evmSigner();
    const to = hub.devAddresses[4]!;
    const r = await client.sendIbcTokens(from, to, { denom, amount: '1000000000000000000' }, 'transfer', 'channel-0', undefined, inTenMinutes(), fee(denom));
    expect(r.code).toBe(0);
    await network.relayer!.idle();
    const voucher = `ibc/${denomHashHex(`transfer/channel-0/${denom}`)}`;
    const h = await StargateClient.connect(hub.urls.rpc!);
    expect(await h.getBalance(to, voucher)).toEqual({ denom: voucher, amount: '1000000000000000000' });
    expect((await client.getBalance(toBech32(evmPrefix, escrowAddress('transfer', 'channel-0')), denom)).amount).toBe('1000000000000000000');
    h.disconnect();
    client.disconnect();
  });

  it('times out a packet the relayer did not deliver in time and refunds the sender', async () => {
    const { client, from } = await hubSigner();
    const receiver = toBech32(evmPrefix, Buffer.from(network.evm!.accounts[2]!.address.slice(2), 'hex'));
    network.relayer!.pause();
    const before = BigInt((await client.getBalance(from, 'uhub')).amount);
    const timeoutHeight = { revisionNumber: 9000n, revisionHeight: BigInt(network.evm!.height + 2) };
    const r = await client.sendIbcTokens(from, receiver, { denom: 'uhub', amount: '777' }, 'transfer', 'channel-0', timeoutHeight, undefined, {
      amount: [],
      gas: '300000',
    });
    expect(r.code).toBe(0);
    expect(BigInt((await client.getBalance(from, 'uhub')).amount)).toBe(before - 777n);
    expect(network.relayer!.status().pending).toEqual([{ fromChainId: hub.chainId, sequence: expect.any(String), stage: 'receive' }]);
    await network.evm!.mine(3);
    network.relayer!.resume();
    await network.relayer!.idle();
    expect(BigInt((await client.getBalance(from, 'uhub')).amount)).toBe(before);
    const evm = await StargateClient.connect(evmRpc);
    expect((await evm.getBalance(receiver, voucherOnEvm)).amount).toBe('0');
    const timeouts = await client.searchTx(`timeout_packet.packet_src_channel='channel-0'`);
    expect(timeouts.length).toBeGreaterThan(0);
    expect(network.relayer!.status().pending).toEqual([]);
    evm.disconnect();
    client.disconnect();
  });

  it('refunds on an error acknowledgement (a receiver the EVM chain cannot decode)', async () => {
    const { client, from } = await hubSigner();
    const before = BigInt((await client.getBalance(from, 'uhub')).amount);
    const r = await client.sendIbcTokens(from, 'not-an-address', { denom: 'uhub', amount: '4242' }, 'transfer', 'channel-0', undefined, inTenMinutes(), {
      amount: [],
      gas: '300000',
    });
    expect(r.code).toBe(0);
    await network.relayer!.idle();
    expect(BigInt((await client.getBalance(from, 'uhub')).amount)).toBe(before);
    const evm = await StargateClient.connect(evmRpc);
    const recv = await evm.searchTx(`write_acknowledgement.packet_src_channel='channel-0'`);
    const last = recv.at(-1)!;
    const ack = last.events.find((e) => e.type === 'write_acknowledgement')!.attributes.find((a) => a.key === 'packet_ack_hex')!.value;
    expect(Buffer.from(ack, 'hex').toString()).toBe('{"error":"ABCI code: 5: error handling packet: see events for details"}');
    // ibc-go keeps the failed callback's events with every type and key prefixed ibccallbackerror-.
    expect(last.events.find((e) => e.type === 'fungible_token_packet')).toBeUndefined();
    const fungible = last.events.find((e) => e.type === 'ibccallbackerror-fungible_token_packet')!.attributes;
    expect(fungible.find((a) => a.key === 'ibccallbackerror-success')?.value).toBe('false');
    expect(fungible.find((a) => a.key === 'ibccallbackerror-receiver')?.value).toBe('not-an-address');
    expect(fungible.find((a) => a.key === 'ibccallbackerror-error')?.value).toMatch(/receiver/);
    expect(
      last.events.some((e) => e.type === 'ibccallbackerror-message' && e.attributes.some((a) => a.key === 'ibccallbackerror-module' && a.value === 'transfer')),
    ).toBe(true);
    evm.disconnect();
    client.disconnect();
  });

  it('verifies client updates from any account: a header without +2/3 valid signatures is refused, the real one accepted', async () => {
    const { Any } = await import('cosmjs-types/google/protobuf/any');
    const { ClientState } = await import('cosmjs-types/ibc/lightclients/tendermint/v1/tendermint');
    const { tmHeaderAny, tmHeaderOf } = await import('../../src/ibc/tm-header-codec.js');
    const evm = network.evm!;
    await evm.mine(1);
    const h = evm.height;
    const meta = (await evm.internals.blockStore.loadBlockMeta(h))!;
    const commit = (await evm.internals.blockStore.loadSeenCommit(h))!;
    const vals = evm.internals.consensus.state.lastValidators ?? evm.internals.consensus.state.validators;
    const cs = ClientState.decode(Any.decode(hub.app.ibcStore().get('clients/07-tendermint-0/clientState')!).value);
    const header = (c: typeof commit) =>
      tmHeaderAny(tmHeaderOf({ header: meta.header, commit: c, validators: vals, trustedHeight: cs.latestHeight, trustedValidators: vals }));
    const forged = {
      ...commit,
      signatures: commit.signatures.map((sig) => ({ ...sig, signature: sig.signature && Uint8Array.from(sig.signature, (b, i) => (i === 0 ? b ^ 1 : b)) })),
    };
    // Anyone may update a client (and relay): a dev account, not the network's relayer.
    const { client, from } = await hubSigner();
    const update = (clientMessage: ReturnType<typeof header>) =>
      client.signAndBroadcast(from, [{ typeUrl: '/ibc.core.client.v1.MsgUpdateClient', value: { clientId: '07-tendermint-0', clientMessage, signer: from } }], {
        amount: [],
        gas: '2000000',
      });
    const refused = await update(header(forged));
    expect(refused.code).toBe(21);
    expect(refused.rawLog).toMatch(/insufficient voting power/);
    const accepted = await update(header(commit));
    expect(accepted.code).toBe(0);
    expect(accepted.events.find((e) => e.type === 'update_client')?.attributes).toEqual(
      expect.arrayContaining([{ key: 'consensus_heights', value: `${cs.latestHeight.revisionNumber}-${h}` }]),
    );
    client.disconnect();
  });
});

describe('stopping a network whose relayer waits on a halted chain', () => {
  it('returns: the relayer gives up the tx it waits for', async () => {
    const { network: net, hub: h } = await startEvmHubNetwork();
    try {
      const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
      const [from] = await wallet.getAccounts();
      const client = await SigningStargateClient.connectWithSigner(h.urls.rpc!, wallet, { broadcastPollIntervalMs: 50 });
      net.relayer!.pause();
      const receiver = toBech32(net.evm!.internals.app.evm.bech32Prefix, Buffer.from(net.evm!.accounts[1]!.address.slice(2), 'hex'));
      const r = await client.sendIbcTokens(from!.address, receiver, { denom: 'uhub', amount: '5' }, 'transfer', 'channel-0', undefined, inTenMinutes(), {
        amount: [],
        gas: '300000',
      });
      expect(r.code).toBe(0);
      client.disconnect();
      // The EVM chain's only validator goes offline: it makes no more blocks, the relayer's receive waits.
      net.evm!.setValidatorOnline(0, false);
      void net.relayer!.flush().catch(() => undefined);
      await new Promise((res) => setTimeout(res, 200));
    } finally {
      await net.stop();
    }
  });
});

describe('stopping a network whose relayer waits for a block of a halted chain', () => {
  it('returns: the relayer gives up the block it asked for to prove that chain', async () => {
    const { network: net } = await startEvmHubNetwork();
    try {
      net.relayer!.pause();
      const evm = net.evm!;
      const prefix = evm.internals.app.evm.bech32Prefix;
      const denom = evm.internals.app.evm.denom;
      const wallet = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix });
      const [from] = await wallet.getAccounts();
      const client = await SigningStargateClient.connectWithSigner(evm.urls.rpc!, wallet, {
        gasPrice: GasPrice.fromString(`2000000000${denom}`),
        broadcastPollIntervalMs: 50,
      });
      const r = await client.sendIbcTokens(
        from!.address,
        toBech32('hub', new Uint8Array(20).fill(9)),
        { denom, amount: '5' },
        'transfer',
        'channel-0',
        undefined,
        inTenMinutes(),
        fee(denom),
      );
      expect(r.code).toBe(0);
      client.disconnect();
      // The receive on the hub must prove the EVM chain's state after that block: the relayer asks
      // the EVM chain for one more block, which its offline validator never makes.
      const consensus = evm.internals.consensus;
      const mine = consensus.mine.bind(consensus);
      let asked!: () => void;
      const askedForBlock = new Promise<void>((res) => (asked = res));
      consensus.mine = (n, o) => {
        asked();
        return mine(n, o);
      };
      evm.setValidatorOnline(0, false);
      void net.relayer!.flush().catch(() => undefined);
      await askedForBlock;
    } finally {
      await net.stop();
    }
  });
});

describe('a relay tx dropped from the mempool', () => {
  it('is given up after the inclusion timeout; the packet is relayed on a later round', async () => {
    const { network: net, hub: h } = await startEvmHubNetwork([], { inclusionTimeoutMs: 300 });
    const rpc = async (method: string, params: unknown[] = []) =>
      (await (
        await fetch(net.evm!.urls.jsonRpc!, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        })
      ).json()) as { result?: unknown; error?: unknown };
    try {
      const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
      const [from] = await wallet.getAccounts();
      const client = await SigningStargateClient.connectWithSigner(h.urls.rpc!, wallet, { broadcastPollIntervalMs: 50 });
      const receiver = toBech32(net.evm!.internals.app.evm.bech32Prefix, Buffer.from(net.evm!.accounts[2]!.address.slice(2), 'hex'));
      expect((await rpc('evm_setAutomine', [false])).error).toBeUndefined();
      net.relayer!.pause();
      const r = await client.sendIbcTokens(from!.address, receiver, { denom: 'uhub', amount: '77' }, 'transfer', 'channel-0', undefined, inTenMinutes(), {
        amount: [],
        gas: '300000',
      });
      expect(r.code).toBe(0);
      client.disconnect();
      // The receive waits in the EVM mempool (no automine) and is dropped there.
      const flushed = net.relayer!.flush();
      for (let i = 0; i < 100 && net.evm!.internals.mempool.size() === 0; i++) await new Promise((res) => setTimeout(res, 10));
      expect(net.evm!.internals.mempool.size()).toBe(1);
      expect((await rpc('anvil_dropAllTransactions')).error).toBeUndefined();
      await flushed; // gives up after 300 ms, logged, no throw
      expect(net.relayer!.status().pending).toEqual([{ fromChainId: h.chainId, sequence: '1', stage: 'receive' }]);
      // Blocks again: the next round relays it with the sequence read from the chain.
      expect((await rpc('evm_setAutomine', [true])).error).toBeUndefined();
      net.relayer!.resume();
      await net.evm!.mine(1);
      await net.relayer!.idle();
      const evm = await StargateClient.connect(net.evm!.urls.rpc!);
      expect(await evm.getBalance(receiver, voucherOnEvm)).toEqual({ denom: voucherOnEvm, amount: '77' });
      evm.disconnect();
    } finally {
      await net.stop();
    }
  });
});
