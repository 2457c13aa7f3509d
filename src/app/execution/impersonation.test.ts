import { createTxFromRLP } from '@ethereumjs/tx';
import { createAddressFromString } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { bytesToBigInt } from '@ethereumjs/util';
import { keccak256 } from '../../crypto/keccak.js';
import { createChainCommon } from '../chain-common.js';
import { IMPERSONATION_R, impersonatedSender, impersonatedTx, impersonationTransform, ImpersonationSet } from './impersonation.js';
import { decodeAppTx, recoverSender } from './tx-decode.js';

const common = createChainCommon({ chainId: 9000n, hardfork: 'prague' });
const who = createAddressFromString('0x000000000000000000000000000000000000cafe');
const to = createAddressFromString('0x0000000000000000000000000000000000000001');

describe('impersonation marker', () => {
  it.each([0, 2] as const)('names the sender in a type %i tx that decodes like any tx', (type) => {
    const base = { nonce: 3n, to, value: 5n, gasLimit: 21_000n, chainId: 9000n };
    const fees = type === 0 ? { gasPrice: 10n ** 9n } : { maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 1n };
    const bytes = impersonatedTx({ type, ...base, ...fees }, who, common).serialize();
    const tx = createTxFromRLP(bytes, { common });
    expect(tx.r).toBe(IMPERSONATION_R);
    expect(impersonatedSender(tx)?.toString()).toBe(who.toString());
  });

  it('gives the decoded tx its sender only while the sender is impersonated', () => {
    const set = new ImpersonationSet();
    const transform = impersonationTransform(set);
    const bytes = impersonatedTx(
      { type: 2, nonce: 0n, to, gasLimit: 21_000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, chainId: 9000n },
      who,
      common,
    ).serialize();
    const plain = decodeAppTx(bytes, common);
    expect(transform(plain)).toBe(plain);
    set.add(who.toString().toUpperCase().replace('0X', '0x'));
    const d = transform(decodeAppTx(bytes, common));
    expect(recoverSender(d).toString()).toBe(who.toString());
    expect(d.kind === 'eth' && d.tx.getSenderAddress().toString()).toBe(who.toString());
    expect(transform(d)).toBe(d);
    set.remove(who.toString());
    set.auto = true;
    expect(transform(decodeAppTx(bytes, common)).senderHex).toBe(who.toString());
  });
});

describe('IMPERSONATION_R', () => {
  it('is keccak256("chainlet:impersonated-sender"), written out', () => {
    expect(IMPERSONATION_R).toBe(bytesToBigInt(keccak256(new TextEncoder().encode('chainlet:impersonated-sender'))));
  });
});
