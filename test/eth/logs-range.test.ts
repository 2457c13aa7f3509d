/**
 * eth_getLogs over a range scans the blocks' stored blooms and decodes only the blocks whose bloom
 * passes: the answer must be what asking block by block gives, across blocks without logs and a
 * range of empty blocks mined at once (hardhat_mine), which have no stored record.
 */
import { createAddressFromString, createContractAddress } from '@ethereumjs/util';
import { bytesToHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, DEV_KEY_0, signErc20Deploy, signErc20Transfer, signEthTransfer } from '../../src/app/fixtures/signed-txs.js';
import { call, startEthTestNode, waitFor, type EthTestNode } from './helpers.js';

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

interface Log {
  blockNumber: string;
  blockHash: string;
  logIndex: string;
  transactionHash: string;
  address: string;
  topics: string[];
}

let t: EthTestNode;
let token: string;
beforeAll(async () => {
  t = await startEthTestNode();
  let nonce = BigInt(await call<string>(t.url, 'eth_getTransactionCount', [DEV_ADDRESS_0, 'latest']));
  const send = async (raw: Uint8Array) => {
    const hash = await call<string>(t.url, 'eth_sendRawTransaction', [bytesToHex(raw)]);
    await waitFor(() => call(t.url, 'eth_getTransactionReceipt', [hash]));
  };
  token = createContractAddress(createAddressFromString(DEV_ADDRESS_0), nonce).toString();
  await send(signErc20Deploy(DEV_KEY_0, 10n ** 24n, { nonce: nonce++ }));
  for (let i = 0; i < 3; i++) await send(signErc20Transfer(DEV_KEY_0, token, DEV_ADDRESS_1, 1n, { nonce: nonce++ }));
  await send(signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1n, { nonce: nonce++ })); // a block without logs
  await call(t.url, 'hardhat_mine', ['0x64']); // 100 empty blocks, stored as one range
  for (let i = 0; i < 2; i++) await send(signErc20Transfer(DEV_KEY_0, token, DEV_ADDRESS_1, 2n, { nonce: nonce++ }));
});
afterAll(async () => {
  await t?.stop();
});

describe('eth_getLogs over a range', () => {
  it('answers what asking block by block answers, in order', async () => {
    const latest = Number(await call<string>(t.url, 'eth_blockNumber'));
    const whole = await call<Log[]>(t.url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]);
    const byBlock: Log[] = [];
    for (let h = 1; h <= latest; h++) {
      const block = await call<{ hash: string } | null>(t.url, 'eth_getBlockByNumber', [`0x${h.toString(16)}`, false]);
      byBlock.push(...(await call<Log[]>(t.url, 'eth_getLogs', [{ blockHash: block!.hash }])));
    }
    // The deploy mints (a Transfer from zero), then 3 + 2 transfers.
    expect(whole).toHaveLength(6);
    expect(whole).toEqual(byBlock);
    expect(whole.map((l) => Number(l.blockNumber))).toEqual([...whole.map((l) => Number(l.blockNumber))].sort((a, b) => a - b));
    expect(Number(whole.at(-1)!.blockNumber)).toBeGreaterThan(100);
  });

  it('filters by address and topic, and a range of empty blocks alone has no logs', async () => {
    const latest = Number(await call<string>(t.url, 'eth_blockNumber'));
    expect(await call<Log[]>(t.url, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: 'latest', address: token, topics: [TRANSFER] }])).toHaveLength(6);
    expect(await call<Log[]>(t.url, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: 'latest', address: DEV_ADDRESS_1 }])).toEqual([]);
    expect(await call<Log[]>(t.url, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: 'latest', topics: [`0x${'00'.repeat(32)}`] }])).toEqual([]);
    const rangeFrom = latest - 101; // inside the hardhat_mine range
    expect(await call<Log[]>(t.url, 'eth_getLogs', [{ fromBlock: `0x${rangeFrom.toString(16)}`, toBlock: `0x${(rangeFrom + 50).toString(16)}` }])).toEqual([]);
    // Past the head: clipped, as before.
    expect(await call<Log[]>(t.url, 'eth_getLogs', [{ fromBlock: `0x${latest.toString(16)}`, toBlock: `0x${(latest + 5).toString(16)}` }])).toHaveLength(1);
  });
});
