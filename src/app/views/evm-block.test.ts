import { describe, expect, it } from 'vitest';
import { genTransactionsTrieRoot } from '@ethereumjs/block';
import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { createMPT } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { createEOACode7702Tx, createTxFromRLP } from '@ethereumjs/tx';
import { Address, createContractAddress, eoaCode7702SignAuthorization } from '@ethereumjs/util';
import { Bloom, encodeReceipt } from '@ethereumjs/vm';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, DEV_KEY_0, DEV_KEY_1, keyBytes, signErc20Deploy, signErc20Transfer, signEthTransfer } from '../fixtures/signed-txs.js';
import { startTestChain } from '../fixtures/test-chain.js';
import { logsBloom } from './evm-block.js';
import { randomBytes } from 'node:crypto';

const common = createCustomCommon({ chainId: 9000 }, Mainnet, { hardfork: 'prague' });
const TO = '0x000000000000000000000000000000000000beef';
const addr = (s: string) => new Address(Buffer.from(s.slice(2), 'hex'));

describe('EvmBlock roots and receipts', () => {
  it('computes transactionsRoot and receiptsRoot as ethereumjs tries do, for mixed tx types', async () => {
    const chain = await startTestChain();
    await chain.block([signErc20Deploy(DEV_KEY_0, 1000n, { nonce: 0n })]);
    const token = createContractAddress(addr(DEV_ADDRESS_0), 0n).toString();
    const txs = [
      signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 1n, type: 0 }),
      signErc20Transfer(DEV_KEY_0, token, DEV_ADDRESS_1, 10n, { nonce: 2n }),
      signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 3n, type: 1 }),
      signErc20Transfer(DEV_KEY_1, token, DEV_ADDRESS_0, 99n, { nonce: 0n }), // reverts
    ];
    await chain.block(txs);
    const block = (await chain.app.evm.getBlock(2))!;
    const decoded = txs.map((b) => createTxFromRLP(b, { common }));
    expect(block.transactionsRoot).toEqual(await genTransactionsTrieRoot(decoded));

    const receipts = await chain.app.evm.getReceipts(2);
    expect(receipts.map((r) => r.status)).toEqual([1, 1, 1, 0]);
    expect(receipts.map((r) => r.type)).toEqual([0, 2, 1, 2]);
    const trie = await createMPT();
    for (const [i, r] of receipts.entries()) {
      const logs = r.logs.map((l) => [l.address.bytes, l.topics, l.data] as [Uint8Array, Uint8Array[], Uint8Array]);
      const enc = encodeReceipt({ status: r.status, cumulativeBlockGasUsed: r.cumulativeGasUsed, bitvector: r.logsBloom, logs }, decoded[i]!.type);
      await trie.put(RLP.encode(i), enc);
    }
    expect(block.receiptsRoot).toEqual(trie.root());
    expect(receipts[3]!.cumulativeGasUsed).toBe(block.gasUsed);
    expect(receipts.map((r) => r.txIndex)).toEqual([0, 1, 2, 3]);

    // The block bloom is the OR of the receipts' blooms.
    const or = new Uint8Array(256);
    for (const r of receipts) for (let i = 0; i < 256; i++) or[i]! |= r.logsBloom[i]!;
    expect(block.logsBloom).toEqual(or);
    expect(new Bloom(block.logsBloom).check(addr(token).bytes)).toBe(true);
  });

  it('runs EIP-7702 (type 4) txs under prague', async () => {
    const chain = await startTestChain();
    await chain.block([signErc20Deploy(DEV_KEY_0, 1000n, { nonce: 0n })]);
    const token = createContractAddress(addr(DEV_ADDRESS_0), 0n).toString();
    // DEV_1 delegates its code to the token contract; DEV_0 sends the type-4 tx.
    const auth = eoaCode7702SignAuthorization({ chainId: '0x2328', address: token as `0x${string}`, nonce: '0x0' }, keyBytes(DEV_KEY_1));
    const tx = createEOACode7702Tx(
      { chainId: 9000n, nonce: 1n, gasLimit: 100_000n, maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1n, to: addr(TO), authorizationList: [auth] },
      { common },
    )
      .sign(keyBytes(DEV_KEY_0))
      .serialize();
    expect((await chain.check(tx)).code).toBe(0);
    const res = await chain.block([tx]);
    expect(res.txResults[0]!.code).toBe(0);
    const code = await (await chain.app.evm.stateAt(2)).getCode(addr(DEV_ADDRESS_1));
    expect(Buffer.from(code).toString('hex')).toBe(`ef0100${token.slice(2)}`);
    const [receipt] = await chain.app.evm.getReceipts(2);
    expect(receipt!.type).toBe(4);
  });
});

describe('logsBloom', () => {
  it('sets the bits ethereumjs Bloom sets, for any addresses and topics', () => {
    for (let n = 0; n < 50; n++) {
      const logs = Array.from(
        { length: n % 5 },
        () => [randomBytes(20), Array.from({ length: n % 4 }, () => randomBytes(32)), new Uint8Array(0)] as [Uint8Array, Uint8Array[], Uint8Array],
      );
      const reference = new Bloom();
      for (const [address, topics] of logs) {
        reference.add(address);
        for (const t of topics) reference.add(t);
      }
      expect(logsBloom(logs)).toEqual(reference.bitvector);
    }
  });
});
