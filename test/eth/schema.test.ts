/**
 * Results of the core methods validated against the result schemas of the execution-apis
 * OpenRPC document (spec/ethereum-execution-apis-openrpc.json), on a chain with a contract
 * deployment, an ERC20 transfer (logs), a revert, and txs of types 0, 1 and 2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { erc20DeployData, erc20TransferData } from '../../src/app/fixtures/erc20.js';
import { call, DEV, hex, startEthTestNode, waitFor, type EthTestNode } from './helpers.js';
import { resultSchema, SPEC_PATH, validate } from './json-schema.js';

let t: EthTestNode;
let token: string;
const hashes: Record<string, string> = {};
const from = DEV[0]!.address.toLowerCase();

async function mined(hash: string): Promise<Record<string, string>> {
  return waitFor(() => call<Record<string, string> | null>(t.url, 'eth_getTransactionReceipt', [hash]));
}

beforeAll(async () => {
  t = await startEthTestNode();
  hashes['deploy'] = await call<string>(t.url, 'eth_sendTransaction', [{ from, data: hex(erc20DeployData(10n ** 24n)) }]);
  token = (await mined(hashes['deploy']!))['contractAddress']!;
  hashes['transfer'] = await call<string>(t.url, 'eth_sendTransaction', [{ from, to: token, input: hex(erc20TransferData(DEV[1]!.address, 5n)) }]);
  await mined(hashes['transfer']!);
  hashes['revert'] = await call<string>(t.url, 'eth_sendTransaction', [
    { from, to: token, gas: '0x20000', input: hex(erc20TransferData(DEV[1]!.address, 10n ** 30n)) },
  ]);
  await mined(hashes['revert']!);
  // Types 0 and 1, signed by viem.
  const acct = privateKeyToAccount(DEV[4]!.privateKey as Hex);
  for (const [name, extra] of [
    ['legacy', { type: 'legacy', gasPrice: 10n ** 10n }],
    ['eip2930', { type: 'eip2930', gasPrice: 10n ** 10n, accessList: [{ address: token as Hex, storageKeys: [`0x${'00'.repeat(32)}` as Hex] }] }],
  ] as const) {
    const nonce = Number(await call<string>(t.url, 'eth_getTransactionCount', [acct.address, 'pending']));
    const raw = await acct.signTransaction({ chainId: 9000, nonce, to: DEV[9]!.address as Hex, value: 1n, gas: 30_000n, ...extra } as never);
    hashes[name] = await call<string>(t.url, 'eth_sendRawTransaction', [raw]);
    await mined(hashes[name]!);
  }
});

afterAll(async () => {
  await t?.stop();
});

async function expectValid(method: string, params: unknown[]): Promise<unknown> {
  const result = await call(t.url, method, params);
  expect(validate(resultSchema(method), result), `${method} ${JSON.stringify(params)}`).toEqual([]);
  return result;
}

describe.skipIf(SPEC_PATH === undefined)('results match the execution-apis OpenRPC schemas', () => {
  it('blocks (hashes and full txs), headers by tag, number and hash', async () => {
    const latest = (await expectValid('eth_getBlockByNumber', ['latest', true])) as { hash: string; transactions: unknown[] };
    expect(latest.transactions.length).toBeGreaterThan(0);
    for (const n of ['0x0', '0x1', '0x2', 'earliest', 'finalized', 'safe', 'pending']) await expectValid('eth_getBlockByNumber', [n, false]);
    for (let h = 1; h <= 5; h++) await expectValid('eth_getBlockByNumber', [`0x${h.toString(16)}`, true]);
    await expectValid('eth_getBlockByHash', [latest.hash, false]);
    await expectValid('eth_getBlockByHash', [latest.hash, true]);
    expect(await call(t.url, 'eth_getBlockByNumber', ['0xffff', false])).toBeNull();
    await expectValid('eth_getBlockTransactionCountByNumber', ['latest']);
    await expectValid('eth_getBlockTransactionCountByHash', [latest.hash]);
  });

  it('transactions and receipts of every type, success and revert', async () => {
    for (const [name, hash] of Object.entries(hashes)) {
      const tx = (await expectValid('eth_getTransactionByHash', [hash])) as { blockHash: string; transactionIndex: string; type: string };
      const receipt = (await expectValid('eth_getTransactionReceipt', [hash])) as { status: string; blockHash: string; type: string };
      expect(receipt.blockHash, name).toBe(tx.blockHash);
      expect(receipt.type, name).toBe(tx.type);
      if (name === 'revert') expect(receipt.status).toBe('0x0');
      await expectValid('eth_getTransactionByBlockHashAndIndex', [tx.blockHash, tx.transactionIndex]);
    }
    expect(((await call(t.url, 'eth_getTransactionByHash', [hashes['legacy']])) as { type: string }).type).toBe('0x0');
    expect(((await call(t.url, 'eth_getTransactionByHash', [hashes['eip2930']])) as { type: string }).type).toBe('0x1');
    const block = (await call(t.url, 'eth_getTransactionReceipt', [hashes['transfer']])) as { blockNumber: string };
    await expectValid('eth_getBlockReceipts', [block.blockNumber]);
    await expectValid('eth_getTransactionByBlockNumberAndIndex', [block.blockNumber, '0x0']);
  });

  it('logs, filters and fee history', async () => {
    const logs = (await expectValid('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: token }])) as unknown[];
    expect(logs.length).toBe(2);
    const id = await expectValid('eth_newFilter', [{ fromBlock: '0x0', address: token }]);
    const blocks = await expectValid('eth_newBlockFilter', []);
    const pending = await expectValid('eth_newPendingTransactionFilter', []);
    await expectValid('eth_getFilterLogs', [id]);
    // Something for each filter to report (an empty array would fit every oneOf branch).
    await mined(await call<string>(t.url, 'eth_sendTransaction', [{ from, to: token, input: hex(erc20TransferData(DEV[3]!.address, 1n)) }]));
    for (const f of [id, blocks, pending]) expect(((await expectValid('eth_getFilterChanges', [f])) as unknown[]).length).toBeGreaterThan(0);
    await expectValid('eth_uninstallFilter', [id]);
    await expectValid('eth_feeHistory', ['0x4', 'latest', [10, 50, 90]]);
    await expectValid('eth_feeHistory', [2, 'latest', []]);
  });

  it('state, calls, estimates, access lists, proofs and simulation', async () => {
    for (const block of ['latest', 'earliest', '0x1', { blockNumber: '0x2' }]) {
      await expectValid('eth_getBalance', [from, block]);
      await expectValid('eth_getTransactionCount', [from, block]);
      await expectValid('eth_getCode', [token, block === 'earliest' ? 'latest' : block]);
      await expectValid('eth_getStorageAt', [token, '0x0', block]);
    }
    const input = hex(erc20TransferData(DEV[2]!.address, 1n));
    await expectValid('eth_call', [{ from, to: token, input }, 'latest']);
    await expectValid('eth_estimateGas', [{ from, to: token, input }]);
    const al = (await expectValid('eth_createAccessList', [{ from, to: token, input }, 'latest'])) as { accessList: { address: string }[] };
    expect(al.accessList.map((e) => e.address)).toContain(token.toLowerCase());
    await expectValid('eth_getProof', [token, ['0x0', '0x1'], 'latest']);
    await expectValid('eth_simulateV1', [
      {
        blockStateCalls: [
          {
            calls: [
              { from, to: token, input },
              { from, to: DEV[3]!.address, value: '0x1' },
            ],
          },
        ],
      },
      'latest',
    ]);
  });

  it('node and fee basics', async () => {
    for (const m of ['eth_chainId', 'eth_blockNumber', 'eth_gasPrice', 'eth_maxPriorityFeePerGas', 'eth_syncing', 'eth_accounts', 'net_version']) {
      await expectValid(m, []);
    }
  });
});
