/**
 * A per-EVM cache of ethereumjs's jump-destination analysis. The interpreter analyses a contract's
 * whole code (valid JUMPDESTs, PUSH values, opcode table entries) at the first jump of every call
 * frame: for an ERC20 transfer that is ~5% of an eth_call and a good part of its garbage. Code
 * read through a StateReader is the same Uint8Array for every call at a height, so the analysis
 * can be kept per (EVM, code object); it only reads the code and the EVM's own opcode table.
 *
 * The analysis is a method of ethereumjs's internal Interpreter class, which the package does not
 * export: the hook is installed on its prototype from the first interpreter an opcode handler sees.
 * Only EVMs registered here use the cache (the call EVMs and the block executor's); every other
 * EVM (tracers, a reference-execution app) runs the original.
 */
import type { EVM } from '@ethereumjs/evm';

type Analysis = unknown;
interface InterpreterProto {
  _getValidJumpDestinations(this: { _evm: object }, code: Uint8Array): Analysis;
}

const caches = new WeakMap<object, WeakMap<Uint8Array, Analysis>>();
let installed = false;

/** Lets `evm` reuse analyses (effective once `installJumpCache` has run). */
export function enableJumpCache(evm: EVM): void {
  caches.set(evm, new WeakMap());
}

/** Installs the cache on the Interpreter prototype, once per process. */
export function installJumpCache(interpreter: object): void {
  if (installed) return;
  installed = true;
  const proto = Object.getPrototypeOf(interpreter) as InterpreterProto;
  const original = proto._getValidJumpDestinations;
  if (typeof original !== 'function') return;
  proto._getValidJumpDestinations = function (code) {
    const cache = caches.get(this._evm);
    if (cache === undefined) return original.call(this, code);
    let analysis = cache.get(code);
    if (analysis === undefined) {
      analysis = original.call(this, code);
      cache.set(code, analysis);
    }
    return analysis;
  };
}
