/**
 * The status state machine of a submitted or tracked tx, as a pure function of what the chain
 * shows and the time, so every transition is testable without a node:
 *
 *   STATE_SUBMITTED ──(in a block, result known)──────────────> STATE_COMPLETED_SUCCESS | _ERROR
 *        │      └────(in a block, result not known yet)─> STATE_PENDING ──(result)──┘
 *        │                                                      │
 *        └─(not in a block within submittedMs)─> STATE_ABANDONED <─(no result within stalledMs)
 *
 * "Seen on chain" means included in a committed block (a tx waiting in the mempool is still
 * SUBMITTED, as in the Skip Go API). A single-chain tx initiates no transfers, so once its result
 * is known it is complete; PENDING covers the window in which a block is known but its result is
 * not yet indexed, and is where cross-chain transfers will wait. Terminal states never change.
 */

export type TxState = 'STATE_SUBMITTED' | 'STATE_PENDING' | 'STATE_COMPLETED_SUCCESS' | 'STATE_COMPLETED_ERROR' | 'STATE_ABANDONED';

export type StatusErrorType = 'STATUS_ERROR_UNKNOWN' | 'STATUS_ERROR_TRANSACTION_EXECUTION' | 'STATUS_ERROR_INDEXING' | 'STATUS_ERROR_TRANSFER';

export interface StatusError {
  type: StatusErrorType;
  message: string;
  details?: { code: number; message: string };
}

/** The result of a tx in its block: `ok` false for a non-zero code or a reverted EVM execution. */
export interface TxOutcome {
  ok: boolean;
  code: number;
  log: string;
}

export type Observation =
  /** In no committed block (it may be in the mempool, or unknown to the node). */
  | { kind: 'unseen' }
  /** In a committed block; `outcome` undefined while the result is not available yet. */
  | { kind: 'included'; height: number; outcome?: TxOutcome };

export interface TrackedStatus {
  state: TxState;
  /** Monotonic ms when submit/track registered the tx. */
  registeredAt: number;
  /** Monotonic ms when the tx was first seen in a block. */
  seenAt?: number;
  height?: number;
  error: StatusError | null;
}

export interface StatusTimeouts {
  /** Not in a block this long after registration → abandoned (Skip: 5 min). */
  submittedMs: number;
  /** In a block but no result this long after first seen → abandoned (Skip: 10 min). */
  stalledMs: number;
}

export function isTerminal(s: TxState): boolean {
  return s === 'STATE_COMPLETED_SUCCESS' || s === 'STATE_COMPLETED_ERROR' || s === 'STATE_ABANDONED';
}

export function initialStatus(registeredAt: number): TrackedStatus {
  return { state: 'STATE_SUBMITTED', registeredAt, error: null };
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10}s`;
}

function completed(prev: TrackedStatus, height: number, seenAt: number, o: TxOutcome): TrackedStatus {
  if (o.ok) return { ...prev, state: 'STATE_COMPLETED_SUCCESS', height, seenAt, error: null };
  const message = o.log || `tx failed with code ${o.code}`;
  return {
    ...prev,
    state: 'STATE_COMPLETED_ERROR',
    height,
    seenAt,
    error: { type: 'STATUS_ERROR_TRANSACTION_EXECUTION', message, details: { code: o.code, message } },
  };
}

/** The next status given the latest observation at monotonic time `now`. */
export function advance(prev: TrackedStatus, obs: Observation, now: number, t: StatusTimeouts): TrackedStatus {
  if (isTerminal(prev.state)) return prev;
  if (obs.kind === 'included') {
    const seenAt = prev.seenAt ?? now;
    if (obs.outcome) return completed(prev, obs.height, seenAt, obs.outcome);
    if (now - seenAt >= t.stalledMs) {
      return {
        ...prev,
        state: 'STATE_ABANDONED',
        height: obs.height,
        seenAt,
        error: { type: 'STATUS_ERROR_INDEXING', message: `tracking abandoned: no result for the tx within ${seconds(t.stalledMs)} of its block` },
      };
    }
    return { ...prev, state: 'STATE_PENDING', height: obs.height, seenAt, error: null };
  }
  if (prev.state === 'STATE_PENDING') {
    // Seen before, not visible now (e.g. a brief store lag): keep waiting, on the stalled clock.
    return advance(prev, { kind: 'included', height: prev.height ?? 0 }, now, t);
  }
  if (now - prev.registeredAt >= t.submittedMs) {
    return {
      ...prev,
      state: 'STATE_ABANDONED',
      error: { type: 'STATUS_ERROR_UNKNOWN', message: `tracking abandoned: tx not seen in a block within ${seconds(t.submittedMs)}` },
    };
  }
  return prev;
}
