/**
 * The Cosmos face's gRPC queries over abci_query, read with cosmjs' QueryClient extensions and
 * cosmjs-types: auth (Account, AccountInfo, Accounts with paging, Params), bank (TotalSupply, SupplyOf,
 * DenomMetadata, DenomsMetadata, Params, SpendableBalances), tx (GetTx), the node's GetNodeInfo and
 * GetLatestBlock; bad request bytes and bad addresses answer the SDK's codes, with `height` set.
 */
import { DirectEthSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { QueryClient, setupAuthExtension, setupBankExtension, setupTxExtension, SigningStargateClient } from '@cosmjs/stargate';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import {
  QueryAccountInfoRequest,
  QueryAccountInfoResponse,
  QueryAccountsRequest,
  QueryAccountsResponse,
  QueryParamsResponse as AuthParams,
} from 'cosmjs-types/cosmos/auth/v1beta1/query';
import { QueryParamsResponse as BankParams, QuerySpendableBalancesRequest, QuerySpendableBalancesResponse } from 'cosmjs-types/cosmos/bank/v1beta1/query';
import { GetLatestBlockResponse, GetNodeInfoResponse } from 'cosmjs-types/cosmos/base/tendermint/v1beta1/query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBech32 } from '../../src/crypto/bech32.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import type { ChainletNode } from '../../src/node/node.js';
import { startTestNode } from '../helpers/node.js';

const DENOM = 'achainlet';
let node: ChainletNode;
let comet: Comet38Client;
let q: ReturnType<
  typeof QueryClient.withExtensions<ReturnType<typeof setupAuthExtension>, ReturnType<typeof setupBankExtension>, ReturnType<typeof setupTxExtension>>
>;
let sentHash: string;
let address: string;

beforeAll(async () => {
  node = await startTestNode();
  comet = await Comet38Client.connect(node.urls.rpc!);
  q = QueryClient.withExtensions(comet, setupAuthExtension, setupBankExtension, setupTxExtension);
  const wallet = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'chainlet' });
  address = (await wallet.getAccounts())[0]!.address;
  const client = await SigningStargateClient.connectWithSigner(node.urls.rpc!, wallet, { broadcastPollIntervalMs: 50 });
  const r = await client.sendTokens(address, toBech32('chainlet', new Uint8Array(20).fill(9)), [{ denom: DENOM, amount: '5' }], {
    amount: [{ denom: DENOM, amount: String(2_000_000_000n * 200_000n) }],
    gas: '200000',
  });
  expect(r.code).toBe(0);
  sentHash = r.transactionHash;
  client.disconnect();
});

afterAll(async () => {
  comet?.disconnect();
  await node?.stop();
});

describe('Cosmos SDK queries over abci_query', () => {
  it('auth: Account, AccountInfo, Accounts with paging, Params', async () => {
    const any = await q.auth.account(address);
    expect(any?.typeUrl).toBe('/cosmos.auth.v1beta1.BaseAccount');
    const info = QueryAccountInfoResponse.decode(
      await q.queryAbci('/cosmos.auth.v1beta1.Query/AccountInfo', QueryAccountInfoRequest.encode({ address }).finish()).then((r) => r.value),
    );
    expect(info.info?.address).toBe(address);
    expect(info.info?.sequence).toBe(1n);
    const first = QueryAccountsResponse.decode(
      (
        await q.queryAbci(
          '/cosmos.auth.v1beta1.Query/Accounts',
          QueryAccountsRequest.encode({ pagination: { key: new Uint8Array(0), offset: 0n, limit: 3n, countTotal: true, reverse: false } }).finish(),
        )
      ).value,
    );
    expect(first.accounts).toHaveLength(3);
    expect(first.pagination?.total).toBeGreaterThanOrEqual(11n); // 10 dev accounts, the fee collector, the recipient
    const next = QueryAccountsResponse.decode(
      (
        await q.queryAbci(
          '/cosmos.auth.v1beta1.Query/Accounts',
          QueryAccountsRequest.encode({ pagination: { key: first.pagination!.nextKey, offset: 0n, limit: 3n, countTotal: false, reverse: false } }).finish(),
        )
      ).value,
    );
    expect(next.accounts[0]!.value).not.toEqual(first.accounts[0]!.value);
    const params = AuthParams.decode((await q.queryAbci('/cosmos.auth.v1beta1.Query/Params', new Uint8Array(0))).value);
    expect(params.params?.txSizeCostPerByte).toBe(10n);
  });

  it('bank: supply, metadata, params, spendable balances', async () => {
    const supply = await q.bank.totalSupply();
    const total = BigInt(supply.supply.find((c) => c.denom === DENOM)!.amount);
    expect(total).toBeGreaterThan(10n * 10n ** 22n - 10n ** 18n);
    expect((await q.bank.supplyOf(DENOM)).amount).toBe(total.toString());
    const meta = await q.bank.denomMetadata(DENOM);
    expect(meta).toMatchObject({ base: DENOM, display: 'chainlet' });
    expect(meta.denomUnits.map((u) => u.exponent)).toEqual([0, 18]);
    expect(await q.bank.denomsMetadata()).toHaveLength(1);
    await expect(q.bank.denomMetadata('uatom')).rejects.toThrow(/code = NotFound/);
    expect(BankParams.decode((await q.queryAbci('/cosmos.bank.v1beta1.Query/Params', new Uint8Array(0))).value).params?.defaultSendEnabled).toBe(true);
    const spendable = QuerySpendableBalancesResponse.decode(
      (await q.queryAbci('/cosmos.bank.v1beta1.Query/SpendableBalances', QuerySpendableBalancesRequest.encode({ address }).finish())).value,
    );
    expect(spendable.balances[0]!.amount).toBe((await q.bank.balance(address, DENOM)).amount);
  });

  it('tx GetTx and the node’s GetNodeInfo and GetLatestBlock', async () => {
    const tx = await q.tx.getTx(sentHash);
    expect(tx.txResponse?.code).toBe(0);
    expect(tx.txResponse?.txhash).toBe(sentHash);
    expect(tx.tx?.body?.messages[0]?.typeUrl).toBe('/cosmos.bank.v1beta1.MsgSend');
    const info = GetNodeInfoResponse.decode((await q.queryAbci('/cosmos.base.tendermint.v1beta1.Service/GetNodeInfo', new Uint8Array(0))).value);
    expect(info.defaultNodeInfo?.network).toBe(node.chainId);
    expect(info.defaultNodeInfo?.version).toMatch(/^0\.38\./);
    const latest = GetLatestBlockResponse.decode((await q.queryAbci('/cosmos.base.tendermint.v1beta1.Service/GetLatestBlock', new Uint8Array(0))).value);
    const height = Number(latest.block!.header!.height);
    const meta = await node.internals.blockStore.loadBlockMeta(height);
    expect(Buffer.from(latest.blockId!.hash)).toEqual(Buffer.from(meta!.blockId.hash));
    expect(latest.block?.header?.chainId).toBe(node.chainId);
  });

  it('bad request bytes and addresses answer SDK codes with the height set', async () => {
    const bad = await comet.abciQuery({ path: '/cosmos.bank.v1beta1.Query/Balance', data: Uint8Array.from([0xff, 0xff, 0xff]) });
    expect(bad.code).toBe(18);
    expect(bad.height).toBeGreaterThan(0);
    const wrongPrefix = await q.bank.balance(toBech32('cosmos', new Uint8Array(20)), DENOM).catch((e: Error) => e.message);
    expect(wrongPrefix).toMatch(
      /Query failed with \(18\): rpc error: code = InvalidArgument desc = invalid address: hrp does not match bech32 prefix: expected 'chainlet' got 'cosmos'/,
    );
    const unknown = await comet.abciQuery({ path: '/cosmos.staking.v1beta1.Query/Validators', data: new Uint8Array(0) });
    expect(unknown.code).toBe(6);
    expect(unknown.log).toBe('unknown query path: /cosmos.staking.v1beta1.Query/Validators');
  });
});
