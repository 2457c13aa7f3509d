/**
 * Hooks on one EVM instance's opcode table (each ethereumjs EVM builds its own, so changing it
 * touches no other EVM, least of all the app's block executor, which shares only the interpreter
 * shortcuts of src/app/interpreter/):
 *
 * - a time guard on JUMPDEST, the head of every loop: a countdown, and every 256 JUMPDESTs a
 *   clock read. Past the deadline it throws EvmTimeoutError; after a 20 ms slice it swaps in an
 *   async JUMPDEST that yields to the event loop once (setImmediate), so one endless loop
 *   never stops the node from answering other requests. A normal call pays one decrement per
 *   JUMPDEST.
 * - gas tracking for estimation, swapped in only for the tracked run: SSTORE's gas function and
 *   the CALL/CREATE family's handlers report to a GasTracker, and GAS, BALANCE, SELFBALANCE and
 *   SELFDESTRUCT tell it the path may depend on the limit.
 * - the jump-analysis cache (jump-cache.ts) and the fast opcode loop (fast-loop.ts), enabled for
 *   this EVM and installed from the first interpreter the JUMPDEST handler sees; cheaper handlers
 *   for hot opcodes (fast-ops.ts).
 *
 * ethereumjs keeps the table in the private `_opcodeMap`; `OpEntry` below is the shape we rely on.
 */
import type { EVM } from '@ethereumjs/evm';
import type { Common } from '@ethereumjs/common';
import type { GasTracker } from './gas-tracker.js';
import { enableShortcuts, installShortcuts } from '../interpreter/fast-evm.js';

interface OpInfo {
  readonly code: number;
  readonly isAsync: boolean;
}

interface RunState {
  interpreter: { getGasLeft(): bigint };
  stack: { peek(n?: number): bigint[] };
  messageGasLimit?: bigint;
}

type OpHandler = (rs: RunState, common: Common) => unknown;
type GasHandler = (rs: RunState, gas: bigint, common: Common) => Promise<bigint>;

interface OpEntry {
  opcodeInfo: OpInfo;
  opHandler: OpHandler;
  gasHandler?: GasHandler;
}

/** Thrown out of the EVM when a call runs past `evm-timeout`. */
export class EvmTimeoutError extends Error {
  override name = 'EvmTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`execution aborted (timeout = ${timeoutMs}ms)`);
  }
}

const JUMPDEST = 0x5b;
const SSTORE = 0x55;
const GAS = 0x5a;
// BALANCE, SELFBALANCE, and SELFDESTRUCT (whose cost depends on the dying account's balance:
// 25 000 more for an empty beneficiary only when there is something to send).
const BALANCE_OPS = [0x31, 0x47, 0xff] as const;
const CALL_OPS = [0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa] as const;
const VALUE_CALLS = new Set([0xf1, 0xf2]);
const CREATES = new Set([0xf0, 0xf5]);
const CHECK_EVERY = 256;
const SLICE_MS = 20;

export class EvmHooks {
  private deadline = Infinity;
  private timeoutMs = 0;
  private sliceEnd = Infinity;
  private countdown = CHECK_EVERY;
  private readonly jumpdest: OpEntry;
  private readonly syncInfo: OpInfo;
  private readonly syncHandler: OpHandler;
  private readonly yieldInfo: OpInfo;
  private readonly yieldHandler: OpHandler;
  private readonly trackedOriginals = new Map<number, OpEntry>();
  private readonly map: OpEntry[];
  private tracker: GasTracker | undefined;

  constructor(evm: EVM) {
    const map = (evm as unknown as { _opcodeMap: OpEntry[] })._opcodeMap;
    this.jumpdest = map[JUMPDEST]!;
    const original = this.jumpdest.opHandler;
    this.syncInfo = this.jumpdest.opcodeInfo;
    this.yieldInfo = Object.freeze({ ...this.syncInfo, isAsync: true });
    let cacheInstalled = false;
    this.syncHandler = (rs, common) => {
      if (!cacheInstalled) {
        // The first JUMPDEST of the first call: from then on this EVM's frames reuse analyses.
        installShortcuts(rs.interpreter);
        cacheInstalled = true;
      }
      if (--this.countdown > 0) return original(rs, common);
      this.countdown = CHECK_EVERY;
      this.checkClock();
      return original(rs, common);
    };
    this.yieldHandler = async (rs, common) => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.jumpdest.opcodeInfo = this.syncInfo;
      this.jumpdest.opHandler = this.syncHandler;
      this.sliceEnd = performance.now() + SLICE_MS;
      if (performance.now() > this.deadline) throw new EvmTimeoutError(this.timeoutMs);
      return original(rs, common);
    };
    this.jumpdest.opHandler = this.syncHandler;
    enableShortcuts(evm);
    for (const op of CALL_OPS) this.trackedOriginals.set(op, { ...map[op]! });
    for (const op of [SSTORE, GAS, ...BALANCE_OPS]) this.trackedOriginals.set(op, { ...map[op]! });
    this.map = map;
  }

  /** Starts the clock for one execution (0 = no deadline, yielding still on). */
  arm(timeoutMs: number): void {
    const now = performance.now();
    this.timeoutMs = timeoutMs;
    this.deadline = timeoutMs > 0 ? now + timeoutMs : Infinity;
    this.sliceEnd = now + SLICE_MS;
    this.countdown = CHECK_EVERY;
    this.jumpdest.opcodeInfo = this.syncInfo;
    this.jumpdest.opHandler = this.syncHandler;
  }

  /** Routes SSTORE and CALL/CREATE through `tracker` (undefined: the plain handlers). */
  track(tracker: GasTracker | undefined): void {
    if (tracker === this.tracker) return;
    this.tracker = tracker;
    for (const [op, orig] of this.trackedOriginals) {
      const entry = this.map[op]!;
      if (tracker === undefined) {
        entry.opHandler = orig.opHandler;
        entry.gasHandler = orig.gasHandler;
      } else if (op === SSTORE) {
        const gasFn = orig.gasHandler!;
        entry.gasHandler = (rs, gas, common) => {
          tracker.onSstore(rs.interpreter.getGasLeft());
          return gasFn(rs, gas, common);
        };
      } else if (op === GAS) {
        entry.opHandler = (rs, common) => {
          tracker.sawGas = true;
          return orig.opHandler(rs, common);
        };
      } else if ((BALANCE_OPS as readonly number[]).includes(op)) {
        entry.opHandler = (rs, common) => {
          tracker.sawBalance = true;
          return orig.opHandler(rs, common);
        };
      } else {
        entry.opHandler = wrapCall(op, orig.opHandler, tracker);
      }
    }
  }

  private checkClock(): void {
    const now = performance.now();
    if (now > this.deadline) throw new EvmTimeoutError(this.timeoutMs);
    if (now > this.sliceEnd) {
      // The next JUMPDEST yields once, then the sync handler is back.
      this.jumpdest.opcodeInfo = this.yieldInfo;
      this.jumpdest.opHandler = this.yieldHandler;
    }
  }
}

function wrapCall(op: number, orig: OpHandler, tracker: GasTracker): OpHandler {
  return async (rs, common) => {
    const avail = rs.interpreter.getGasLeft();
    const given = rs.messageGasLimit ?? 0n;
    let stipend = 0n;
    if (VALUE_CALLS.has(op) && rs.stack.peek(3)[2] !== 0n) {
      stipend = common.param('callStipendGas');
      tracker.sawBalance = true;
    } else if (CREATES.has(op) && rs.stack.peek(1)[0] !== 0n) {
      tracker.sawBalance = true;
    }
    tracker.enterCall({ avail, given, stipend });
    try {
      await orig(rs, common);
    } catch (e) {
      tracker.exitCall(avail + stipend, true);
      throw e;
    }
    tracker.exitCall(rs.interpreter.getGasLeft(), rs.stack.peek(1)[0] === 0n);
  };
}
