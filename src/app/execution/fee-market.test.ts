import { describe, expect, it } from 'vitest';
import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { createTxFromRLP } from '@ethereumjs/tx';
import { blockGasLimit, effectiveGasPrice, effectiveTip, maxFeePerGas, nextBaseFee } from './fee-market.js';
import { DEV_KEY_0, signEthTransfer } from '../fixtures/signed-txs.js';

const common = createCustomCommon({ chainId: 9000 }, Mainnet, { hardfork: 'prague' });
const decode = (b: Uint8Array) => createTxFromRLP(b, { common });
const TO = '0x000000000000000000000000000000000000beef';

describe('fee market', () => {
  it('moves the base fee by up to 1/8 towards the gas target (gasLimit / 2)', () => {
    const p = { gasLimit: 30_000_000n, baseFee: 1_000_000_000n };
    expect(nextBaseFee({ ...p, gasUsed: 15_000_000n }, 0n)).toBe(1_000_000_000n);
    expect(nextBaseFee({ ...p, gasUsed: 30_000_000n }, 0n)).toBe(1_125_000_000n);
    expect(nextBaseFee({ ...p, gasUsed: 0n }, 0n)).toBe(875_000_000n);
    expect(nextBaseFee({ ...p, gasUsed: 22_500_000n }, 0n)).toBe(1_062_500_000n);
    // The increase is at least 1 wei; the min gas price floors the decrease.
    expect(nextBaseFee({ gasLimit: 30_000_000n, baseFee: 1n, gasUsed: 16_000_000n }, 0n)).toBe(2n);
    expect(nextBaseFee({ ...p, gasUsed: 0n }, 900_000_000n)).toBe(900_000_000n);
  });

  it('maps max_gas -1 to 2^32-1', () => {
    expect(blockGasLimit(-1)).toBe(4_294_967_295n);
    expect(blockGasLimit(30_000_000)).toBe(30_000_000n);
  });

  it('computes tips and effective prices for dynamic-fee and legacy txs', () => {
    const dyn = decode(signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 0n, maxFeePerGas: 10n, maxPriorityFeePerGas: 3n }));
    expect(maxFeePerGas(dyn)).toBe(10n);
    expect(effectiveTip(dyn, 5n)).toBe(3n);
    expect(effectiveTip(dyn, 8n)).toBe(2n);
    expect(effectiveTip(dyn, 12n)).toBe(0n);
    expect(effectiveGasPrice(dyn, 8n)).toBe(10n);
    expect(effectiveGasPrice(dyn, 5n)).toBe(8n);
    const legacy = decode(signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 0n, type: 0, maxFeePerGas: 10n }));
    expect(maxFeePerGas(legacy)).toBe(10n);
    expect(effectiveTip(legacy, 4n)).toBe(6n);
    expect(effectiveGasPrice(legacy, 4n)).toBe(10n);
  });
});
