import { describe, expect, it } from 'vitest';
import { advance, initialStatus, isTerminal, type StatusTimeouts } from './tx-status.js';

const t: StatusTimeouts = { submittedMs: 1000, stalledMs: 5000 };

describe('tx status state machine', () => {
  it('starts SUBMITTED and stays so while unseen within the timeout', () => {
    const s0 = initialStatus(0);
    expect(s0.state).toBe('STATE_SUBMITTED');
    expect(advance(s0, { kind: 'unseen' }, 999, t).state).toBe('STATE_SUBMITTED');
  });

  it('abandons a tx never seen in a block after submittedMs', () => {
    const s = advance(initialStatus(0), { kind: 'unseen' }, 1000, t);
    expect(s.state).toBe('STATE_ABANDONED');
    expect(s.error?.type).toBe('STATUS_ERROR_UNKNOWN');
    expect(s.error?.message).toContain('1s');
  });

  it('completes with success straight from SUBMITTED when the result is known', () => {
    const s = advance(initialStatus(0), { kind: 'included', height: 7, outcome: { ok: true, code: 0, log: '' } }, 10, t);
    expect(s).toMatchObject({ state: 'STATE_COMPLETED_SUCCESS', height: 7, seenAt: 10, error: null });
  });

  it('completes with an execution error carrying the chain log and code', () => {
    const s = advance(initialStatus(0), { kind: 'included', height: 3, outcome: { ok: false, code: 0, log: 'execution reverted' } }, 10, t);
    expect(s.state).toBe('STATE_COMPLETED_ERROR');
    expect(s.error).toEqual({
      type: 'STATUS_ERROR_TRANSACTION_EXECUTION',
      message: 'execution reverted',
      details: { code: 0, message: 'execution reverted' },
    });
  });

  it('goes PENDING while the block is known but not its result, then completes', () => {
    const p = advance(initialStatus(0), { kind: 'included', height: 4 }, 100, t);
    expect(p).toMatchObject({ state: 'STATE_PENDING', height: 4, seenAt: 100 });
    // Seen once: the submitted timeout no longer applies.
    const still = advance(p, { kind: 'unseen' }, 2000, t);
    expect(still.state).toBe('STATE_PENDING');
    const done = advance(still, { kind: 'included', height: 4, outcome: { ok: false, code: 5, log: 'out of gas' } }, 2100, t);
    expect(done.state).toBe('STATE_COMPLETED_ERROR');
    expect(done.seenAt).toBe(100);
  });

  it('abandons a PENDING tx after stalledMs without a result', () => {
    const p = advance(initialStatus(0), { kind: 'included', height: 4 }, 100, t);
    const s = advance(p, { kind: 'included', height: 4 }, 5100, t);
    expect(s.state).toBe('STATE_ABANDONED');
    expect(s.error?.type).toBe('STATUS_ERROR_INDEXING');
  });

  it('never leaves a terminal state', () => {
    const done = advance(initialStatus(0), { kind: 'included', height: 1, outcome: { ok: true, code: 0, log: '' } }, 1, t);
    expect(advance(done, { kind: 'unseen' }, 1e9, t)).toBe(done);
    const abandoned = advance(initialStatus(0), { kind: 'unseen' }, 5000, t);
    expect(advance(abandoned, { kind: 'included', height: 2, outcome: { ok: true, code: 0, log: '' } }, 5001, t)).toBe(abandoned);
    expect(['STATE_SUBMITTED', 'STATE_PENDING'].map((s) => isTerminal(s as never))).toEqual([false, false]);
  });
});
