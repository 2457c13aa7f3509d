/**
 * eth_call and eth_estimateGas at `pending` (the default of estimates) run in the next block's
 * environment: number + 1, the timestamp the producer will use (evm_setNextBlockTimestamp and
 * time offsets included), its base fee, coinbase and gas limit. A contract whose gas depends on
 * block.timestamp must get an estimate that is exactly enough when the tx is mined.
 */
import { concatHex, createTestClient, hexToBigInt, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account0, httpClients, startEthTestNode, type Clients, type EthTestNode } from './helpers.js';

// Runtime: if (TIMESTAMP != sload(0)) sstore(0, TIMESTAMP) — an update that runs only when time moved
// (as Uniswap V2's cumulative price update).
const RUNTIME = '0x4260005414600c57426000555b00' as Hex;
// Constructor: sstore(0, TIMESTAMP), then return the runtime.
const INIT = concatHex(['0x42600055600e80600f6000396000f3', RUNTIME]);
// Runtime returning abi.encode(TIMESTAMP, NUMBER, BASEFEE, COINBASE, GASLIMIT), put at PROBE by a state override.
const ENV_PROBE = '0x426000524360205248604052416060524560805260a06000f3' as Hex;
const PROBE = '0x00000000000000000000000000000000000e4b0e' as Hex;
const probe = (blockTag: 'pending' | 'latest') => c.public.call({ to: PROBE, stateOverride: [{ address: PROBE, code: ENV_PROBE }], blockTag });

let t: EthTestNode;
let c: Clients;
let testClient: ReturnType<typeof createTestClient>;
let contract: Hex;

beforeAll(async () => {
  t = await startEthTestNode();
  c = httpClients(t.url);
  testClient = createTestClient({ mode: 'anvil', transport: (await import('viem')).http(t.url) });
  const hash = await c.wallet.sendTransaction({ data: INIT, gas: 200_000n });
  contract = (await c.public.waitForTransactionReceipt({ hash })).contractAddress!;
});
afterAll(async () => {
  await t?.stop();
});

const word = (ret: Hex, i: number) => hexToBigInt(`0x${ret.slice(2 + 64 * i, 2 + 64 * (i + 1))}`);

describe('the pending block context', () => {
  it('eth_call at pending sees the next block: number + 1 and the timestamp set for it', async () => {
    const latest = await c.public.getBlock();
    const next = latest.timestamp + 1000n;
    await testClient.setNextBlockTimestamp({ timestamp: next });
    const { data: ret } = await probe('pending');
    expect(word(ret!, 0)).toBe(next);
    expect(word(ret!, 1)).toBe(latest.number + 1n);
    const { data: atLatest } = await probe('latest');
    expect(word(atLatest!, 0)).toBe(latest.timestamp);
    expect(word(atLatest!, 1)).toBe(latest.number);
    // The block that comes next has exactly what pending showed.
    await testClient.mine({ blocks: 1 });
    const mined = await c.public.getBlock();
    expect(mined.number).toBe(word(ret!, 1));
    expect(mined.timestamp).toBe(word(ret!, 0));
    expect(mined.baseFeePerGas).toBe(word(ret!, 2));
    expect(mined.miner.toLowerCase()).toBe(`0x${word(ret!, 3).toString(16).padStart(40, '0')}`);
    expect(mined.gasLimit).toBe(word(ret!, 4));
  });

  it('eth_call at pending follows evm_increaseTime', async () => {
    const latest = await c.public.getBlock();
    const before = BigInt(Math.floor(Date.now() / 1000));
    await testClient.increaseTime({ seconds: 3600 });
    const { data: ret } = await probe('pending');
    expect(word(ret!, 0)).toBeGreaterThanOrEqual(before + 3600n);
    expect(word(ret!, 0)).toBeGreaterThan(latest.timestamp);
  });

  it('an estimate whose gas depends on block.timestamp is exact for the block that mines it', async () => {
    const latest = await c.public.getBlock();
    await testClient.setNextBlockTimestamp({ timestamp: latest.timestamp + 10n });
    // At `latest` the stored timestamp equals block.timestamp only for the deploy block; the next block's time moved.
    const gas = await c.public.estimateGas({ account: account0, to: contract });
    const gasAtLatestEnv = await c.public.estimateGas({ account: account0, to: contract, blockTag: 'latest' });
    expect(gas).toBeGreaterThan(21_000n + 5_000n);
    expect(gas).toBeGreaterThanOrEqual(gasAtLatestEnv);

    // estimate − 1 runs out of gas in the next block…
    const low = await c.wallet.sendTransaction({ to: contract, gas: gas - 1n });
    expect((await c.public.waitForTransactionReceipt({ hash: low })).status).toBe('reverted');
    // …and the estimate itself is enough (same rule for the block after).
    const next = await c.public.getBlock();
    await testClient.setNextBlockTimestamp({ timestamp: next.timestamp + 10n });
    const gas2 = await c.public.estimateGas({ account: account0, to: contract });
    const ok = await c.wallet.sendTransaction({ to: contract, gas: gas2 });
    const receipt = await c.public.waitForTransactionReceipt({ hash: ok });
    expect(receipt.status).toBe('success');
    expect(receipt.gasUsed).toBe(gas2);
  });
});
