import { describe, expect, it } from 'vitest';
import { concatBytes, fromBase64, toHexUpper, utf8 } from '../crypto/encoding.js';
import { sha256 } from '../crypto/hash.js';
import { TxIndexOutOfRangeError } from './errors.js';
import { txHash, txProof, txsHash, verifyTxProof } from './txs.js';

const txs = Array.from({ length: 7 }, (_, i) => utf8(`key${i}=value${i}`));

describe('txHash / txsHash', () => {
  it('hashes a tx with sha256', () => {
    expect(txHash(utf8('abc'))).toEqual(sha256(utf8('abc')));
  });

  it('hashes each tx bytes object once, and equal bytes in another object alike', () => {
    const tx = utf8('once');
    const h = txHash(tx);
    expect(txHash(tx)).toBe(h); // the same object: computed once
    const copy = utf8('once');
    expect(txHash(copy)).not.toBe(h);
    expect(txHash(copy)).toEqual(h);
    expect(txHash(utf8('other'))).toEqual(sha256(utf8('other')));
  });

  it('matches the data_hash of a real block with one tx', () => {
    expect(toHexUpper(txsHash([fromBase64('dGVuZGV0b2xsPXJvY2tz')]))).toBe('8609FB8DFC53717A6DB5B58F601092CB5FFE80E1D354DA454942BA88EF3E077D');
  });

  it('uses tx hashes as the merkle leaves', () => {
    const one = utf8('tx');
    expect(txsHash([one])).toEqual(sha256(concatBytes(new Uint8Array([0]), sha256(one))));
  });

  it('is sha256("") for no txs', () => {
    expect(toHexUpper(txsHash([]))).toBe('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855');
  });
});

describe('txProof', () => {
  it('verifies every tx against txsHash', () => {
    const dataHash = txsHash(txs);
    txs.forEach((tx, i) => {
      const p = txProof(txs, i);
      expect(p.rootHash).toEqual(dataHash);
      expect(p.data).toEqual(tx);
      expect(p.proof).toMatchObject({ index: i, total: txs.length, leafHash: sha256(concatBytes(new Uint8Array([0]), txHash(tx))) });
      expect(verifyTxProof(p, dataHash)).toBe(true);
    });
  });

  it('fails on tampering', () => {
    const dataHash = txsHash(txs);
    const p = txProof(txs, 3);
    expect(verifyTxProof({ ...p, data: utf8('key3=evil') }, dataHash)).toBe(false);
    expect(verifyTxProof(p, txsHash(txs.slice(1)))).toBe(false);
    expect(verifyTxProof({ ...p, rootHash: sha256(utf8('x')) }, sha256(utf8('x')))).toBe(false);
    expect(verifyTxProof({ ...p, proof: { ...p.proof, index: 4 } }, dataHash)).toBe(false);
    expect(verifyTxProof({ ...p, proof: { ...p.proof, aunts: p.proof.aunts.slice(1) } }, dataHash)).toBe(false);
  });

  it('works for a single tx and rejects indices out of range', () => {
    const p = txProof([utf8('solo')], 0);
    expect(p.proof.aunts).toEqual([]);
    expect(verifyTxProof(p, txsHash([utf8('solo')]))).toBe(true);
    expect(() => txProof(txs, 7)).toThrow(TxIndexOutOfRangeError);
    expect(() => txProof(txs, -1)).toThrow(TxIndexOutOfRangeError);
    expect(() => txProof([], 0)).toThrow(TxIndexOutOfRangeError);
  });
});
