import { describe, expect, it } from 'vitest';
import { formatBlockLine, formatTxLine } from './activity-log.js';

describe('activity log lines on a terminal', () => {
  it('a tx line names hash, from, to, gas, status and block', () => {
    const line = formatTxLine({ hash: '0xab', from: '0x01', to: undefined, gasUsed: 53000, status: 'failed', error: 'execution reverted', block: 7 });
    expect(line).toBe('  tx 0xab  from 0x01 to contract creation  gas 53000  FAILED (execution reverted)  block 7');
    expect(formatTxLine({ hash: '0xcd', from: '0x01', to: '0x02', gasUsed: 21000, status: 'success', block: 8 })).toContain('gas 21000  ok  block 8');
  });

  it('a block line names height, hash, txs, gas and time', () => {
    expect(formatBlockLine({ height: 3, hash: 'A'.repeat(64), txs: 1, gasUsed: 21000, time: '2026-11-24T20:00:00.000000000Z' })).toBe(
      `block 3  ${'A'.repeat(16)}…  1 tx  gas 21000  2026-11-24T20:00:00.000000000Z`,
    );
  });
});
