import { describe, expect, it } from 'vitest';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { HDKey } from '@scure/bip32';
import { generateMnemonic, mnemonicToSeedSync } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { derivePath, masterNode, mnemonicToSeed, secp256k1PublicKey } from './hd-secp256k1.js';

describe('BIP-39/BIP-32 on node:crypto', () => {
  it('gives the same seeds and keys as @scure/bip39 and @scure/bip32', () => {
    const mnemonics = ['test test test test test test test test test test test junk', ...Array.from({ length: 4 }, () => generateMnemonic(wordlist))];
    for (const mnemonic of mnemonics) {
      for (const pass of ['', 'TREZOR']) {
        const seed = mnemonicToSeed(mnemonic, pass);
        expect(Buffer.from(seed)).toEqual(Buffer.from(mnemonicToSeedSync(mnemonic, pass)));
        const ref = HDKey.fromMasterSeed(seed);
        for (const path of [`m/44'/60'/0'/0/0`, `m/44'/60'/0'/0/7`, `m/44'/118'/0'/0/1`, `m/0/1/2'`, 'm']) {
          const ours = derivePath(masterNode(seed), path);
          const theirs = ref.derive(path);
          expect(Buffer.from(ours.privateKey)).toEqual(Buffer.from(theirs.privateKey!));
          expect(Buffer.from(ours.chainCode)).toEqual(Buffer.from(theirs.chainCode!));
          expect(Buffer.from(secp256k1PublicKey(ours.privateKey, true))).toEqual(Buffer.from(theirs.publicKey!));
          expect(Buffer.from(secp256k1PublicKey(ours.privateKey, false))).toEqual(Buffer.from(secp256k1.getPublicKey(ours.privateKey, false)));
        }
      }
    }
  });

  it('keeps the seeds it computed (beyond the few it keeps, computes them again) and hands out copies', () => {
    const mnemonics = Array.from({ length: 10 }, () => generateMnemonic(wordlist));
    for (const m of [...mnemonics, ...mnemonics]) {
      const seed = mnemonicToSeed(m, 'pass');
      expect(Buffer.from(seed)).toEqual(Buffer.from(mnemonicToSeedSync(m, 'pass')));
      seed.fill(0);
      expect(Buffer.from(mnemonicToSeed(m, 'pass'))).toEqual(Buffer.from(mnemonicToSeedSync(m, 'pass')));
      expect(Buffer.from(mnemonicToSeed(m))).toEqual(Buffer.from(mnemonicToSeedSync(m)));
    }
  });

  it('refuses a malformed path', () => {
    const root = masterNode(mnemonicToSeed('test test test test test test test test test test test junk'));
    expect(() => derivePath(root, `44'/60'`)).toThrow(/must start with "m"/);
    expect(() => derivePath(root, `m/44x`)).toThrow(/invalid BIP-32 path segment "44x"/);
    expect(() => derivePath(root, `m/4294967296`)).toThrow(/invalid BIP-32 path segment/);
  });
});
