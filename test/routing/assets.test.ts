/**
 * The asset endpoints over HTTP on a network of the EVM chain, the hub and the SVM chain:
 * /v2/fungible/assets (each filter), a voucher listed on the EVM chain after a cosmjs IBC transfer
 * from the hub and on the hub after a precompile transfer from the EVM chain (origin chain, trace,
 * origin decimals), assets_between_chains hub ↔ EVM, assets_from_source, ibc_origin_assets,
 * recommend_assets, bridges, venues, bad requests, and the same through @skip-go/client.
 */
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { SigningStargateClient } from '@cosmjs/stargate';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { createPublicClient, createWalletClient, defineChain, http, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeConfig } from '../../src/config/defaults.js';
import { toBech32 } from '../../src/crypto/bech32.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { transferMsg } from '../helpers/cosmos-signing.js';
import { denomHashHex } from '../../src/ibc/keys.js';
import type { HubChain } from '../../src/chains/hub/start.js';
import { startNetwork, type Network } from '../../src/network/network.js';
import type { SvmChain } from '../../src/chains/svm/start.js';
import { FAST_CONSENSUS, TEST_PORTS } from '../helpers/node.js';

let network: Network;
let hub: HubChain;
let svm: SvmChain;
let url: string;
let cosmosId: string;
let evmId: string;

const HUB_VOUCHER = `ibc/${denomHashHex('transfer/channel-0/uhub')}`;
const EVM_VOUCHER = `ibc/${denomHashHex('transfer/channel-0/achainlet')}`;

beforeAll(async () => {
  network = await startNetwork({
    chains: [
      {
        kind: 'evm',
        config: mergeConfig(mergeConfig(TEST_PORTS as never, FAST_CONSENSUS as never), {
          routing: { rateLimitBurst: 10_000, rateLimitPerSecond: 10_000 },
        } as never) as never,
      },
      { kind: 'hub', config: { rpc: { laddr: 'tcp://127.0.0.1:0' } } },
      { kind: 'svm', rpc: '', slotMs: 0 },
    ],
  });
  hub = network.chains.find((c): c is HubChain => c.kind === 'hub')!;
  svm = network.chains.find((c): c is SvmChain => c.kind === 'svm')!;
  url = network.urls.routing!;
  cosmosId = network.evm!.chainId;
  evmId = String(network.evm!.evmChainId);
});
afterAll(async () => {
  await network?.stop();
});

async function get(path: string): Promise<{ status: number; body: any }> {
  const r = await fetch(`${url}${path}`);
  return { status: r.status, body: await r.json() };
}

async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

const denoms = (list: { denom: string }[]) => list.map((a) => a.denom);

/** uhub from the hub to the EVM chain with cosmjs, submitted through the routing API. */
async function hubToEvm(amount: string): Promise<void> {
  const evm = network.evm!;
  const receiver = toBech32(evm.internals.app.evm.bech32Prefix, Buffer.from(evm.accounts[3]!.address.slice(2), 'hex'));
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
  const [from] = await wallet.getAccounts();
  const client = await SigningStargateClient.connectWithSigner(hub.urls.rpc!, wallet);
  const msg = transferMsg({ sender: from!.address, receiver, amount });
  const signed = await client.sign(from!.address, [msg], { amount: [], gas: '300000' }, '');
  client.disconnect();
  const res = await post('/v2/tx/submit', { chain_id: hub.chainId, tx: Buffer.from(TxRaw.encode(signed).finish()).toString('base64') });
  expect(res.status).toBe(200);
}

/** achainlet from the EVM chain to the hub through the ICS-20 precompile, with viem. */
async function evmToHub(amount: bigint): Promise<void> {
  const evm = network.evm!;
  const chain = defineChain({
    id: evm.evmChainId,
    name: 'chainlet',
    nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 },
    rpcUrls: { default: { http: [evm.urls.jsonRpc!] } },
  });
  const account = privateKeyToAccount(evm.accounts[4]!.privateKey as `0x${string}`);
  const pub = createPublicClient({ chain, transport: http() });
  const wallet = createWalletClient({ account, chain, transport: http() });
  const abi = parseAbi([
    'struct Height { uint64 revisionNumber; uint64 revisionHeight; }',
    'function transfer(string sourcePort, string sourceChannel, string denom, uint256 amount, address sender, string receiver, Height timeoutHeight, uint64 timeoutTimestamp, string memo) returns (uint64 nextSequence)',
  ]);
  const hash = await wallet.writeContract({
    address: '0x0000000000000000000000000000000000000802',
    abi,
    functionName: 'transfer',
    args: [
      'transfer',
      'channel-0',
      'achainlet',
      amount,
      account.address,
      hub.devAddresses[4]!,
      { revisionNumber: 0n, revisionHeight: 0n },
      BigInt(Date.now() + 600_000) * 1_000_000n,
      '',
    ],
  });
  expect((await pub.waitForTransactionReceipt({ hash })).status).toBe('success');
}

describe('bridges and venues', () => {
  it('lists IBC as the one bridge and no venues', async () => {
    expect(await get('/v2/info/bridges')).toEqual({
      status: 200,
      body: { bridges: [{ id: 'IBC', name: 'IBC', logo_uri: expect.stringMatching(/^https:\/\/.*ibc.*\.svg$/) }] },
    });
    expect(await get('/v2/fungible/venues')).toEqual({ status: 200, body: { venues: [] } });
    expect(await get('/v2/fungible/venues?only_testnets=true')).toEqual({ status: 200, body: { venues: [] } });
    expect((await get('/v2/fungible/venues?only_testnets=maybe')).body).toMatchObject({ code: 3 });
  });
});

describe('/v2/fungible/assets', () => {
  it('lists the Cosmos faces by default: each native denom with its metadata', async () => {
    const { status, body } = await get('/v2/fungible/assets');
    expect(status).toBe(200);
    expect(Object.keys(body.chain_to_assets_map).sort()).toEqual([cosmosId, hub.chainId].sort());
    expect(body.chain_to_assets_map[cosmosId].assets[0]).toEqual({
      denom: 'achainlet',
      chain_id: cosmosId,
      origin_denom: 'achainlet',
      origin_chain_id: cosmosId,
      trace: '',
      is_cw20: false,
      is_evm: false,
      is_svm: false,
      symbol: 'CHAINLET',
      name: 'Chainlet',
      logo_uri: `${url}/logo.svg`,
      decimals: 18,
      token_contract: null,
      description: 'The native token of Chainlet',
      coingecko_id: null,
      recommended_symbol: 'CHAINLET',
    });
    expect(body.chain_to_assets_map[hub.chainId].assets[0]).toMatchObject({
      denom: 'uhub',
      chain_id: hub.chainId,
      origin_chain_id: hub.chainId,
      trace: '',
      decimals: 6,
      symbol: 'HUB',
      is_evm: false,
    });
  });

  it('adds the EVM face with include_evm_assets and the SVM chain with include_svm_assets', async () => {
    const evm = (await get('/v2/fungible/assets?include_evm_assets=true')).body.chain_to_assets_map;
    expect(Object.keys(evm)).toContain(evmId);
    expect(evm[evmId].assets).toEqual([
      expect.objectContaining({
        denom: 'chainlet-native',
        chain_id: evmId,
        origin_denom: 'chainlet-native',
        origin_chain_id: evmId,
        is_evm: true,
        decimals: 18,
        symbol: 'CHAINLET',
      }),
    ]);
    expect(Object.keys(evm)).not.toContain('solana-devnet');

    const sol = (await get('/v2/fungible/assets?include_svm_assets=true&chain_ids=solana-devnet')).body.chain_to_assets_map;
    expect(Object.keys(sol)).toEqual(['solana-devnet']);
    expect(sol['solana-devnet'].assets).toEqual([
      expect.objectContaining({ denom: 'solana-native', is_svm: true, decimals: 9, symbol: 'SOL', token_contract: null }),
      expect.objectContaining({
        denom: svm.ledger.mint,
        token_contract: svm.ledger.mint,
        is_svm: true,
        decimals: 6,
        symbol: 'USDC',
        origin_chain_id: 'solana-devnet',
      }),
    ]);
    // Named but not included: EVM and SVM faces need their include flag, as /v2/info/chains does.
    expect((await get(`/v2/fungible/assets?chain_ids=${evmId},solana-devnet`)).body.chain_to_assets_map).toEqual({});
  });

  it('limits to chain_ids (repeated, [] or comma forms)', async () => {
    expect(Object.keys((await get(`/v2/fungible/assets?chain_ids=${hub.chainId}`)).body.chain_to_assets_map)).toEqual([hub.chainId]);
    expect(Object.keys((await get(`/v2/fungible/assets?chain_ids[]=${hub.chainId}&chain_ids[]=${cosmosId}`)).body.chain_to_assets_map).sort()).toEqual(
      [cosmosId, hub.chainId].sort(),
    );
    expect(Object.keys((await get(`/v2/fungible/assets?chain_ids=${evmId}&include_evm_assets=true`)).body.chain_to_assets_map)).toEqual([evmId]);
  });

  it('answers bad requests with Skip error bodies', async () => {
    expect(await get('/v2/fungible/assets?chain_ids=nope-1')).toEqual({ status: 404, body: { code: 5, message: 'chain ID not supported', details: [] } });
    const bad = await get('/v2/fungible/assets?native_only=yes');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 3, message: expect.stringContaining('native_only'), details: [] });
  });
});

describe('IBC vouchers', () => {
  beforeAll(async () => {
    await hubToEvm('4242');
    await evmToHub(10n ** 15n);
    await network.relayer!.idle();
    await network.relayer!.idle();
  });

  it('lists the voucher of uhub on the EVM chain and that of achainlet on the hub, with their origins', async () => {
    const map = (await get('/v2/fungible/assets')).body.chain_to_assets_map;
    expect(map[cosmosId].assets.find((a: any) => a.denom === HUB_VOUCHER)).toEqual({
      denom: HUB_VOUCHER,
      chain_id: cosmosId,
      origin_denom: 'uhub',
      origin_chain_id: hub.chainId,
      trace: 'transfer/channel-0',
      is_cw20: false,
      is_evm: false,
      is_svm: false,
      symbol: 'HUB',
      name: 'Chainlet Hub',
      logo_uri: `${url}/logo.svg`,
      decimals: 6,
      token_contract: null,
      description: 'The native token of Chainlet Hub',
      coingecko_id: null,
      recommended_symbol: 'HUB',
    });
    expect(map[hub.chainId].assets.find((a: any) => a.denom === EVM_VOUCHER)).toMatchObject({
      origin_denom: 'achainlet',
      origin_chain_id: cosmosId,
      trace: 'transfer/channel-0',
      decimals: 18,
      symbol: 'CHAINLET',
    });
    // Vouchers are bank coins: never on the EVM face.
    const evmFace = (await get(`/v2/fungible/assets?include_evm_assets=true&chain_ids=${evmId}`)).body.chain_to_assets_map[evmId].assets;
    expect(denoms(evmFace)).toEqual(['chainlet-native']);
  });

  it('native_only drops the vouchers', async () => {
    const map = (await get('/v2/fungible/assets?native_only=true')).body.chain_to_assets_map;
    expect(denoms(map[cosmosId].assets)).toEqual(['achainlet']);
    expect(denoms(map[hub.chainId].assets)).toEqual(['uhub']);
  });

  it('ibc_origin_assets answers the origin of each voucher', async () => {
    const r = await post('/v2/fungible/ibc_origin_assets', {
      assets: [
        { denom: HUB_VOUCHER.toLowerCase(), chain_id: cosmosId },
        { denom: EVM_VOUCHER, chain_id: hub.chainId },
        { denom: 'uhub', chain_id: hub.chainId },
        { denom: `ibc/${'0'.repeat(64)}`, chain_id: hub.chainId },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.origin_assets[0]).toMatchObject({ asset_found: true, asset: { denom: 'uhub', chain_id: hub.chainId, trace: '', decimals: 6 } });
    expect(r.body.origin_assets[1]).toMatchObject({ asset_found: true, asset: { denom: 'achainlet', chain_id: cosmosId, trace: '', decimals: 18 } });
    expect(r.body.origin_assets[2]).toMatchObject({ asset_found: true, asset: { denom: 'uhub', chain_id: hub.chainId } });
    expect(r.body.origin_assets[3]).toEqual({ asset: null, asset_found: false });
    expect(await post('/v2/fungible/ibc_origin_assets', { assets: [{ denom: 'uhub' }] })).toEqual({
      status: 400,
      body: { code: 3, message: 'Must supply denom and chain_id', details: [] },
    });
    expect((await post('/v2/fungible/ibc_origin_assets', { assets: [{ denom: 'uhub', chain_id: 'nope-1' }] })).status).toBe(404);
  });
});

describe('assets between chains, from a source, and recommendations', () => {
  it('assets_between_chains hub → EVM chain: uhub becomes its voucher, the achainlet voucher goes home', async () => {
    const r = await post('/v2/fungible/assets_between_chains', { source_chain_id: hub.chainId, dest_chain_id: cosmosId });
    expect(r.status).toBe(200);
    const pairs = r.body.assets_between_chains as any[];
    const uhub = pairs.find((p) => p.asset_on_source.denom === 'uhub');
    expect(uhub).toMatchObject({
      asset_on_dest: { denom: HUB_VOUCHER, chain_id: cosmosId, origin_denom: 'uhub', origin_chain_id: hub.chainId, trace: 'transfer/channel-0', decimals: 6 },
      txs_required: 1,
      bridges: ['IBC'],
    });
    const home = pairs.find((p) => p.asset_on_source.denom === EVM_VOUCHER);
    expect(home).toMatchObject({ asset_on_dest: { denom: 'achainlet', chain_id: cosmosId, trace: '', decimals: 18 }, txs_required: 1, bridges: ['IBC'] });
  });

  it('assets_between_chains EVM chain → hub, from either face', async () => {
    const cosmos = (await post('/v2/fungible/assets_between_chains', { source_chain_id: cosmosId, dest_chain_id: hub.chainId })).body
      .assets_between_chains as any[];
    expect(cosmos.map((p) => [p.asset_on_source.denom, p.asset_on_dest.denom]).sort()).toEqual(
      [
        ['achainlet', EVM_VOUCHER],
        [HUB_VOUCHER, 'uhub'],
      ].sort(),
    );
    // The EVM face's assets are EVM assets: listed only with include_evm_assets.
    expect((await post('/v2/fungible/assets_between_chains', { source_chain_id: evmId, dest_chain_id: hub.chainId })).body).toEqual({
      assets_between_chains: [],
    });
    const evm = (await post('/v2/fungible/assets_between_chains', { source_chain_id: Number(evmId), dest_chain_id: hub.chainId, include_evm_assets: true }))
      .body.assets_between_chains as any[];
    expect(evm).toEqual([
      expect.objectContaining({
        asset_on_source: expect.objectContaining({ denom: 'chainlet-native', is_evm: true }),
        asset_on_dest: expect.objectContaining({ denom: EVM_VOUCHER, chain_id: hub.chainId }),
      }),
    ]);
    // The GET form (what @skip-go/client sends).
    expect((await get(`/v2/fungible/assets_between_chains?source_chain_id=${cosmosId}&dest_chain_id=${hub.chainId}`)).body.assets_between_chains).toHaveLength(
      2,
    );
    // No channel to the SVM chain.
    expect((await post('/v2/fungible/assets_between_chains', { source_chain_id: hub.chainId, dest_chain_id: 'solana-devnet' })).body).toEqual({
      assets_between_chains: [],
    });
  });

  it('assets_between_chains rejects bad requests', async () => {
    expect(await post('/v2/fungible/assets_between_chains', { source_chain_id: hub.chainId })).toEqual({
      status: 400,
      body: { code: 3, message: 'Must supply dest_chain_id', details: [] },
    });
    expect(
      (await post('/v2/fungible/assets_between_chains', { source_chain_id: hub.chainId, dest_chain_id: cosmosId, include_evm_assets: 'yes' })).body,
    ).toMatchObject({ code: 3 });
    expect((await post('/v2/fungible/assets_between_chains', { source_chain_id: hub.chainId, dest_chain_id: ['x'] })).body).toMatchObject({ code: 3 });
    expect(await post('/v2/fungible/assets_between_chains', { source_chain_id: 'nope-1', dest_chain_id: cosmosId })).toEqual({
      status: 404,
      body: { code: 5, message: 'chain ID not supported', details: [] },
    });
  });

  it('assets_from_source lists where one transfer takes an asset', async () => {
    const r = await post('/v2/fungible/assets_from_source', { source_asset_denom: 'uhub', source_asset_chain_id: hub.chainId, allow_multi_tx: false });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      dest_assets: { [cosmosId]: { assets: [expect.objectContaining({ denom: HUB_VOUCHER, origin_chain_id: hub.chainId, decimals: 6 })] } },
    });
    // achainlet reaches the hub from both faces of the EVM chain.
    const fromEvm = await post('/v2/fungible/assets_from_source', { source_asset_denom: 'chainlet-native', source_asset_chain_id: evmId });
    expect(denoms(fromEvm.body.dest_assets[hub.chainId].assets)).toEqual([EVM_VOUCHER]);
    // native_only keeps only the way home.
    expect((await post('/v2/fungible/assets_from_source', { source_asset_denom: 'uhub', source_asset_chain_id: hub.chainId, native_only: true })).body).toEqual(
      { dest_assets: {} },
    );
    expect(
      denoms(
        (await post('/v2/fungible/assets_from_source', { source_asset_denom: HUB_VOUCHER, source_asset_chain_id: cosmosId, native_only: true })).body
          .dest_assets[hub.chainId].assets,
      ),
    ).toEqual(['uhub']);
    // An SPL mint goes nowhere.
    expect((await post('/v2/fungible/assets_from_source', { source_asset_denom: svm.ledger.mint, source_asset_chain_id: 'solana-devnet' })).body).toEqual({
      dest_assets: {},
    });
    // Bad requests.
    expect((await post('/v2/fungible/assets_from_source', { source_asset_chain_id: hub.chainId })).body).toEqual({
      code: 3,
      message: 'Must supply source_asset_denom',
      details: [],
    });
    expect((await post('/v2/fungible/assets_from_source', { source_asset_denom: 'nope', source_asset_chain_id: hub.chainId })).body).toMatchObject({
      code: 3,
      message: expect.stringContaining('Invalid source_asset_denom'),
    });
    expect((await post('/v2/fungible/assets_from_source', { source_asset_denom: 'uhub', source_asset_chain_id: hub.chainId, allow_multi_tx: 1 })).status).toBe(
      400,
    );
    expect((await post('/v2/fungible/assets_from_source', { source_asset_denom: 'uhub', source_asset_chain_id: 'nope-1' })).status).toBe(404);
  });

  it('recommend_assets gives the voucher (DIRECT) or the native denom back home (BASE_TOKEN)', async () => {
    const r = await post('/v2/fungible/recommend_assets', {
      requests: [
        { source_asset_denom: 'uhub', source_asset_chain_id: hub.chainId, dest_chain_id: cosmosId },
        { source_asset_denom: HUB_VOUCHER, source_asset_chain_id: cosmosId, dest_chain_id: hub.chainId },
        { source_asset_denom: 'achainlet', source_asset_chain_id: cosmosId, dest_chain_id: evmId },
        { source_asset_denom: 'uhub', source_asset_chain_id: hub.chainId, dest_chain_id: 'solana-devnet' },
        { source_asset_denom: 'nope', source_asset_chain_id: hub.chainId, dest_chain_id: cosmosId },
        { source_asset_denom: 'uhub', source_asset_chain_id: hub.chainId, dest_chain_id: cosmosId, reason: 'BASE_TOKEN' },
      ],
    });
    expect(r.status).toBe(200);
    const e = r.body.recommendation_entries;
    expect(e[0]).toEqual({
      recommendations: [
        { asset: expect.objectContaining({ denom: HUB_VOUCHER, chain_id: cosmosId, trace: 'transfer/channel-0', decimals: 6 }), reason: 'DIRECT' },
      ],
      error: null,
    });
    expect(e[1]).toEqual({
      recommendations: [{ asset: expect.objectContaining({ denom: 'uhub', chain_id: hub.chainId, trace: '' }), reason: 'BASE_TOKEN' }],
      error: null,
    });
    expect(e[2].recommendations).toEqual([
      { asset: expect.objectContaining({ denom: 'chainlet-native', chain_id: evmId, is_evm: true }), reason: 'BASE_TOKEN' },
    ]);
    expect(e[3]).toEqual({ recommendations: [], error: { message: 'no recommendation found' } });
    expect(e[4].error.message).toMatch(/not found/);
    expect(e[5]).toEqual({ recommendations: [], error: { message: 'no recommendation found' } });

    expect(await post('/v2/fungible/recommend_assets', { requests: [{ dest_chain_id: cosmosId }] })).toEqual({
      status: 400,
      body: { code: 3, message: 'Must supply source_asset', details: [] },
    });
    expect(
      (
        await post('/v2/fungible/recommend_assets', {
          requests: [{ source_asset_denom: 'uhub', source_asset_chain_id: hub.chainId, dest_chain_id: cosmosId, reason: 'CHEAPEST' }],
        })
      ).status,
    ).toBe(400);
    expect(
      (await post('/v2/fungible/recommend_assets', { requests: [{ source_asset_denom: 'uhub', source_asset_chain_id: hub.chainId, dest_chain_id: 'nope-1' }] }))
        .status,
    ).toBe(404);
    expect((await post('/v2/fungible/recommend_assets', {})).status).toBe(400);
  });
});

describe('@skip-go/client against the node', () => {
  it('reads bridges, venues, assets, assets between chains, origins and recommendations', async () => {
    const skip = await import('@skip-go/client');
    skip.setApiOptions({ apiUrl: url });
    expect(await skip.bridges()).toEqual([{ id: 'IBC', name: 'IBC', logoUri: expect.any(String) }]);
    expect(await skip.venues()).toEqual([]);

    const assets = (await skip.assets({ includeEvmAssets: true }))!;
    expect(Object.keys(assets).sort()).toEqual([cosmosId, evmId, hub.chainId].sort());
    expect(assets[cosmosId]!.find((a) => a.denom === HUB_VOUCHER)).toMatchObject({
      originChainId: hub.chainId,
      originDenom: 'uhub',
      trace: 'transfer/channel-0',
      decimals: 6,
      isEvm: false,
    });
    expect(assets[evmId]).toEqual([expect.objectContaining({ denom: 'chainlet-native', isEvm: true })]);
    const hubOnly = (await skip.assets({ chainIds: [hub.chainId], nativeOnly: true }))!;
    expect(Object.keys(hubOnly)).toEqual([hub.chainId]);
    expect(hubOnly[hub.chainId]!.map((a) => a.denom)).toEqual(['uhub']);

    const between = (await skip.assetsBetweenChains({ sourceChainId: hub.chainId, destChainId: cosmosId }))!;
    expect(between.assetsBetweenChains?.find((p) => p.assetOnSource?.denom === 'uhub')).toMatchObject({
      assetOnDest: { denom: HUB_VOUCHER, decimals: 6 },
      txsRequired: 1,
      bridges: ['IBC'],
    });

    const from = (await skip.assetsFromSource({ sourceAssetDenom: 'uhub', sourceAssetChainId: hub.chainId }))!;
    expect(from[cosmosId]!.map((a) => a.denom)).toEqual([HUB_VOUCHER]);

    const origins = (await skip.ibcOriginAssets({ assets: [{ denom: HUB_VOUCHER, chainId: cosmosId }] }))!;
    expect(origins[0]).toMatchObject({ assetFound: true, asset: { denom: 'uhub', chainId: hub.chainId } });

    const rec = (await skip.recommendAssets({ requests: [{ sourceAssetDenom: 'uhub', sourceAssetChainId: hub.chainId, destChainId: cosmosId }] }))!;
    expect(rec[0]!.recommendations).toEqual([{ asset: expect.objectContaining({ denom: HUB_VOUCHER, chainId: cosmosId }), reason: 'DIRECT' }]);
  });
});
