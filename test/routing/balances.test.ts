import { getContractAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signErc20Deploy, signErc20Transfer, DEV_KEY_0 } from '../../src/app/fixtures/signed-txs.js';
import { toBech32 } from '../../src/crypto/bech32.js';
import { account, CHAIN_ID, EVM_CHAIN_ID, postJson, startRoutingNode, type RoutingFixture } from './helpers.js';

const HOLDER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TOKEN = getContractAddress({ from: account.address, nonce: 0n });
const SUPPLY = 10n ** 24n;
const SENT = 123_456_789n;
const bech32Of = (hex: string) => toBech32('chainlet', Uint8Array.from(Buffer.from(hex.slice(2), 'hex')));

let f: RoutingFixture;

beforeAll(async () => {
  f = await startRoutingNode({
    consensus: { mode: 'manual' },
    // Keys are matched case-insensitively; the token is priced by its checksummed address.
    routing: { prices: { achainlet: '2.5', [TOKEN]: '0.1' } },
  });
  // Deploy the fixture ERC20 (18 decimals) and send HOLDER a few base units.
  await f.node.broadcastTx(signErc20Deploy(DEV_KEY_0, SUPPLY, { nonce: 0n }));
  await f.node.broadcastTx(signErc20Transfer(DEV_KEY_0, TOKEN.toLowerCase(), HOLDER.toLowerCase(), SENT, { nonce: 1n }));
  await f.node.mine(1);
});
afterAll(async () => {
  await f?.stop();
});

const balances = (chains: Record<string, { address: string; denoms?: string[] }>) => postJson(`${f.url}/v2/info/balances`, { chains });

describe('POST /v2/info/balances', () => {
  it('reads the native balance by 0x and by bech32 address, formatted exactly, priced from config', async () => {
    const r = await balances({ [CHAIN_ID]: { address: bech32Of(HOLDER), denoms: ['achainlet'] }, [EVM_CHAIN_ID]: { address: HOLDER, denoms: ['achainlet'] } });
    expect(r.status).toBe(200);
    const expected = { amount: '10000000000000000000000', decimals: 18, formatted_amount: '10000.000000000000000000', price: '2.5', value_usd: '25000' };
    expect(r.body).toEqual({
      chains: {
        [CHAIN_ID]: { address: bech32Of(HOLDER), denoms: { achainlet: expected } },
        [EVM_CHAIN_ID]: { address: HOLDER, denoms: { achainlet: expected } },
      },
    });
  });

  it('keeps every digit of a balance that is not round (no floating point)', async () => {
    const r = await balances({ [EVM_CHAIN_ID]: { address: account.address, denoms: ['achainlet'] } });
    const e = r.body.chains[EVM_CHAIN_ID].denoms.achainlet;
    const amount = BigInt(e.amount);
    expect(amount).toBeLessThan(10n ** 22n); // paid gas for two txs
    const s = amount.toString().padStart(19, '0');
    expect(e.formatted_amount).toBe(`${s.slice(0, -18)}.${s.slice(-18)}`);
    // value_usd = amount × 2.5 / 10^18, exact.
    const v = (amount * 25n).toString().padStart(20, '0');
    expect(e.value_usd).toBe(`${v.slice(0, -19)}.${v.slice(-19)}`.replace(/\.?0+$/, ''));
  });

  it('reads ERC20 balances through the EVM (balanceOf, decimals)', async () => {
    const r = await balances({
      [EVM_CHAIN_ID]: { address: HOLDER, denoms: [TOKEN] },
      [CHAIN_ID]: { address: account.address, denoms: [`erc20/${TOKEN.toLowerCase()}`] },
    });
    expect(r.status).toBe(200);
    expect(r.body.chains[EVM_CHAIN_ID].denoms[TOKEN]).toEqual({
      amount: '123456789',
      decimals: 18,
      formatted_amount: '0.000000000123456789',
      price: '0.1',
      value_usd: '0.0000000000123456789',
    });
    expect(r.body.chains[CHAIN_ID].denoms[`erc20/${TOKEN.toLowerCase()}`]).toMatchObject({
      amount: (SUPPLY - SENT).toString(),
      formatted_amount: '999999.999999999876543211',
    });
  });

  it('prices a denom whose configured price is empty (or absent) at "0"', async () => {
    const f2 = await startRoutingNode({ routing: { prices: { achainlet: '' } } });
    try {
      const r = await postJson(`${f2.url}/v2/info/balances`, { chains: { [EVM_CHAIN_ID]: { address: HOLDER, denoms: ['achainlet'] } } });
      expect(r.body.chains[EVM_CHAIN_ID].denoms.achainlet).toMatchObject({ price: '0', value_usd: '0' });
    } finally {
      await f2.stop();
    }
  });

  it('reports CW20, unknown denoms and non-contracts per denom', async () => {
    const notContract = '0x1111111111111111111111111111111111111111';
    const r = await balances({ [CHAIN_ID]: { address: HOLDER, denoms: ['cw20:chainlet1xyz', 'uatom', notContract] } });
    expect(r.status).toBe(200);
    const d = r.body.chains[CHAIN_ID].denoms;
    expect(d['cw20:chainlet1xyz']).toEqual({ amount: '0', formatted_amount: '0', error: { message: 'CW20 assets are not supported by /v2/info/balances' } });
    expect(d.uatom.error.message).toBe(`unknown denom "uatom" on chain ${CHAIN_ID}: use "achainlet" or an ERC20 contract address`);
    expect(d[notContract].error.message).toBe(`no contract at ${notContract}`);
  });

  it('defaults to the native denom when no denoms are given (`<chain>-native` on the EVM face, as Skip names it)', async () => {
    const r = await balances({ [EVM_CHAIN_ID]: { address: HOLDER } });
    expect(Object.keys(r.body.chains[EVM_CHAIN_ID].denoms)).toEqual(['chainlet-native']);
  });

  it('answers `chain ID not supported` (404, code 5) for an unknown chain', async () => {
    const r = await balances({ 'osmosis-1': { address: HOLDER, denoms: ['uosmo'] } });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 5, message: 'chain ID not supported', details: [] });
  });

  it('rejects malformed requests with code 3', async () => {
    const badAddr = await balances({ [CHAIN_ID]: { address: 'cosmos1qyqszqgpqyqszqgpqyqszqgpqyqszqgpjnp7du', denoms: ['achainlet'] } });
    expect(badAddr.status).toBe(400);
    expect(badAddr.body.code).toBe(3);
    expect(badAddr.body.message).toContain('expected 0x hex or bech32 with prefix "chainlet"');
    const noChains = await postJson(`${f.url}/v2/info/balances`, {});
    expect(noChains.body).toEqual({ code: 3, message: 'chains must name at least one chain', details: [] });
    const notJson = await fetch(`${f.url}/v2/info/balances`, { method: 'POST', body: '{"chains":' });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { message: string }).message).toMatch(/^request body is not valid JSON/);
  });
});
