/**
 * The hub chain with stock cosmjs: its own chain id, bech32 prefix and 6-decimal denom; the dev
 * mnemonic's m/44'/118' accounts funded; StargateClient reads and SigningStargateClient sends
 * (direct and "auto" fees) through the same Cosmos tx pipeline as the EVM chain's Cosmos face.
 */
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { startHubChain, type HubChain } from '../../src/chains/hub/start.js';

let hub: HubChain;
beforeAll(async () => {
  hub = await startHubChain({ kind: 'hub', config: { rpc: { laddr: 'tcp://127.0.0.1:0' } } });
});
afterAll(async () => {
  await hub?.stop();
});

describe('the hub chain', () => {
  it('is a Cosmos chain cosmjs reads: chain id, funded dev accounts in uhub', async () => {
    const client = await StargateClient.connect(hub.urls.rpc!);
    expect(await client.getChainId()).toBe('chainlethub-1');
    const [acc] = await (await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' })).getAccounts();
    expect(acc!.address).toBe(hub.devAddresses[0]);
    expect(await client.getBalance(acc!.address, 'uhub')).toEqual({ denom: 'uhub', amount: '1000000000000' });
    expect(await client.getAccount(acc!.address)).toMatchObject({ address: acc!.address, pubkey: null, sequence: 0 });
    client.disconnect();
  });

  it('sends uhub with explicit and "auto" fees; sequences and public keys follow', async () => {
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
    const [from] = await wallet.getAccounts();
    const to = hub.devAddresses[5]!;
    const client = await SigningStargateClient.connectWithSigner(hub.urls.rpc!, wallet, {
      gasPrice: GasPrice.fromString('0.025uhub'),
      broadcastPollIntervalMs: 50,
    });
    const r = await client.sendTokens(from!.address, to, [{ denom: 'uhub', amount: '2500000' }], {
      amount: [{ denom: 'uhub', amount: '5000' }],
      gas: '200000',
    });
    expect(r.code).toBe(0);
    expect((await client.getBalance(to, 'uhub')).amount).toBe('1000002500000');
    expect((await client.getBalance(from!.address, 'uhub')).amount).toBe(String(1_000_000_000_000n - 2_500_000n - 5000n));
    const auto = await client.sendTokens(from!.address, to, [{ denom: 'uhub', amount: '1' }], 'auto');
    expect(auto.code).toBe(0);
    const account = await client.getAccount(from!.address);
    expect(account?.sequence).toBe(2);
    expect(account?.pubkey?.type).toBe('tendermint/PubKeySecp256k1');
    const poor = await client.sendTokens(from!.address, to, [{ denom: 'uhub', amount: (10n ** 20n).toString() }], {
      amount: [{ denom: 'uhub', amount: '5000' }],
      gas: '200000',
    });
    expect(poor.code).toBe(5);
    client.disconnect();
  });
});

describe('the hub chain in a network', () => {
  it('is listed by the routing API as a cosmos chain; balances, submit and status work on it', async () => {
    const { startNetwork } = await import('../../src/network/network.js');
    const { FAST_CONSENSUS, TEST_PORTS } = await import('../helpers/node.js');
    const { mergeConfig } = await import('../../src/config/defaults.js');
    const { TxRaw } = await import('cosmjs-types/cosmos/tx/v1beta1/tx');
    const network = await startNetwork({
      chains: [
        { kind: 'evm', config: mergeConfig(TEST_PORTS as never, FAST_CONSENSUS as never) as never },
        { kind: 'hub', config: { rpc: { laddr: 'tcp://127.0.0.1:0' } } },
      ],
    });
    try {
      const url = network.urls.routing!;
      const h = network.chains.find((c): c is HubChain => c.kind === 'hub')!;
      const chains = (await (await fetch(`${url}/v2/info/chains`)).json()) as { chains: { chain_id: string; chain_type: string; bech32_prefix: string }[] };
      expect(chains.chains.find((c) => c.chain_id === 'chainlethub-1')).toMatchObject({ chain_type: 'cosmos', bech32_prefix: 'hub' });
      const bal = (await (
        await fetch(`${url}/v2/info/balances`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ chains: { 'chainlethub-1': { address: h.devAddresses[1], denoms: ['uhub'] } } }),
        })
      ).json()) as any;
      expect(bal.chains['chainlethub-1'].denoms.uhub).toMatchObject({ amount: '1000000000000', decimals: 6, formatted_amount: '1000000.000000' });
      const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
      const [from] = await wallet.getAccounts();
      const client = await SigningStargateClient.connectWithSigner(h.urls.rpc!, wallet);
      const signed = await client.sign(
        from!.address,
        [
          {
            typeUrl: '/cosmos.bank.v1beta1.MsgSend',
            value: { fromAddress: from!.address, toAddress: h.devAddresses[2]!, amount: [{ denom: 'uhub', amount: '77' }] },
          },
        ],
        { amount: [{ denom: 'uhub', amount: '5000' }], gas: '200000' },
        '',
      );
      client.disconnect();
      const submit = (await (
        await fetch(`${url}/v2/tx/submit`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ chain_id: 'chainlethub-1', tx: Buffer.from(TxRaw.encode(signed).finish()).toString('base64') }),
        })
      ).json()) as { tx_hash: string };
      let state = '';
      for (let i = 0; i < 200 && state !== 'STATE_COMPLETED_SUCCESS'; i++) {
        state = ((await (await fetch(`${url}/v2/tx/status?chain_id=chainlethub-1&tx_hash=${submit.tx_hash}`)).json()) as { state: string }).state;
        if (state !== 'STATE_COMPLETED_SUCCESS') await new Promise((r) => setTimeout(r, 20));
      }
      expect(state).toBe('STATE_COMPLETED_SUCCESS');
    } finally {
      await network.stop();
    }
  });
});
