import { describe, expect, it } from 'vitest';
import { Address } from '@ethereumjs/util';
import { decodeUint256, erc20BalanceOfData, TRANSFER_TOPIC } from '../fixtures/erc20.js';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, DEV_KEY_0, DEV_KEY_1, signErc20Deploy, signErc20Transfer, signEthTransfer, signTx } from '../fixtures/signed-txs.js';
import { attrOf, blockHash, PROPOSER, startTestChain } from '../fixtures/test-chain.js';
import { logsBloom } from '../views/evm-block.js';
import { Bloom, createVM } from '@ethereumjs/vm';
import { createContractAddress } from '@ethereumjs/util';
import { TxMsgData } from 'cosmjs-types/cosmos/base/abci/v1beta1/abci';
import { decodeMsgEthereumTxResponse, MSG_ETHEREUM_TX_RESPONSE_TYPE_URL } from '../../codec/cosmos-evm/tx-msg-data.js';
import { evmAppHash } from '../../ibc/app-stores.js';

const RECIPIENT = '0x000000000000000000000000000000000000beef';
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const addr = (s: string) => new Address(Buffer.from(s.slice(2), 'hex'));

async function balanceOf(chain: Awaited<ReturnType<typeof startTestChain>>, a: string, height = chain.height): Promise<bigint> {
  const state = await chain.app.evm.stateAt(height);
  return (await state.getAccount(addr(a)))?.balance ?? 0n;
}

describe('FinalizeBlock', () => {
  it('executes ETH transfers, returns the multistore root over the state root as app hash and emits Cosmos EVM events', async () => {
    const chain = await startTestChain();
    const tx0 = signEthTransfer(DEV_KEY_0, RECIPIENT, 1000n, { nonce: 0n });
    const tx1 = signEthTransfer(DEV_KEY_0, RECIPIENT, 2000n, { nonce: 1n, type: 0 });
    const res = await chain.block([tx0, tx1]);

    expect(res.txResults.map((r) => r.code)).toEqual([0, 0]);
    expect(res.txResults[0]!.gasUsed).toBe(21000);
    expect(res.txResults[0]!.gasWanted).toBe(21000);
    expect(await balanceOf(chain, RECIPIENT)).toBe(3000n);
    const block = (await chain.app.evm.getBlock(1))!;
    expect(res.appHash).toEqual(evmAppHash(block.stateRoot, undefined));
    expect((await chain.app.info({ version: '', blockVersion: 0, p2pVersion: 0, abciVersion: '' })).lastBlockAppHash).toEqual(res.appHash);

    const ev = res.txResults[1]!.events;
    expect(ev.map((e) => e.type)).toEqual(['ethereum_tx', 'message']);
    expect(attrOf(ev, 'ethereum_tx', 'amount')).toBe('2000');
    expect(attrOf(ev, 'ethereum_tx', 'txIndex')).toBe('1');
    expect(attrOf(ev, 'ethereum_tx', 'txGasUsed')).toBe('21000');
    expect(attrOf(ev, 'ethereum_tx', 'recipient')).toBe(RECIPIENT);
    expect(attrOf(ev, 'ethereum_tx', 'ethereumTxHash')).toBe(hex(block.txHashes[1]!));
    expect(attrOf(ev, 'ethereum_tx', 'txHash')).toBe(
      Buffer.from(await sha256(tx1))
        .toString('hex')
        .toUpperCase(),
    );
    expect(attrOf(ev, 'ethereum_tx', 'ethereumTxFailed')).toBeUndefined();
    expect(attrOf(ev, 'message', 'action')).toBe('/cosmos.evm.vm.v1.MsgEthereumTx');
    expect(attrOf(ev, 'message', 'sender')).toBe(DEV_ADDRESS_0);
    expect(attrOf(ev, 'message', 'module')).toBe('evm');
    expect(attrOf(ev, 'message', 'tx_type')).toBe('0');
    // Searchable attributes are indexed; bulky ones (amounts, log JSON) are not.
    const indexed = ev.flatMap((e) => e.attributes.filter((a) => a.index).map((a) => `${e.type}.${a.key}`));
    expect(indexed).toEqual(
      expect.arrayContaining(['ethereum_tx.ethereumTxHash', 'ethereum_tx.txHash', 'ethereum_tx.recipient', 'message.action', 'message.sender']),
    );
    expect(indexed).not.toContain('ethereum_tx.amount');
    expect(res.events.map((e) => e.type)).toEqual(['block_bloom', 'fee_market']);
    expect(attrOf(res.events, 'fee_market', 'base_fee')).toBe('1000000000');
  });

  it('leaves nothing in the block VM journal after a block, with or without runTx', async () => {
    const chain = await startTestChain();
    const journal = (chain.app as unknown as { rt: { vm: { evm: { journal: unknown } } } }).rt.vm.evm.journal as unknown as {
      journalDiff: unknown[];
      journalHeight: number;
    };
    for (let i = 0n; i < 5n; i++) await chain.block([signEthTransfer(DEV_KEY_0, RECIPIENT, 1n, { nonce: i })]);
    expect(journal.journalDiff).toHaveLength(1);
    expect(journal.journalHeight).toBe(0);
    await chain.block([signErc20Deploy(DEV_KEY_0, 1000n, { nonce: 5n }), signEthTransfer(DEV_KEY_0, RECIPIENT, 1n, { nonce: 6n })]);
    expect(journal.journalDiff).toHaveLength(1);
    expect(journal.journalHeight).toBe(0);
  });

  it('pays the tip to the proposer address as coinbase, or to the override', async () => {
    const chain = await startTestChain();
    const proposer = `0x${Buffer.from(PROPOSER).toString('hex')}`;
    await chain.block([signEthTransfer(DEV_KEY_0, RECIPIENT, 1n, { nonce: 0n, maxPriorityFeePerGas: 2n })]);
    expect(await balanceOf(chain, proposer)).toBe(2n * 21000n);
    const block = (await chain.app.evm.getBlock(1))!;
    expect(block.coinbase.toString()).toBe(proposer);

    const override = '0x00000000000000000000000000000000000c0b1e';
    chain.app.admin.setCoinbase(addr(override));
    await chain.block([signEthTransfer(DEV_KEY_0, RECIPIENT, 1n, { nonce: 1n, maxPriorityFeePerGas: 3n })]);
    expect(await balanceOf(chain, override)).toBe(3n * 21000n);
    expect((await chain.app.evm.getBlock(2))!.coinbase.toString()).toBe(override);
  });

  it('deploys an ERC20 and transfers tokens, with logs, receipts and blooms', async () => {
    const chain = await startTestChain();
    const deploy = signErc20Deploy(DEV_KEY_0, 1_000_000n, { nonce: 0n });
    const r1 = await chain.block([deploy]);
    expect(r1.txResults[0]!.code).toBe(0);
    const token = createContractAddress(addr(DEV_ADDRESS_0), 0n).toString();
    expect(attrOf(r1.txResults[0]!.events, 'ethereum_tx', 'recipient')).toBe(token);

    const transfer = signErc20Transfer(DEV_KEY_0, token, DEV_ADDRESS_1, 250n, { nonce: 1n });
    const r2 = await chain.block([transfer]);
    const result = r2.txResults[0]!;
    expect(result.code).toBe(0);
    expect(decodeUint256(ret(result.data))).toBe(1n); // returns true
    const logEvents = result.events.filter((e) => e.type === 'tx_log');
    expect(logEvents).toHaveLength(1);
    const log = JSON.parse(logEvents[0]!.attributes[0]!.value) as Record<string, unknown>;
    expect(log).toMatchObject({
      address: token,
      topics: [hex(TRANSFER_TOPIC), `0x${DEV_ADDRESS_0.slice(2).padStart(64, '0')}`, `0x${DEV_ADDRESS_1.slice(2).padStart(64, '0')}`],
      data: `0x${250n.toString(16).padStart(64, '0')}`,
      blockNumber: '0x2',
      transactionIndex: '0x0',
      logIndex: '0x0',
      blockHash: hex(blockHash(2)),
      removed: false,
    });

    const receipts = await chain.app.evm.getReceipts(2);
    expect(receipts).toHaveLength(1);
    const rc = receipts[0]!;
    expect(rc.status).toBe(1);
    expect(rc.from.toString()).toBe(DEV_ADDRESS_0);
    expect(rc.to?.toString()).toBe(token);
    expect(rc.contractAddress).toBeNull();
    expect(rc.logs[0]!.address.toString()).toBe(token);
    expect(rc.logs[0]!.logIndex).toBe(0);
    expect(rc.gasUsed).toBe(BigInt(result.gasUsed));
    expect(rc.cumulativeGasUsed).toBe(rc.gasUsed);
    expect(rc.type).toBe(2);
    const block2 = (await chain.app.evm.getBlock(2))!;
    expect(block2.baseFeePerGas).toBeLessThan(1_000_000_000n); // block 1 used less than the target
    expect(rc.effectiveGasPrice).toBe(block2.baseFeePerGas + 1_000_000_000n); // base fee + tip
    const bloom = new Bloom(rc.logsBloom);
    expect(bloom.check(Buffer.from(token.slice(2), 'hex'))).toBe(true);
    expect(bloom.check(TRANSFER_TOPIC)).toBe(true);
    const block = (await chain.app.evm.getBlock(2))!;
    expect(block.logsBloom).toEqual(rc.logsBloom);
    expect(attrOf(r2.events, 'block_bloom', 'bloom')).toBe(hex(rc.logsBloom));
    expect(logsBloom([])).toEqual(new Uint8Array(256));

    const deployReceipt = (await chain.app.evm.getReceipts(1))[0]!;
    expect(deployReceipt.contractAddress?.toString()).toBe(token);
    expect(deployReceipt.to).toBeNull();

    // eth_call style reads on independent state copies, at the new and the previous height.
    expect(await tokenBalance(chain, token, DEV_ADDRESS_1, 2)).toBe(250n);
    expect(await tokenBalance(chain, token, DEV_ADDRESS_0, 2)).toBe(1_000_000n - 250n);
    expect(await tokenBalance(chain, token, DEV_ADDRESS_1, 1)).toBe(0n);
  });

  it('keeps a reverted tx in the block with code 0, receipt status 0 and ethereumTxFailed', async () => {
    const chain = await startTestChain();
    await chain.block([signErc20Deploy(DEV_KEY_0, 100n, { nonce: 0n })]);
    const token = createContractAddress(addr(DEV_ADDRESS_0), 0n).toString();
    // DEV_1 holds no tokens: transfer reverts with "insufficient balance".
    const res = await chain.block([signErc20Transfer(DEV_KEY_1, token, DEV_ADDRESS_0, 5n, { nonce: 0n })]);
    const r = res.txResults[0]!;
    expect(r.code).toBe(0);
    expect(attrOf(r.events, 'ethereum_tx', 'ethereumTxFailed')).toBe('execution reverted');
    expect(Buffer.from(ret(r.data)).toString('latin1')).toContain('insufficient balance');
    expect(ethResponse(r.data).vmError).toBe('execution reverted');
    const [receipt] = await chain.app.evm.getReceipts(2);
    expect(receipt!.status).toBe(0);
    expect(receipt!.gasUsed).toBeGreaterThan(21000n);
    // The sender paid for gas and its nonce moved on.
    const state = await chain.app.evm.stateAt(2);
    expect((await state.getAccount(addr(DEV_ADDRESS_1)))!.nonce).toBe(1n);
  });

  it('fails a tx with a bad nonce with a non-zero code and no state change', async () => {
    const chain = await startTestChain();
    const before = await balanceOf(chain, DEV_ADDRESS_0, 0);
    const good = signEthTransfer(DEV_KEY_0, RECIPIENT, 7n, { nonce: 0n });
    const replay = signEthTransfer(DEV_KEY_0, RECIPIENT, 8n, { nonce: 0n });
    const gap = signEthTransfer(DEV_KEY_0, RECIPIENT, 9n, { nonce: 5n });
    const res = await chain.block([good, replay, gap]);
    expect(res.txResults.map((r) => r.code)).toEqual([0, 3, 3]);
    expect(res.txResults[1]!.codespace).toBe('sdk');
    expect(res.txResults[1]!.log).toBe('invalid nonce; got 0, expected 1: invalid sequence');
    expect(res.txResults[2]!.log).toBe('invalid nonce; got 5, expected 1: invalid sequence');
    expect(res.txResults[1]!.events).toEqual([]);
    expect(res.txResults[1]!.gasUsed).toBe(0);
    expect(await balanceOf(chain, RECIPIENT)).toBe(7n);
    expect(before - (await balanceOf(chain, DEV_ADDRESS_0))).toBe(7n + 21000n * 2_000_000_000n);
    // Only the executed tx is part of the Ethereum block.
    expect((await chain.app.evm.getBlock(1))!.txHashes).toHaveLength(1);
    expect(await chain.app.evm.getTransactionsOfBlock(1)).toHaveLength(1);
  });

  it('fails an undecodable tx and a tx that cannot pay with non-zero codes', async () => {
    const chain = await startTestChain({ alloc: { [DEV_ADDRESS_0]: { balance: '1000' } } });
    const res = await chain.block([new Uint8Array([1, 2, 3]), signEthTransfer(DEV_KEY_0, RECIPIENT, 1n, { nonce: 0n })]);
    expect(res.txResults[0]!.code).toBe(2);
    expect(res.txResults[1]!.code).toBe(5);
    expect(res.txResults[1]!.log).toMatch(/^insufficient funds for gas \* price \+ value: have 1000 want \d+$/);
  });

  it('evolves the base fee with EIP-1559 from the initial base fee', async () => {
    // Small block gas limit so that one transfer is well over the target (gasLimit / 2).
    const chain = await startTestChain({ maxGas: 30_000 });
    expect(chain.app.evm.nextBaseFee()).toBe(1_000_000_000n);
    await chain.block([signEthTransfer(DEV_KEY_0, RECIPIENT, 1n, { nonce: 0n })]);
    // used 21000 of target 15000: +1/8 * 6000/15000
    expect(chain.app.evm.nextBaseFee()).toBe(1_000_000_000n + (1_000_000_000n * 6000n) / 15000n / 8n);
    const b2Fee = chain.app.evm.nextBaseFee();
    await chain.block([]);
    expect((await chain.app.evm.getBlock(2))!.baseFeePerGas).toBe(b2Fee);
    expect(chain.app.evm.nextBaseFee()).toBe(b2Fee - b2Fee / 8n); // empty block: -1/8
    expect((await chain.app.evm.getBlock(1))!.gasLimit).toBe(30_000n);
  });

  it('reports gas limit 2^32-1 when consensus max_gas is -1, and fills block fields', async () => {
    const chain = await startTestChain();
    const tx = signEthTransfer(DEV_KEY_0, RECIPIENT, 1n, { nonce: 0n });
    await chain.block([tx], { time: 1_800_000_123 });
    await chain.block([]);
    const b1 = (await chain.app.evm.getBlock(1))!;
    const b2 = (await chain.app.evm.getBlockByHash(blockHash(2)))!;
    expect(b1.gasLimit).toBe(4_294_967_295n);
    expect(b1.timestamp).toBe(1_800_000_123n);
    expect(b1.parentHash).toEqual(new Uint8Array(32));
    expect(b1.hash).toEqual(blockHash(1));
    expect(b2.parentHash).toEqual(blockHash(1));
    expect(b1.gasUsed).toBe(21000n);
    expect(b1.size).toBeGreaterThan(tx.length + 500);
    expect(hex(b2.transactionsRoot)).toBe('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
    expect(b1.transactionsRoot).not.toEqual(b2.transactionsRoot);
    expect(b1.receiptsRoot).toHaveLength(32);
    const found = (await chain.app.evm.getTransaction(b1.txHashes[0]!))!;
    expect(found.height).toBe(1);
    expect(found.index).toBe(0);
    expect(found.sender.toString()).toBe(DEV_ADDRESS_0);
    expect(found.tx.serialize()).toEqual(tx);
    expect(await chain.app.evm.getTransaction(new Uint8Array(32))).toBeUndefined();
    expect(await chain.app.evm.getBlock(3)).toBeUndefined();
  });

  it('calls onBlock listeners after Commit with the block and its receipts', async () => {
    const chain = await startTestChain();
    const seen: number[] = [];
    const off = chain.app.evm.onBlock((b, receipts) => seen.push(b.number * 100 + receipts.length));
    await chain.block([signEthTransfer(DEV_KEY_0, RECIPIENT, 1n, { nonce: 0n }), signTx(DEV_KEY_1, { to: RECIPIENT }, { nonce: 0n })]);
    off();
    await chain.block([]);
    expect(seen).toEqual([102]);
  });
});

async function tokenBalance(chain: Awaited<ReturnType<typeof startTestChain>>, token: string, owner: string, height: number): Promise<bigint> {
  const vm = await createVM({ common: chain.app.evm.common, stateManager: await chain.app.evm.stateAt(height) });
  const res = await vm.evm.runCall({ to: addr(token), data: erc20BalanceOfData(owner), gasLimit: 100_000n });
  return decodeUint256(res.execResult.returnValue);
}

async function sha256(b: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', b));
}

/** tx_result.data is Cosmos EVM's TxMsgData { msg_responses: [MsgEthereumTxResponse] }. */
function ethResponse(data: Uint8Array) {
  const msg = TxMsgData.decode(data);
  expect(msg.msgResponses[0]!.typeUrl).toBe(MSG_ETHEREUM_TX_RESPONSE_TYPE_URL);
  return decodeMsgEthereumTxResponse(msg.msgResponses[0]!.value);
}
const ret = (data: Uint8Array) => ethResponse(data).ret;
