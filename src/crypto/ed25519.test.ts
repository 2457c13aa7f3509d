import { ed25519 as noble } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { addressFromPubKey, ed25519FromSeed, ed25519Generate, ed25519Sign, ed25519Verify } from './ed25519.js';
import { fromHex, toHex, utf8 } from './encoding.js';
import { InvalidKeyLengthError } from './errors.js';
import { sha256 } from './hash.js';

// RFC 8032 §7.1, TEST 1 and TEST 2.
const RFC_TEST1 = {
  seed: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
  pub: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
  msg: '',
  sig: 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
};
const RFC_TEST2 = {
  seed: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
  pub: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
  msg: '72',
  sig: '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
};

describe('ed25519', () => {
  it.each([RFC_TEST1, RFC_TEST2])('reproduces the RFC 8032 vector for seed $seed', (v) => {
    const key = ed25519FromSeed(fromHex(v.seed));
    expect(toHex(key.publicKey)).toBe(v.pub);
    const sig = ed25519Sign(key, fromHex(v.msg));
    expect(toHex(sig)).toBe(v.sig);
    expect(ed25519Verify(key.publicKey, fromHex(v.msg), sig)).toBe(true);
  });

  it('derives the CometBFT address as sha256(pubkey)[:20]', () => {
    const key = ed25519FromSeed(fromHex(RFC_TEST1.seed));
    expect(key.address).toEqual(sha256(key.publicKey).slice(0, 20));
    expect(addressFromPubKey(key.publicKey)).toEqual(key.address);
    expect(key.address).toHaveLength(20);
  });

  it('does not alias the caller seed', () => {
    const seed = fromHex(RFC_TEST1.seed);
    const key = ed25519FromSeed(seed);
    seed.fill(0);
    expect(toHex(key.seed)).toBe(RFC_TEST1.seed);
  });

  it('signs with node:crypto and verifies with @noble/curves, and the reverse', () => {
    const key = ed25519Generate();
    const msg = utf8('chainlet vote sign bytes');
    const nodeSig = ed25519Sign(key, msg);
    expect(noble.verify(nodeSig, msg, key.publicKey)).toBe(true);
    expect(noble.getPublicKey(key.seed)).toEqual(key.publicKey);

    const nobleSig = noble.sign(msg, key.seed);
    expect(ed25519Verify(key.publicKey, msg, nobleSig)).toBe(true);
    expect(nobleSig).toEqual(nodeSig); // ed25519 is deterministic
  });

  it('rejects wrong messages, keys and malformed input without throwing', () => {
    const a = ed25519Generate();
    const b = ed25519Generate();
    const msg = utf8('m');
    const sig = ed25519Sign(a, msg);
    expect(ed25519Verify(a.publicKey, utf8('n'), sig)).toBe(false);
    expect(ed25519Verify(b.publicKey, msg, sig)).toBe(false);
    expect(ed25519Verify(a.publicKey, msg, sig.subarray(0, 63))).toBe(false);
    expect(ed25519Verify(a.publicKey.subarray(0, 31), msg, sig)).toBe(false);
    const bad = sig.slice();
    bad[10] = bad[10]! ^ 0xff;
    expect(ed25519Verify(a.publicKey, msg, bad)).toBe(false);
  });

  it('answers a signature made here as OpenSSL would, also after its bytes change in place', () => {
    const a = ed25519Generate();
    const msg = utf8('vote sign bytes');
    const sig = ed25519Sign(a, msg);
    expect(ed25519Verify(a.publicKey, msg, sig)).toBe(true);
    expect(ed25519Verify(ed25519Generate().publicKey, msg, sig)).toBe(false);
    expect(ed25519Verify(a.publicKey, utf8('vote sign bytez'), sig)).toBe(false);
    sig[0] = sig[0]! ^ 1; // the same array, tampered after signing
    expect(ed25519Verify(a.publicKey, msg, sig)).toBe(false);
    sig[0] = sig[0]! ^ 1;
    expect(ed25519Verify(a.publicKey, msg, sig)).toBe(true);
    // A key whose public half does not belong to its seed cannot vouch for its signatures.
    const b = ed25519Generate();
    const forged = ed25519Sign({ ...a, publicKey: b.publicKey }, msg);
    expect(ed25519Verify(b.publicKey, msg, forged)).toBe(false);
    expect(ed25519Verify(a.publicKey, msg, forged)).toBe(true);
  });

  it('generates distinct keys and rejects seeds of the wrong length', () => {
    expect(ed25519Generate().seed).not.toEqual(ed25519Generate().seed);
    expect(() => ed25519FromSeed(new Uint8Array(31))).toThrow(InvalidKeyLengthError);
  });
});
