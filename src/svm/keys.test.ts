import { describe, expect, it } from 'vitest';
import { createKeyPairSignerFromBytes } from '@solana/kit';
import { deriveSolanaAccounts, devSolanaKeypairs, slip10Ed25519 } from './keys.js';

describe('SLIP-0010 ed25519', () => {
  it('matches the spec’s test vector 1', () => {
    const seed = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
    const m = slip10Ed25519(seed, 'm');
    expect(Buffer.from(m.chainCode).toString('hex')).toBe('90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb');
    expect(Buffer.from(m.key).toString('hex')).toBe('2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7');
    const c = slip10Ed25519(seed, "m/0'");
    expect(Buffer.from(c.chainCode).toString('hex')).toBe('8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69');
    expect(Buffer.from(c.key).toString('hex')).toBe('68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3');
    expect(() => slip10Ed25519(seed, 'm/0')).toThrow(/must be hardened/);
  });

  it('gives @solana/kit signers whose address is the derived public key', async () => {
    const [a, b] = deriveSolanaAccounts('test test test test test test test test test test test junk', 2);
    const signer = await createKeyPairSignerFromBytes(a!.secretKey);
    expect(signer.address).toBe(a!.address);
    expect(a!.address).not.toBe(b!.address);
  });
});

describe('devSolanaKeypairs', () => {
  it('gives the dev mnemonic’s accounts (the SVM genesis funds them) as copies, with a count', async () => {
    const keys = devSolanaKeypairs();
    expect(keys).toHaveLength(10);
    expect(keys.map((k) => k.address)).toEqual(deriveSolanaAccounts('test test test test test test test test test test test junk', 10).map((k) => k.address));
    expect(keys[0]!.secretKey).toHaveLength(64);
    expect((await createKeyPairSignerFromBytes(keys[3]!.secretKey)).address).toBe(keys[3]!.address);
    keys[0]!.secretKey.fill(0);
    expect(devSolanaKeypairs()[0]!.secretKey.some((b) => b !== 0)).toBe(true);
    expect(devSolanaKeypairs(undefined, 2)).toHaveLength(2);
    expect(devSolanaKeypairs('legal winner thank year wave sausage worth useful legal winner thank yellow', 1)[0]!.address).not.toBe(keys[0]!.address);
    expect(() => devSolanaKeypairs(undefined, -1)).toThrow(/count/);
  });
});
