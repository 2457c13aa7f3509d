import { describe, expect, it } from 'vitest';
import { hashTypedData } from 'viem';
import { typedDataDigest, typedDataOf } from './eip712.js';

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

describe('EIP-712 digests equal viem’s', () => {
  it('nested structs, arrays, bytes and the derived domain type', () => {
    const typed = {
      domain: { name: 'Ether Mail', version: '1', chainId: 9000, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
      types: {
        Person: [
          { name: 'name', type: 'string' },
          { name: 'wallets', type: 'address[]' },
        ],
        Mail: [
          { name: 'from', type: 'Person' },
          { name: 'to', type: 'Person[]' },
          { name: 'contents', type: 'string' },
          { name: 'tag', type: 'bytes4' },
          { name: 'blob', type: 'bytes' },
          { name: 'n', type: 'int256' },
          { name: 'ok', type: 'bool' },
        ],
      },
      primaryType: 'Mail',
      message: {
        from: { name: 'Cow', wallets: ['0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826'] },
        to: [{ name: 'Bob', wallets: ['0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB', '0xB0BdaBea57B0BDABeA57b0bdABEA57b0BDabEa57'] }],
        contents: 'Hello, Bob!',
        tag: '0x12345678',
        blob: '0xdeadbeef',
        n: -5,
        ok: true,
      },
    } as const;
    const ours = typedDataDigest(typedDataOf(JSON.parse(JSON.stringify(typed))));
    expect(hex(ours)).toBe(hashTypedData(typed as never));
    expect(hex(typedDataDigest(typedDataOf(JSON.stringify(typed))))).toBe(hashTypedData(typed as never));
  });
});
