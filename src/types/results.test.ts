import { describe, expect, it } from 'vitest';
import type { ExecTxResult } from '../abci/types.js';
import { toHexUpper, utf8 } from '../crypto/encoding.js';
import { merkleRoot } from '../crypto/merkle.js';
import { encodeDeterministicExecTxResult } from './proto.js';
import { lastResultsHash } from './results.js';

function result(r: Partial<ExecTxResult>): ExecTxResult {
  return { code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 0, gasUsed: 0, events: [], codespace: '', ...r };
}

describe('lastResultsHash', () => {
  it('is sha256("") for no results', () => {
    expect(toHexUpper(lastResultsHash([]))).toBe('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855');
  });

  it('matches a real block whose one tx succeeded with no data or gas (empty leaf)', () => {
    const r = result({ log: 'ok', events: [{ type: 'app', attributes: [{ key: 'k', value: 'v', index: true }] }] });
    expect(toHexUpper(lastResultsHash([r]))).toBe('6E340B9CFFB37A989CA544E6BB780A2C78901D3FB33738768511A30617AFA01D');
  });

  it('covers code, data, gas_wanted and gas_used but not log, info, events or codespace', () => {
    const base = result({ code: 1, data: utf8('d'), gasWanted: 100, gasUsed: 90 });
    const h = lastResultsHash([base]);
    expect(h).toEqual(merkleRoot([encodeDeterministicExecTxResult(base)]));
    const otherFields: ExecTxResult = { ...base, log: 'x', info: 'y', codespace: 'z', events: [{ type: 't', attributes: [] }] };
    expect(lastResultsHash([otherFields])).toEqual(h);
    for (const change of [{ code: 2 }, { data: utf8('e') }, { gasWanted: 101 }, { gasUsed: 91 }]) {
      expect(lastResultsHash([{ ...base, ...change }])).not.toEqual(h);
    }
  });
});
