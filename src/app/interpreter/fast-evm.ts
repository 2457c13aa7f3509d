/**
 * The interpreter shortcuts (fast-loop.ts, jump-cache.ts, fast-ops.ts) for an EVM without the call
 * EVMs' hooks: the block executor's. They do what ethereumjs does, more cheaply (the fuzz and
 * differential tests run both); for an ERC20 transfer the interpreter's share of a block drops by
 * about two thirds.
 *
 * The loop and the jump cache are installed once per process on ethereumjs's internal Interpreter
 * prototype, which the package does not export: from the first interpreter an opcode handler sees,
 * here a JUMPDEST handler that steps aside after its first run.
 */
import type { Common } from '@ethereumjs/common';
import type { EVM } from '@ethereumjs/evm';
import { enableFastLoop, installFastLoop } from './fast-loop.js';
import { installFastOps } from './fast-ops.js';
import { enableJumpCache, installJumpCache } from './jump-cache.js';

interface OpEntry {
  opHandler: (rs: { interpreter: object }, common: Common) => unknown;
}

const JUMPDEST = 0x5b;

/** Lets `evm` use the shortcuts; the loop and the jump cache act once `installShortcuts` has run. */
export function enableShortcuts(evm: EVM): void {
  enableJumpCache(evm);
  enableFastLoop(evm);
  installFastOps(evm);
}

/** Installs the loop and the jump cache on the Interpreter prototype of `interpreter` (once per process). */
export function installShortcuts(interpreter: object): void {
  installJumpCache(interpreter);
  installFastLoop(interpreter);
}

/** The shortcuts for an EVM without the call EVMs' hooks, installed from its first JUMPDEST. */
export function speedUpEvm(evm: EVM): void {
  enableShortcuts(evm);
  const entry = (evm as unknown as { _opcodeMap: OpEntry[] })._opcodeMap[JUMPDEST]!;
  const original = entry.opHandler;
  const installOnce: OpEntry['opHandler'] = (rs, common) => {
    installShortcuts(rs.interpreter);
    if (entry.opHandler === installOnce) entry.opHandler = original;
    return original(rs, common);
  };
  entry.opHandler = installOnce;
}
