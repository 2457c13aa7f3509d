/**
 * ERC20s in /v2/fungible/assets on the EVM face: one registered in `[routing] erc20-tokens` (a
 * genesis contract that never emitted a Transfer), one seen on chain (deployed and transferred,
 * not registered), with decimals, symbol and name read through the EVM; a registered address
 * without code yet is accepted and not listed; a registered contract that is no ERC20, or a
 * value that is no address, fails the start with one clear line.
 */
import { Address } from '@ethereumjs/util';
import { getAddress, getContractAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvmReceipt } from '../../src/app/views/evm-view.js';
import { ERC20_BYTECODE } from '../../src/app/fixtures/erc20.js';
import { DEV_KEY_0, signErc20Deploy, signErc20Transfer, signTx } from '../../src/app/fixtures/signed-txs.js';
import { toHex } from '../../src/crypto/encoding.js';
import type { ChainletNode } from '../../src/node/node.js';
import { decodeErc20String, ERC20_TRANSFER_TOPIC, isErc20TransferLog } from '../../src/rpc/routing/erc20-read.js';
import { Erc20Tokens, MAX_SEEN_ERC20 } from '../../src/rpc/routing/erc20-tokens.js';
import { startTestNode } from '../helpers/node.js';
import { account, EVM_CHAIN_ID, getJson, postJson } from './helpers.js';

const HOLDER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
/** Deployed by dev account 0 at nonce 0, then transferred: "seen". */
const SEEN = getContractAddress({ from: account.address, nonce: 0n });
/** In the genesis, registered in the config, never moved: listed only because it is registered. */
const REGISTERED = '0x00000000000000000000000000000000000E2C20';
/** Registered but nothing there (yet): accepted at start, not listed. */
const EMPTY = '0x00000000000000000000000000000000000E2C21';

/**
 * The fixture token's runtime code (its creation code returns bytes 0x9c… of itself), with two
 * same-length patches so it is told apart from the deployed one: `decimals` 18 → 6
 * (PUSH1 0x12 → PUSH1 0x06) and `symbol` "CTT" → "USD" (the constant is PUSH3 x, SHL 234).
 */
function registeredTokenCode(): string {
  const runtime = ERC20_BYTECODE.slice(0x9c * 2);
  const patched = runtime.replace('6101306012', '6101306006').replace('6210d51560ea1b', `62${(0x555344 / 4).toString(16)}60ea1b`);
  expect(patched).not.toBe(runtime);
  return `0x${patched}`;
}

/**
 * Creation code that emits an ERC20-shaped Transfer log (3 topics, 32 bytes of data) and leaves
 * the one-byte code STOP behind: seen on chain, but `decimals()` answers nothing.
 */
const FAKE_TRANSFER_EMITTER = `0x60055f52600260017f${toHex(ERC20_TRANSFER_TOPIC)}60205fa360015ff3`;

let node: ChainletNode;
let url: string;

beforeAll(async () => {
  node = await startTestNode({
    config: { consensus: { mode: 'manual' }, routing: { rateLimitPerSecond: 10_000, rateLimitBurst: 10_000, erc20Tokens: [REGISTERED.toLowerCase(), EMPTY] } },
    devnet: { extraAlloc: { [REGISTERED]: { code: registeredTokenCode() } } },
  });
  url = node.urls.routing!;
  await node.broadcastTx(signErc20Deploy(DEV_KEY_0, 10n ** 24n, { nonce: 0n }));
  await node.broadcastTx(signErc20Transfer(DEV_KEY_0, SEEN.toLowerCase(), HOLDER.toLowerCase(), 5n, { nonce: 1n }));
  await node.broadcastTx(signTx(DEV_KEY_0, { data: Uint8Array.from(Buffer.from(FAKE_TRANSFER_EMITTER.slice(2), 'hex')) }, { nonce: 2n, gasLimit: 200_000n }));
  await node.mine(1);
});
afterAll(async () => {
  await node?.stop();
});

const evmAssets = async (): Promise<any[]> => {
  const r = await getJson(`${url}/v2/fungible/assets?include_evm_assets=true&chain_ids=${EVM_CHAIN_ID}`);
  expect(r.status).toBe(200);
  return r.body.chain_to_assets_map[EVM_CHAIN_ID].assets;
};

describe('ERC20s in /v2/fungible/assets', () => {
  it('lists the registered token and the one seen on chain under the EVM chain id, as Skip lists EVM tokens', async () => {
    // The fake emitter's log was seen, but it answers no decimals(): left out. EMPTY has no code.
    const fake = getContractAddress({ from: account.address, nonce: 2n });
    expect((await node.internals.app.evm.getReceipts(node.height)).flatMap((r) => r.logs.map((l) => l.address.toString()))).toContain(fake.toLowerCase());
    const assets = await evmAssets();
    expect(assets.map((a) => a.denom)).toEqual(['chainlet-native', getAddress(REGISTERED), getAddress(SEEN)]);
    const token = (address: string, symbol: string, decimals: number) => ({
      denom: getAddress(address),
      chain_id: EVM_CHAIN_ID,
      origin_denom: getAddress(address),
      origin_chain_id: EVM_CHAIN_ID,
      trace: '',
      is_cw20: false,
      is_evm: true,
      is_svm: false,
      symbol,
      name: 'Chainlet Test Token',
      logo_uri: null,
      decimals,
      token_contract: getAddress(address),
      description: null,
      coingecko_id: null,
      recommended_symbol: symbol,
    });
    expect(assets[1]).toEqual(token(REGISTERED, 'USD', 6));
    expect(assets[2]).toEqual(token(SEEN, 'CTT', 18));
  });

  it('keeps them off the Cosmos face and off the list without include_evm_assets', async () => {
    const r = await getJson(`${url}/v2/fungible/assets`);
    expect(Object.keys(r.body.chain_to_assets_map)).not.toContain(EVM_CHAIN_ID);
    for (const list of Object.values(r.body.chain_to_assets_map) as { assets: { token_contract: string | null }[] }[]) {
      expect(list.assets.filter((a) => a.token_contract !== null)).toEqual([]);
    }
  });

  it('finds a token by its address in any case, and its denom reads a balance', async () => {
    const r = await postJson(`${url}/v2/fungible/ibc_origin_assets`, { assets: [{ denom: SEEN.toLowerCase(), chain_id: EVM_CHAIN_ID }] });
    expect(r.body.origin_assets[0]).toMatchObject({ asset_found: true, asset: { denom: getAddress(SEEN), symbol: 'CTT' } });
    const b = await postJson(`${url}/v2/info/balances`, { chains: { [EVM_CHAIN_ID]: { address: HOLDER, denoms: [getAddress(SEEN)] } } });
    expect(b.body.chains[EVM_CHAIN_ID].denoms[getAddress(SEEN)]).toMatchObject({ amount: '5', decimals: 18 });
  });
});

describe('Transfer logs the adapter remembers', () => {
  const log = (address: string, topics: Uint8Array[], data: Uint8Array) => ({
    address: new Address(Uint8Array.from(Buffer.from(address.slice(2), 'hex'))),
    topics,
    data,
    logIndex: 0,
    transactionIndex: 0,
  });
  const word = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? n : 0));
  const receipts = (logs: ReturnType<typeof log>[]) => [{ logs }] as unknown as EvmReceipt[];

  it('is an ERC20 Transfer only with 3 topics and 32 bytes of data (not ERC721, not another event)', () => {
    expect(isErc20TransferLog([ERC20_TRANSFER_TOPIC, word(1), word(2)], word(5))).toBe(true);
    expect(isErc20TransferLog([ERC20_TRANSFER_TOPIC, word(1), word(2), word(3)], new Uint8Array(0))).toBe(false);
    expect(isErc20TransferLog([word(9), word(1), word(2)], word(5))).toBe(false);
    expect(isErc20TransferLog([ERC20_TRANSFER_TOPIC, word(1), word(2)], new Uint8Array(64))).toBe(false);
  });

  it('reads a symbol returned as an ABI string or as a NUL-padded bytes32 (early tokens)', () => {
    const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
    const abi = hex('20'.padStart(64, '0') + '3'.padStart(64, '0') + Buffer.from('CTT').toString('hex').padEnd(64, '0'));
    expect(decodeErc20String(abi)).toBe('CTT');
    expect(decodeErc20String(hex(Buffer.from('MKR').toString('hex').padEnd(64, '0')))).toBe('MKR');
    expect(decodeErc20String(new Uint8Array(32))).toBeUndefined();
    expect(decodeErc20String(hex('20'.padStart(64, '0') + 'ff'.padStart(64, '0')))).toBeUndefined();
  });

  it(`keeps at most ${MAX_SEEN_ERC20} contracts`, () => {
    const t = new Erc20Tokens([], undefined as never, async () => undefined as never);
    const addr = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;
    t.observe(receipts([log(addr(1), [word(9), word(1), word(2)], word(5))]));
    expect(t.seenCount).toBe(0);
    for (let i = 1; i <= MAX_SEEN_ERC20 + 5; i++) t.observe(receipts([log(addr(i), [ERC20_TRANSFER_TOPIC, word(1), word(2)], word(5))]));
    expect(t.seenCount).toBe(MAX_SEEN_ERC20);
  });
});

describe('[routing] erc20-tokens at start', () => {
  it('refuses a registered contract that is not an ERC20, naming it and the key', async () => {
    const bad = '0x00000000000000000000000000000000000BAD00';
    await expect(
      startTestNode({
        config: { routing: { erc20Tokens: [bad] } },
        devnet: { extraAlloc: { [bad]: { code: '0x00' } } },
      }),
    ).rejects.toThrow(
      `[routing] erc20-tokens: ${getAddress(bad)} is not an ERC20 contract: ${bad.toLowerCase()} is not an ERC20 contract (decimals returned 0 bytes)`,
    );
  });

  it('refuses a value that is not an address', async () => {
    await expect(startTestNode({ config: { routing: { erc20Tokens: ['0x1234'] } } })).rejects.toThrow(
      '[routing] erc20-tokens: "0x1234" is not a contract address (0x and 40 hex digits)',
    );
  });
});
