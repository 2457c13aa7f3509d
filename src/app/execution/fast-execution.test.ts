/**
 * The block executor's shortcuts must leave exactly what ethereumjs leaves: plain transfers applied
 * without the EVM call frame (plain-transfer.ts) and contract code on the faster interpreter loop
 * (interpreter/fast-evm.ts) give the same results (codes, logs, data, events), receipts and state
 * root, block by block. Each case runs on two chains from one genesis, one with
 * `referenceExecution: true`.
 */
import { describe, expect, it } from 'vitest';
import { createCustomCommon, Mainnet } from '@ethereumjs/common';
import { createTx } from '@ethereumjs/tx';
import { Address, createContractAddress } from '@ethereumjs/util';
import type { ResponseFinalizeBlock } from '../../abci/types.js';
import { erc20TransferData } from '../fixtures/erc20.js';
import { fastLoopStats } from '../interpreter/fast-loop.js';
import {
  addressOfKey,
  keyBytes,
  signErc20Transfer,
  signEthTransfer,
  signErc20Deploy,
  signTx,
  throwawayKeys,
  type AllocJson,
  type TxOpts,
} from '../fixtures/signed-txs.js';
import { attrOf, startTestChain, type TestChain } from '../fixtures/test-chain.js';

const [A, B, C, EMPTY_KEY] = throwawayKeys(4, 'plain-transfer-test');
const ADDR_A = addressOfKey(A!);
const ADDR_B = addressOfKey(B!);
const ADDR_C = addressOfKey(C!);
const ADDR_EMPTY = addressOfKey(EMPTY_KEY!);
const FRESH = '0x00000000000000000000000000000000000f0e51';
const FRESH_2 = '0x00000000000000000000000000000000000f0e52';
const CONTRACT = '0x000000000000000000000000000000000000c0de';
const DELEGATED = '0x0000000000000000000000000000000000de1e6a';
const ZERO_ACCOUNT = '0x0000000000000000000000000000000000000e00';
const KITCHEN = '0x000000000000000000000000000000000000417c';
const REVERTER = '0x00000000000000000000000000000000000000fd';
// A loop of ten JUMPs, SSTORE, SLOAD, MSTORE, LOG2, a CALL to CONTRACT, RETURN of 32 bytes.
const KITCHEN_CODE = `0x600a5b600190038060025750602a6001556001546000526007600860206000a2600060006000600060007300${CONTRACT.slice(4)}5af15060206000f3`;
const ETHER = 10n ** 18n;

const alloc: AllocJson = {
  [ADDR_A]: { balance: (100n * ETHER).toString() },
  [ADDR_B]: { balance: (100n * ETHER).toString() },
  [ADDR_C]: { balance: (100n * ETHER).toString(), code: '0x00' }, // an account with code cannot send (EIP-3607)
  [CONTRACT]: { balance: '0', code: '0x600160005500' }, // SSTORE(0, 1)
  [DELEGATED]: { balance: '5', code: `0xef0100${CONTRACT.slice(2)}` }, // EIP-7702 delegation
  [ZERO_ACCOUNT]: { balance: '0' }, // an empty account: EIP-161 deletes it once touched
  [KITCHEN]: { balance: '0', code: KITCHEN_CODE },
  [REVERTER]: { balance: '0', code: '0x60006000fd' },
};

const common = createCustomCommon({ chainId: 9000 }, Mainnet, { hardfork: 'prague' });

function withAccessList(key: Uint8Array, to: string, nonce: bigint): Uint8Array {
  return createTx(
    {
      type: 1,
      chainId: 9000n,
      nonce,
      gasLimit: 30_000n,
      gasPrice: 10_000_000_000n,
      to: new Address(Buffer.from(to.slice(2), 'hex')),
      value: 1n,
      accessList: [{ address: CONTRACT, storageKeys: [] }],
    },
    { common },
  )
    .sign(keyBytes(key))
    .serialize();
}

function send(key: Uint8Array, to: string, value: bigint, opts: TxOpts): Uint8Array {
  return signEthTransfer(key, to, value, opts);
}

/** Runs `blocks` on both chains; every result and every app hash must match. */
async function sameOnBoth(blocks: { txs: Uint8Array[]; proposer?: Uint8Array }[]): Promise<ResponseFinalizeBlock[]> {
  const plain = await startTestChain({ alloc });
  const reference = await startTestChain({ alloc, referenceExecution: true });
  const out: ResponseFinalizeBlock[] = [];
  for (const b of blocks) {
    const got = await plain.block(b.txs, { proposer: b.proposer });
    const want = await reference.block(b.txs, { proposer: b.proposer });
    expect(got.txResults).toEqual(want.txResults);
    expect(Buffer.from(got.appHash).toString('hex')).toBe(Buffer.from(want.appHash).toString('hex'));
    expect(await receiptsOf(plain)).toEqual(await receiptsOf(reference));
    out.push(got);
  }
  for (const c of [plain, reference]) await c.app.close();
  return out;
}

async function receiptsOf(chain: TestChain): Promise<unknown> {
  const block = await chain.app.evm.getBlock(chain.height);
  return { receiptsRoot: block?.receiptsRoot, stateRoot: block?.stateRoot, gasUsed: block?.gasUsed, bloom: block?.logsBloom };
}

const addrBytes = (a: string) => new Uint8Array(Buffer.from(a.slice(2), 'hex'));
/** A tx's EVM outcome and its number of logs. */
const outcome = (t: ResponseFinalizeBlock['txResults'][number]) => [
  attrOf(t.events, 'ethereum_tx', 'ethereumTxFailed') ?? 'ok',
  t.events.filter((e) => e.type === 'tx_log').length,
];

describe('plain transfers beside runTx', () => {
  it('match runTx for transfers of every tx type, to existing and fresh accounts, with refunds and tips', async () => {
    const res = await sameOnBoth([
      {
        txs: [
          send(A!, ADDR_B, 1000n, { nonce: 0n }),
          send(A!, FRESH, 7n, { nonce: 1n, type: 0 }),
          send(A!, FRESH, 9n, { nonce: 2n, type: 1 }),
          send(A!, ADDR_B, 0n, { nonce: 3n, gasLimit: 100_000n }), // unused gas refunded
          send(B!, ADDR_A, ETHER, { nonce: 0n, maxPriorityFeePerGas: 0n }), // no tip: the coinbase untouched
          send(B!, ADDR_A, 1n, { nonce: 1n, maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 3_000_000_000n }), // tip capped by the fee
        ],
      },
      { txs: [send(A!, ADDR_B, 1n, { nonce: 4n }), send(B!, FRESH, 2n, { nonce: 2n })] },
    ]);
    expect(res.flatMap((r) => r.txResults.map((t) => t.code))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('leave to runTx what is not a plain transfer, with the same results', async () => {
    const res = await sameOnBoth([
      {
        txs: [
          send(A!, ADDR_A, 5n, { nonce: 0n }), // to itself
          send(A!, CONTRACT, 1n, { nonce: 1n, gasLimit: 50_000n }), // to code
          send(A!, DELEGATED, 1n, { nonce: 2n, gasLimit: 50_000n }), // to a 7702 delegation
          send(A!, '0x0000000000000000000000000000000000000004', 1n, { nonce: 3n, gasLimit: 30_000n }), // a precompile (identity)
          send(A!, '0x0000000000000000000000000000000000000001', 1n, { nonce: 4n }), // ecrecover: out of gas
          send(A!, FRESH_2, 0n, { nonce: 5n }), // zero value to a fresh account (EIP-161: not created)
          send(A!, ZERO_ACCOUNT, 0n, { nonce: 6n }), // zero value to an empty account (EIP-161: deleted)
          withAccessList(A!, ADDR_B, 7n),
          signErc20Deploy(A!, 1000n, { nonce: 8n }),
          signTx(A!, { to: ADDR_B, value: 1n, data: new TextEncoder().encode('calldata to an account') }, { nonce: 9n, gasLimit: 50_000n }), // EIP-7623 floor
        ],
      },
    ]);
    expect(res[0]!.txResults.map((t) => t.code)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('reject what runTx rejects, with the same codes and logs', async () => {
    const res = await sameOnBoth([
      {
        txs: [
          send(A!, ADDR_B, 1n, { nonce: 5n }), // nonce too high
          send(A!, ADDR_B, 1n, { nonce: 0n }),
          send(A!, ADDR_B, 1n, { nonce: 0n }), // nonce too low
          send(A!, ADDR_B, 200n * ETHER, { nonce: 1n }), // more than the balance
          send(EMPTY_KEY!, ADDR_B, 0n, { nonce: 0n }), // a sender without funds
          send(C!, ADDR_B, 1n, { nonce: 0n }), // a sender with code
          send(A!, ADDR_B, 1n, { nonce: 1n, type: 0, maxFeePerGas: 1n }), // below the base fee
        ],
      },
    ]);
    expect(res[0]!.txResults.map((t) => t.code !== 0)).toEqual([true, false, true, true, true, true, true]);
  });

  it('pay the proposer as runTx does, whoever the proposer is', async () => {
    await sameOnBoth([
      { txs: [send(A!, ADDR_B, 3n, { nonce: 0n })], proposer: addrBytes(ADDR_A) }, // the sender is the coinbase
      { txs: [send(A!, ADDR_B, 3n, { nonce: 1n })], proposer: addrBytes(ADDR_B) }, // the recipient is the coinbase
      { txs: [send(A!, ADDR_B, 3n, { nonce: 2n, maxPriorityFeePerGas: 0n })], proposer: addrBytes(ZERO_ACCOUNT) }, // no tip to an empty coinbase
      { txs: [send(A!, ADDR_B, 3n, { nonce: 3n })], proposer: addrBytes(ZERO_ACCOUNT) }, // a tip to an empty coinbase
      { txs: [send(A!, ADDR_B, 3n, { nonce: 4n })], proposer: addrBytes(FRESH) }, // a tip to a fresh coinbase
    ]);
  });
});

describe('contract code on the fast interpreter beside ethereumjs', () => {
  it('gives the same results, logs, gas and state for deploys, calls, reverts and running out of gas', async () => {
    const token = createContractAddress(new Address(addrBytes(ADDR_A)), 0n).toString();
    const before = fastLoopStats.frames;
    const res = await sameOnBoth([
      { txs: [signErc20Deploy(A!, 10n ** 24n, { nonce: 0n })] },
      {
        txs: [
          signErc20Transfer(A!, token, ADDR_B, 1000n, { nonce: 1n }),
          signErc20Transfer(A!, token, FRESH, 1n, { nonce: 2n }),
          signErc20Transfer(B!, token, ADDR_A, 10n ** 30n, { nonce: 0n }), // more than B holds: reverts
          signErc20Transfer(A!, token, ADDR_B, 1n, { nonce: 3n, gasLimit: 30_000n }), // out of gas
          signTx(A!, { to: token, data: erc20TransferData(ADDR_C, 5n).subarray(0, 20) }, { nonce: 4n, gasLimit: 100_000n }), // truncated calldata
          signTx(A!, { to: KITCHEN }, { nonce: 5n, gasLimit: 200_000n }),
          signTx(B!, { to: KITCHEN }, { nonce: 1n, gasLimit: 40_000n }), // out of gas in the CALL's frame
          signTx(A!, { to: REVERTER, value: 1n }, { nonce: 6n, gasLimit: 50_000n }),
        ],
      },
      // B sends back all it holds (its balance slot is deleted) while C's slot is written.
      { txs: [signErc20Transfer(B!, token, ADDR_A, 1000n, { nonce: 2n }), signErc20Transfer(A!, token, ADDR_C, 7n, { nonce: 7n })] },
    ]);
    expect(res[2]!.txResults.map(outcome)).toEqual([
      ['ok', 1],
      ['ok', 1],
    ]);
    expect(res[1]!.txResults.map((t) => t.code)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(res[1]!.txResults.map(outcome)).toEqual([
      ['ok', 1],
      ['ok', 1],
      ['execution reverted', 0],
      ['out of gas', 0],
      ['execution reverted', 0],
      ['ok', 1],
      ['ok', 1],
      ['execution reverted', 0],
    ]);
    expect(fastLoopStats.frames).toBeGreaterThan(before); // the fast chain really ran the fast loop
  });
});
