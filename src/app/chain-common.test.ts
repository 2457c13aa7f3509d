import { createCustomCommon, Mainnet } from '@ethereumjs/common';
import { paramsBlock } from '@ethereumjs/block';
import { paramsEVM } from '@ethereumjs/evm';
import { paramsTx } from '@ethereumjs/tx';
import { paramsVM } from '@ethereumjs/vm';
import { describe, expect, it } from 'vitest';
import { createChainCommon, mergeParams } from './chain-common.js';

const cacheOf = (c: object) => (c as unknown as { _paramsCache: Record<string, unknown> })._paramsCache;

describe('createChainCommon', () => {
  it('has the parameters of four successive updateParams calls, merged in one', () => {
    for (const hardfork of ['cancun', 'prague'] as const) {
      const one = createChainCommon({ chainId: 9000n, hardfork });
      const four = createCustomCommon({ chainId: 9000, name: 'chainlet' }, Mainnet, { hardfork });
      for (const p of [paramsTx, paramsBlock, paramsEVM, paramsVM]) four.updateParams(p);
      expect(Object.keys(cacheOf(one)).length).toBeGreaterThan(100);
      expect(cacheOf(one)).toEqual(cacheOf(four));
    }
  });

  it('keeps its parameter cache through an empty updateParams, and still merges a non-empty one (on a copy too)', () => {
    const common = createChainCommon({ chainId: 9000n, hardfork: 'prague' });
    const cache = cacheOf(common);
    common.updateParams({});
    expect(cacheOf(common)).toBe(cache);
    const copy = common.copy();
    copy.updateParams({});
    expect(cacheOf(copy)).toBe(cache);
    copy.updateParams({ 1559: { baseFeeMaxChangeDenominator: 16 } });
    expect(copy.param('baseFeeMaxChangeDenominator')).toBe(16n);
    expect(common.param('baseFeeMaxChangeDenominator')).toBe(8n);
    expect(cacheOf(common)).toBe(cache);
  });

  it('mergeParams lets a later dict win key by key within an EIP, as updateParams does', () => {
    expect(mergeParams({ 1559: { a: 1, b: 2 } }, { 1559: { b: 3 }, 2930: { c: 4 } })).toEqual({ 1559: { a: 1, b: 3 }, 2930: { c: 4 } });
  });
});
