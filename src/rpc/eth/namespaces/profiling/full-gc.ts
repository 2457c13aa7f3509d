/**
 * A function that runs a full garbage collection in any Node process. `global.gc` exists only
 * under `--expose-gc`, which `npm start` cannot pass; V8 lets a running process turn the flag on,
 * and a context created after that gets its own `gc`, which collects the whole isolate.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let cached: (() => void) | undefined;

export function fullGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  if (!cached) {
    setFlagsFromString('--expose-gc');
    cached = runInNewContext('gc') as () => void;
  }
  return cached;
}
