import { privateToAddress } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { DecryptError, KeyFileError } from './errors.js';
import { decryptKey, encryptKey, LIGHT_SCRYPT, parseKeyFile } from './keystore-v3.js';

// The Web3 Secret Storage Definition's test vectors (password "testpassword").
const SECRET = '7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d';
const PBKDF2_VECTOR = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '6087dab2f9fdbbfaddc31a909735c1e6' },
    ciphertext: '5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46',
    kdf: 'pbkdf2',
    kdfparams: { c: 262144, dklen: 32, prf: 'hmac-sha256', salt: 'ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd' },
    mac: '517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
};
const SCRYPT_VECTOR = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '83dbcc02d8ccb40e466191a123791e0e' },
    ciphertext: 'd172bf743a674da9cdad04534d56926ef8358534d458fffccd4e6ad2fbde479c',
    kdf: 'scrypt',
    kdfparams: { dklen: 32, n: 262144, r: 1, p: 8, salt: 'ab0c7876052600dd703518d6fc3fe8984592145b591fc8fb5c6d43190334ba19' },
    mac: '2103ac29920d71da29f15d75b4a16dbe95cfd7ff8faea1056c33131d846e3097',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
};

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('Web3 Secret Storage v3', () => {
  it('decrypts the spec’s PBKDF2-SHA-256 vector', async () => {
    expect(hex(await decryptKey(PBKDF2_VECTOR, 'testpassword'))).toBe(SECRET);
  });

  it('decrypts the spec’s scrypt vector', async () => {
    expect(hex(await decryptKey(SCRYPT_VECTOR, 'testpassword'))).toBe(SECRET);
  }, 20_000);

  it('refuses a wrong password with geth’s text', async () => {
    const e = await decryptKey(PBKDF2_VECTOR, 'nope').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DecryptError);
    expect((e as Error).message).toBe('could not decrypt key with given password');
  });

  it('round-trips what it encrypts, as a v3 scrypt file with the address', async () => {
    const key = new Uint8Array(Buffer.from(SECRET, 'hex'));
    const file = await encryptKey(key, 'pässwörd', LIGHT_SCRYPT);
    expect(file.version).toBe(3);
    expect(file.address).toBe(hex(privateToAddress(key)));
    expect(file.crypto.cipher).toBe('aes-128-ctr');
    expect(file.crypto.kdf).toBe('scrypt');
    expect(file.crypto.kdfparams).toMatchObject({ n: 4096, r: 8, p: 6, dklen: 32 });
    expect(file.crypto.cipherparams.iv).toMatch(/^[0-9a-f]{32}$/);
    expect(file.crypto.mac).toMatch(/^[0-9a-f]{64}$/);
    expect(file.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Through JSON, as it is written to disk.
    expect(hex(await decryptKey(JSON.parse(JSON.stringify(file)), 'pässwörd'))).toBe(SECRET);
    await expect(decryptKey(file, 'password')).rejects.toBeInstanceOf(DecryptError);
  });

  it('refuses files it cannot read', () => {
    expect(() => parseKeyFile({ ...PBKDF2_VECTOR, version: 4 })).toThrow(KeyFileError);
    expect(() => parseKeyFile({ ...PBKDF2_VECTOR, crypto: { ...PBKDF2_VECTOR.crypto, cipher: 'aes-128-cbc' } })).toThrow(/cipher not supported/);
    expect(() => parseKeyFile(null)).toThrow(KeyFileError);
  });
});
