import { describe, expect, it } from 'vitest';
import type { EventMessage } from '../events/types.js';
import type { SvmTxRecord } from '../svm/history.js';
import { txLine } from '../chains/comet-activity.js';
import { svmTxLine } from '../chains/svm/activity.js';
import { formatBlockLine, formatTxLine } from './activity-log.js';

describe('activity log lines on a terminal', () => {
  it('a tx line names hash, from, to, gas, status and block', () => {
    const line = formatTxLine({
      hash: '0xab',
      from: '0x01',
      to: undefined,
      creation: true,
      gasUsed: 53000,
      status: 'failed',
      error: 'execution reverted',
      block: 7,
    });
    expect(line).toBe('  tx 0xab  from 0x01 to contract creation  gas 53000  FAILED (execution reverted)  block 7');
    expect(formatTxLine({ hash: '0xcd', from: '0x01', to: '0x02', gasUsed: 21000, status: 'success', block: 8 })).toContain('gas 21000  ok  block 8');
  });

  it('a block line names height, hash, txs, gas and time', () => {
    expect(formatBlockLine({ height: 3, hash: 'A'.repeat(64), txs: 1, gasUsed: 21000, time: '2026-11-24T20:00:00.000000000Z' })).toBe(
      `block 3  ${'A'.repeat(16)}…  1 tx  gas 21000  2026-11-24T20:00:00.000000000Z`,
    );
  });
});

describe('tx lines of Cosmos txs', () => {
  const msg = (code: number, events: Record<string, string[]>) =>
    ({
      data: {
        type: 'Tx',
        value: { txResult: { height: 4, index: 0, tx: new Uint8Array(0), result: { code, log: code ? 'insufficient funds' : '', gasUsed: 60000 } } },
      },
      events: { 'tx.hash': ['AB'], ...events },
    }) as unknown as EventMessage;
  const fee = { 'tx.fee': ['5000uhub'], 'tx.fee_payer': ['hub1sender'], 'transfer.recipient': ['hub1feecollector'] };

  it('name the recipient of the message, not the fee collector', () => {
    const l = txLine(msg(0, { ...fee, 'message.sender': ['hub1sender'], 'transfer.recipient': ['hub1feecollector', 'hub1recipient'] }))!;
    expect(l).toMatchObject({ hash: 'AB', from: 'hub1sender', to: 'hub1recipient', status: 'success' });
    expect(formatTxLine(l)).toBe('  tx AB  from hub1sender to hub1recipient  gas 60000  ok  block 4');
  });

  it('a failed one names its sender (the fee payer) and no recipient', () => {
    const l = txLine(msg(5, fee))!;
    expect(l).toMatchObject({ from: 'hub1sender', to: undefined, status: 'failed', error: 'insufficient funds' });
    expect(formatTxLine(l)).toBe('  tx AB  from hub1sender  gas 60000  FAILED (insufficient funds)  block 4');
  });
});

describe('tx lines of the SVM chain', () => {
  it('name the fee payer and the account whose lamports rose', () => {
    const r = {
      signature: 'sig',
      slot: 9n,
      blockTime: 0n,
      wire: new Uint8Array(0),
      fee: 5000n,
      accountKeys: ['payer', 'dest', '11111111111111111111111111111111'],
      preBalances: [10n, 0n, 1n],
      postBalances: [4n, 1n, 1n],
      logs: [],
      computeUnits: 150n,
      err: null,
      changed: ['payer', 'dest'],
    } as SvmTxRecord;
    expect(svmTxLine(r)).toEqual({ hash: 'sig', from: 'payer', to: 'dest', gasUsed: 150, status: 'success', block: 9 });
    expect(svmTxLine({ ...r, postBalances: [9n, 0n, 1n], err: { InstructionError: [0, 'Custom'] } as never, changed: ['payer'] })).toMatchObject({
      to: undefined,
      status: 'failed',
      error: '{"InstructionError":[0,"Custom"]}',
    });
  });
});
