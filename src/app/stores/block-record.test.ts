import { Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { blockRecordBloom, decodeBlockRecord, encodeBlockRecord, type BlockRecord, type ExecutedTx } from './block-record.js';
import { CorruptStoreError } from '../errors.js';

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);

function tx(i: number): ExecutedTx {
  return {
    bytes: bytes(110 + i, 3),
    ethHash: bytes(32, i),
    sender: new Address(bytes(20, 9)),
    type: 2,
    to: new Address(bytes(20, 8)),
    status: 1,
    gasUsed: 51_000n,
    effectiveGasPrice: 1_000_000_000n,
    contractAddress: undefined,
    logs: [[bytes(20, 7), [bytes(32, 1), bytes(32, 2)], bytes(64, 5)]],
  };
}

function record(number: number, txs: number, bloomFill: number): BlockRecord {
  return {
    number,
    hash: bytes(32, 1),
    parentHash: bytes(32, 2),
    timestamp: 1_700_000_000n + BigInt(number),
    coinbase: new Address(bytes(20, 4)),
    gasLimit: 30_000_000n,
    gasUsed: 21_000n * BigInt(txs),
    baseFee: number === 1 ? 0n : 7n, // a zero encodes as the empty string
    stateRoot: bytes(32, 6),
    bloom: Uint8Array.from({ length: 256 }, (_, i) => (i * bloomFill) & 0xff),
    txs: Array.from({ length: txs }, (_, i) => tx(i)),
  };
}

describe('blockRecordBloom', () => {
  it('reads the bloom a record decodes to, whatever the fields before it and the txs after', () => {
    for (const r of [record(1, 0, 0), record(2, 1, 3), record(70_000, 300, 11), record(2 ** 40, 2, 255)]) {
      const encoded = encodeBlockRecord(r);
      expect(blockRecordBloom(encoded)).toEqual(decodeBlockRecord(encoded).bloom);
      expect(blockRecordBloom(encoded)).toEqual(r.bloom);
    }
  });

  it('refuses what is not a block record', () => {
    const encoded = encodeBlockRecord(record(5, 1, 1));
    expect(() => blockRecordBloom(encoded.subarray(0, 100))).toThrow(CorruptStoreError);
    expect(() => blockRecordBloom(Uint8Array.of(0x83, 1, 2, 3))).toThrow(CorruptStoreError);
    expect(() => blockRecordBloom(new Uint8Array(0))).toThrow(CorruptStoreError);
  });
});
