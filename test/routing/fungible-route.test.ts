/**
 * The Skip flow offline: /v2/fungible/route, /msgs and /msgs_direct for the network's real paths
 * (a bank send on one chain, an IBC transfer hub ↔ EVM chain in both directions, a voucher going
 * home), Skip's error bodies for impossible and malformed requests, and @skip-go/client's
 * `route` / `messages` / `executeRoute` end to end with a cosmjs signer (hub → EVM chain, and from the
 * EVM chain's Cosmos face with eth_secp256k1 keys) and a viem signer (EVM chain → hub through the
 * ICS-20 precompile) reaching STATE_COMPLETED_SUCCESS.
 */
import { stringToPath } from '@cosmjs/crypto';
import { DirectEthSecp256k1HdWallet, DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { StargateClient } from '@cosmjs/stargate';
import { createWalletClient, defineChain, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBech32 } from '../../src/crypto/bech32.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { denomHashHex } from '../../src/ibc/keys.js';
import type { HubChain } from '../../src/chains/hub/start.js';
import type { Network } from '../../src/network/network.js';
import { startEvmHubNetwork } from '../helpers/ibc-network.js';

let network: Network;
let hub: HubChain;
let url: string;
let evmCosmosId: string;
let evmId: string;
let evmPrefix: string;
let native: string;
const uhubOnEvm = `ibc/${denomHashHex('transfer/channel-0/uhub')}`;

beforeAll(async () => {
  ({ network, hub } = await startEvmHubNetwork());
  url = network.urls.routing!;
  evmCosmosId = network.evm!.chainId;
  evmId = String(network.evm!.evmChainId);
  evmPrefix = network.evm!.internals.app.evm.bech32Prefix;
  native = network.evm!.internals.app.evm.denom;
});
afterAll(async () => {
  await network?.stop();
});

const post = async (path: string, body: unknown) => {
  const r = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as any };
};
const evmBech = (i: number) => toBech32(evmPrefix, Buffer.from(network.evm!.accounts[i]!.address.slice(2), 'hex'));

type SkipClient = typeof import('@skip-go/client');

/** `executeRoute` with its status callbacks recorded: the route must end completed, its callbacks having seen the IBC transfer. */
async function executeTracked(
  skip: SkipClient,
  opts: Omit<Parameters<SkipClient['executeRoute']>[0], 'onRouteStatusUpdated' | 'onTransactionCompleted'>,
): Promise<void> {
  const states: string[] = [];
  const updates: { status: string; events: number }[] = [];
  await skip.executeRoute({
    ...opts,
    onRouteStatusUpdated: (d: { status: string; transferEvents: unknown[] }) => {
      updates.push({ status: d.status, events: d.transferEvents.length });
    },
    onTransactionCompleted: async (t: { status?: { state?: string } }) => {
      states.push(String(t.status?.state));
    },
  });
  expect(states.at(-1)).toBe('STATE_COMPLETED_SUCCESS');
  // The callbacks saw the IBC transfer event, and the route ended completed.
  expect(updates.some((u) => u.events > 0)).toBe(true);
  expect(updates.at(-1)?.status).toBe('completed');
}

describe('/v2/fungible/route and /msgs', () => {
  it('routes uhub from the hub to the EVM chain over channel-0, exact amounts, no swap', async () => {
    const { status, body } = await post('/v2/fungible/route', {
      amount_in: '1000',
      source_asset_denom: 'uhub',
      source_asset_chain_id: hub.chainId,
      dest_asset_denom: uhubOnEvm,
      dest_asset_chain_id: evmCosmosId,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      amount_in: '1000',
      amount_out: '1000',
      estimated_amount_out: '1000',
      chain_ids: [hub.chainId, evmCosmosId],
      required_chain_addresses: [hub.chainId, evmCosmosId],
      does_swap: false,
      txs_required: 1,
      estimated_fees: [],
    });
    expect(body.operations).toEqual([
      {
        transfer: expect.objectContaining({
          port: 'transfer',
          channel: 'channel-0',
          from_chain_id: hub.chainId,
          to_chain_id: evmCosmosId,
          denom_in: 'uhub',
          denom_out: uhubOnEvm,
          bridge_id: 'IBC',
        }),
        tx_index: 0,
        amount_in: '1000',
        amount_out: '1000',
      },
    ]);
    expect(body.estimated_route_duration_seconds).toBeGreaterThan(0);
  });

  it('gives the MsgTransfer to sign, with a timeout', async () => {
    const { status, body } = await post('/v2/fungible/msgs', {
      amount_in: '1000',
      amount_out: '1000',
      source_asset_denom: 'uhub',
      source_asset_chain_id: hub.chainId,
      dest_asset_denom: uhubOnEvm,
      dest_asset_chain_id: evmCosmosId,
      address_list: [hub.devAddresses[0], evmBech(1)],
      operations: [],
      timeout_seconds: 300,
    });
    expect(status).toBe(200);
    const tx = body.txs[0].cosmos_tx;
    expect(tx).toMatchObject({ chain_id: hub.chainId, path: [hub.chainId, evmCosmosId], signer_address: hub.devAddresses[0] });
    expect(tx.msgs[0].msg_type_url).toBe('/ibc.applications.transfer.v1.MsgTransfer');
    const msg = JSON.parse(tx.msgs[0].msg);
    expect(msg).toMatchObject({
      source_port: 'transfer',
      source_channel: 'channel-0',
      token: { denom: 'uhub', amount: '1000' },
      sender: hub.devAddresses[0],
      receiver: evmBech(1),
      timeout_height: {},
      memo: '',
    });
    expect(BigInt(msg.timeout_timestamp)).toBeGreaterThan(BigInt(Date.now()) * 1_000_000n);
    expect(body.msgs[0].multi_chain_msg).toMatchObject({
      chain_id: hub.chainId,
      path: [hub.chainId, evmCosmosId],
      msg_type_url: '/ibc.applications.transfer.v1.MsgTransfer',
    });
  });

  it("routes the EVM chain's native token to the hub through the ICS-20 precompile (EVM face)", async () => {
    const voucher = `ibc/${denomHashHex(`transfer/channel-0/${native}`)}`;
    const { body } = await post('/v2/fungible/msgs_direct', {
      amount_in: '7',
      source_asset_denom: 'chainlet-native',
      source_asset_chain_id: evmId,
      dest_asset_denom: voucher,
      dest_asset_chain_id: hub.chainId,
      chain_ids_to_addresses: { [evmId]: network.evm!.accounts[0]!.address, [hub.chainId]: hub.devAddresses[1] },
    });
    expect(body.route).toMatchObject({ chain_ids: [evmId, hub.chainId], does_swap: false });
    expect(body.txs[0].evm_tx).toMatchObject({
      chain_id: evmId,
      to: '0x0000000000000000000000000000000000000802',
      value: '0',
      signer_address: network.evm!.accounts[0]!.address,
    });
    expect(body.txs[0].evm_tx.data).toMatch(/^[0-9a-f]+$/);
  });

  it('a bank send within one chain; impossible and malformed requests get Skip error bodies', async () => {
    const send = await post('/v2/fungible/msgs', {
      amount_in: '5',
      source_asset_denom: 'uhub',
      source_asset_chain_id: hub.chainId,
      dest_asset_denom: 'uhub',
      dest_asset_chain_id: hub.chainId,
      address_list: [hub.devAddresses[0], hub.devAddresses[2]],
    });
    expect(send.status).toBe(200);
    expect(JSON.parse(send.body.txs[0].cosmos_tx.msgs[0].msg)).toEqual({
      from_address: hub.devAddresses[0],
      to_address: hub.devAddresses[2],
      amount: [{ denom: 'uhub', amount: '5' }],
    });
    const evmSend = await post('/v2/fungible/msgs', {
      amount_in: '9',
      source_asset_denom: 'chainlet-native',
      source_asset_chain_id: evmId,
      dest_asset_denom: 'chainlet-native',
      dest_asset_chain_id: evmId,
      address_list: [network.evm!.accounts[0]!.address, network.evm!.accounts[1]!.address],
    });
    expect(evmSend.body.txs[0].evm_tx).toEqual({
      chain_id: evmId,
      to: network.evm!.accounts[1]!.address,
      value: '9',
      data: '',
      required_erc20_approvals: [],
      signer_address: network.evm!.accounts[0]!.address,
    });
    const unknown = await post('/v2/fungible/route', {
      amount_in: '5',
      source_asset_denom: 'uatom',
      source_asset_chain_id: hub.chainId,
      dest_asset_denom: 'uatom',
      dest_asset_chain_id: evmCosmosId,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 5, message: expect.stringMatching(/no route found/) });
    const swap = await post('/v2/fungible/route', {
      amount_in: '5',
      source_asset_denom: 'uhub',
      source_asset_chain_id: hub.chainId,
      dest_asset_denom: native,
      dest_asset_chain_id: evmCosmosId,
    });
    expect(swap.body).toMatchObject({ code: 5, message: expect.stringMatching(/arrives on .* as ibc\//) });
    const badAmount = await post('/v2/fungible/route', {
      amount_in: '1.5',
      source_asset_denom: 'uhub',
      source_asset_chain_id: hub.chainId,
      dest_asset_denom: uhubOnEvm,
      dest_asset_chain_id: evmCosmosId,
    });
    expect(badAmount.status).toBe(400);
    expect(badAmount.body).toMatchObject({ code: 3, message: expect.stringMatching(/invalid amount/) });
    const missing = await post('/v2/fungible/route', {
      amount_in: '5',
      source_asset_chain_id: hub.chainId,
      dest_asset_denom: uhubOnEvm,
      dest_asset_chain_id: evmCosmosId,
    });
    expect(missing.body).toMatchObject({ code: 3, message: expect.stringMatching(/source_asset_denom is required/) });
    const chain = await post('/v2/fungible/route', {
      amount_in: '5',
      source_asset_denom: 'uhub',
      source_asset_chain_id: 'nope-1',
      dest_asset_denom: uhubOnEvm,
      dest_asset_chain_id: evmCosmosId,
    });
    expect(chain.status).toBe(404);
    const addrs = await post('/v2/fungible/msgs', {
      amount_in: '5',
      source_asset_denom: 'uhub',
      source_asset_chain_id: hub.chainId,
      dest_asset_denom: uhubOnEvm,
      dest_asset_chain_id: evmCosmosId,
      address_list: [hub.devAddresses[0]],
    });
    expect(addrs.body).toMatchObject({ code: 3, message: expect.stringMatching(/needs 2/) });
    const wrongPrefix = await post('/v2/fungible/msgs', {
      amount_in: '5',
      source_asset_denom: 'uhub',
      source_asset_chain_id: hub.chainId,
      dest_asset_denom: uhubOnEvm,
      dest_asset_chain_id: evmCosmosId,
      address_list: [evmBech(0), evmBech(1)],
    });
    expect(wrongPrefix.body).toMatchObject({ code: 3, message: expect.stringMatching(/expected bech32 with prefix "hub"/) });
  });
});

describe("@skip-go/client's route, messages and executeRoute", () => {
  it('messagesDirect answers the route and its MsgTransfer; a bad request rejects with the API error', async () => {
    const skip = await import('@skip-go/client');
    skip.setApiOptions({ apiUrl: url });
    const direct = await skip.messagesDirect({
      amountIn: '10',
      sourceAssetDenom: 'uhub',
      sourceAssetChainId: hub.chainId,
      destAssetDenom: uhubOnEvm,
      destAssetChainId: evmCosmosId,
      chainIdsToAddresses: { [hub.chainId]: hub.devAddresses[0]!, [evmCosmosId]: evmBech(2) },
    });
    expect(direct?.route).toMatchObject({ sourceAssetChainId: hub.chainId, destAssetChainId: evmCosmosId, doesSwap: false });
    const tx = direct?.txs?.[0] as { cosmosTx?: { chainId: string; msgs: { msgTypeUrl: string }[] } } | undefined;
    expect(tx?.cosmosTx?.msgs[0]?.msgTypeUrl).toBe('/ibc.applications.transfer.v1.MsgTransfer');
    await expect(
      skip.route({ amountIn: '10', sourceAssetDenom: 'uhub', sourceAssetChainId: 'nowhere-1', destAssetDenom: 'uhub', destAssetChainId: hub.chainId }),
    ).rejects.toThrow(/chain ID not supported/);
    await expect(
      skip.route({ amountIn: '10', sourceAssetDenom: 'uhub', sourceAssetChainId: hub.chainId, destAssetDenom: native, destAssetChainId: evmCosmosId }),
    ).rejects.toThrow(/no route found/);
  });

  it('hub → EVM chain with a cosmjs signer to STATE_COMPLETED_SUCCESS; the callbacks see the transfer', async () => {
    const skip = await import('@skip-go/client');
    skip.setClientOptions({
      apiUrl: url,
      endpointOptions: { getRpcEndpointForChain: async (id: string) => (id === hub.chainId ? hub.urls.rpc! : network.evm!.urls.rpc!) },
    });
    const route = await skip.route({
      amountIn: '4242',
      sourceAssetDenom: 'uhub',
      sourceAssetChainId: hub.chainId,
      destAssetDenom: uhubOnEvm,
      destAssetChainId: evmCosmosId,
    });
    expect(route?.requiredChainAddresses).toEqual([hub.chainId, evmCosmosId]);
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
    const receiver = evmBech(3);
    await executeTracked(skip, {
      route: route!,
      userAddresses: [
        { chainId: hub.chainId, address: hub.devAddresses[0]! },
        { chainId: evmCosmosId, address: receiver },
      ],
      getCosmosSigner: async () => wallet as never,
    });
    const evm = await StargateClient.connect(network.evm!.urls.rpc!);
    expect(await evm.getBalance(receiver, uhubOnEvm)).toEqual({ denom: uhubOnEvm, amount: '4242' });

    evm.disconnect();
  });

  it("EVM chain's Cosmos face → hub with a DirectEthSecp256k1HdWallet (eth_secp256k1 keys)", async () => {
    const skip = await import('@skip-go/client');
    skip.setClientOptions({
      apiUrl: url,
      endpointOptions: { getRpcEndpointForChain: async (id: string) => (id === hub.chainId ? hub.urls.rpc! : network.evm!.urls.rpc!) },
    });
    const voucher = `ibc/${denomHashHex(`transfer/channel-0/${native}`)}`;
    const route = await skip.route({
      amountIn: '2000000000000000',
      sourceAssetDenom: native,
      sourceAssetChainId: evmCosmosId,
      destAssetDenom: voucher,
      destAssetChainId: hub.chainId,
    });
    expect(route?.requiredChainAddresses).toEqual([evmCosmosId, hub.chainId]);
    const wallet = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: evmPrefix, hdPaths: [stringToPath("m/44'/60'/0'/0/6")] });
    const [sender] = await wallet.getAccounts();
    expect(sender!.address).toBe(evmBech(6));
    await executeTracked(skip, {
      route: route!,
      userAddresses: [
        { chainId: evmCosmosId, address: sender!.address },
        { chainId: hub.chainId, address: hub.devAddresses[6]! },
      ],
      getCosmosSigner: async () => wallet as never,
    });
    const h = await StargateClient.connect(hub.urls.rpc!);
    expect(await h.getBalance(hub.devAddresses[6]!, voucher)).toEqual({ denom: voucher, amount: '2000000000000000' });
    h.disconnect();
    // The chain recorded the sender's key as what it is: an eth_secp256k1 key.
    const evm = await StargateClient.connect(network.evm!.urls.rpc!);
    expect((await evm.getAccount(sender!.address))?.pubkey?.type).toBe('os/PubKeyEthSecp256k1');
    evm.disconnect();
  });

  it('EVM chain → hub with a viem signer through the ICS-20 precompile', async () => {
    const skip = await import('@skip-go/client');
    skip.setClientOptions({
      apiUrl: url,
      endpointOptions: { getRpcEndpointForChain: async (id: string) => (id === hub.chainId ? hub.urls.rpc! : network.evm!.urls.jsonRpc!) },
    });
    const voucher = `ibc/${denomHashHex(`transfer/channel-0/${native}`)}`;
    const route = await skip.route({
      amountIn: '1000000000000000',
      sourceAssetDenom: native,
      sourceAssetChainId: evmId,
      destAssetDenom: voucher,
      destAssetChainId: hub.chainId,
    });
    const evm = network.evm!;
    const chain = defineChain({
      id: evm.evmChainId,
      name: 'chainlet',
      nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 },
      rpcUrls: { default: { http: [evm.urls.jsonRpc!] } },
    });
    const account = privateKeyToAccount(evm.accounts[4]!.privateKey as `0x${string}`);
    await executeTracked(skip, {
      route: route!,
      userAddresses: [
        { chainId: evmId, address: account.address },
        { chainId: hub.chainId, address: hub.devAddresses[5]! },
      ],
      getEvmSigner: async () => createWalletClient({ account, chain, transport: http() }) as never,
    });
    const h = await StargateClient.connect(hub.urls.rpc!);
    expect(await h.getBalance(hub.devAddresses[5]!, voucher)).toEqual({ denom: voucher, amount: '1000000000000000' });
    h.disconnect();
    // Home again to the EVM face: the 0x receiver goes into the MsgTransfer as its bech32 form.
    const home = await post('/v2/fungible/msgs', {
      amount_in: '5',
      source_asset_denom: voucher,
      source_asset_chain_id: hub.chainId,
      dest_asset_denom: 'chainlet-native',
      dest_asset_chain_id: evmId,
      address_list: [hub.devAddresses[5], account.address],
    });
    expect(home.status).toBe(200);
    expect(JSON.parse(home.body.txs[0].cosmos_tx.msgs[0].msg)).toMatchObject({
      token: { denom: voucher, amount: '5' },
      receiver: toBech32(evmPrefix, Buffer.from(account.address.slice(2), 'hex')),
    });
  });
});
