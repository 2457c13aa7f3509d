import { describe, expect, it } from 'vitest';
import type { ExecTxResult } from '../../abci/types.js';
import { chainNameOf, outcomeOf } from './env.js';

function result(code: number, log: string, attrs: [string, string][] = []): ExecTxResult {
  return {
    code,
    data: new Uint8Array(0),
    log,
    info: '',
    gasWanted: 0,
    gasUsed: 0,
    events: attrs.length > 0 ? [{ type: 'ethereum_tx', attributes: attrs.map(([key, value]) => ({ key, value, index: true })) }] : [],
    codespace: '',
  };
}

describe('outcomeOf', () => {
  it('is success for code 0 without a failure attribute', () => {
    expect(outcomeOf(result(0, '', [['ethereumTxHash', '0xab']]))).toEqual({ ok: true, code: 0, log: '' });
  });

  it('is a failure for a non-zero code (e.g. an undecodable tx), with the chain log', () => {
    expect(outcomeOf(result(2, 'tx parse error'))).toEqual({ ok: false, code: 2, log: 'tx parse error' });
  });

  it('is a failure for a reverted EVM execution (code 0 + ethereumTxFailed)', () => {
    expect(outcomeOf(result(0, '', [['ethereumTxFailed', 'execution reverted: nope']]))).toEqual({ ok: false, code: 0, log: 'execution reverted: nope' });
    expect(outcomeOf(result(0, '', [['ethereumTxFailed', '']]))).toEqual({ ok: false, code: 0, log: 'execution reverted' });
  });
});

describe('chainNameOf', () => {
  it('takes the name part of a Cosmos chain id', () => {
    expect(chainNameOf('chainlet_9000-1')).toBe('chainlet');
    expect(chainNameOf('Evmos_9001-2')).toBe('evmos');
    expect(chainNameOf('solo')).toBe('solo');
  });
});
