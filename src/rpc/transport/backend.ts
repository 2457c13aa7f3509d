/**
 * Backend selection: node:http + ws by default; uWebSockets.js on request ('uws', or 'auto': uWS
 * when its native module loads, else node).
 *
 * node:http is the default because uWS's parser resets a connection whose request head is over
 * ~64 KiB (often right after our 414/431 is written, over ~128 KiB before our code runs), so those
 * requests could not be answered in the family's form; node:http answers every one (issue 33).
 *
 * The npm package silently swaps in its own pure-JS fallback when the binary does not match the
 * Node ABI; we load the binary ourselves instead, so that "uws" always means the native server
 * and the fallback is our own, tested node backend.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as UwsModule from '@trufflesuite/uws-js-unofficial';
import { BackendUnavailableError, InvalidBackendError } from './errors.js';
import type { BackendChoice, BackendName } from './types.js';

export type Uws = typeof UwsModule;

export const BACKEND_ENV = 'CHAINLET_HTTP_BACKEND';

const CHOICES: ReadonlySet<string> = new Set(['auto', 'uws', 'node']);

/** The native module is stateless, so one load per process is shared by every server. */
let cached: { uws: Uws } | { error: unknown } | undefined;

export function loadUws(): { uws: Uws } | { error: unknown } {
  if (cached) return cached;
  try {
    const require = createRequire(import.meta.url);
    const pkgDir = dirname(require.resolve('@trufflesuite/uws-js-unofficial/package.json'));
    const file = `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
    cached = { uws: require(join(pkgDir, 'binaries', file)) as Uws };
  } catch (error) {
    cached = { error };
  }
  return cached;
}

/** The environment variable wins over the option, so a test run can force either backend. */
export function resolveBackendChoice(option: BackendChoice | undefined, env = process.env): BackendChoice {
  const fromEnv = env[BACKEND_ENV];
  if (fromEnv !== undefined && fromEnv !== '') {
    const v = fromEnv.trim().toLowerCase();
    if (!CHOICES.has(v)) throw new InvalidBackendError(fromEnv, 'env');
    return v as BackendChoice;
  }
  const v = option ?? 'node';
  if (!CHOICES.has(v)) throw new InvalidBackendError(String(v), 'option');
  return v;
}

export interface SelectedBackend {
  name: BackendName;
  uws?: Uws;
  /** Why 'auto' fell back to node (for the log line). */
  fallbackReason?: string;
}

export function selectBackend(choice: BackendChoice): SelectedBackend {
  if (choice === 'node') return { name: 'node' };
  const loaded = loadUws();
  if ('uws' in loaded) return { name: 'uws', uws: loaded.uws };
  if (choice === 'uws') throw new BackendUnavailableError('uws', loaded.error);
  const reason = loaded.error instanceof Error ? loaded.error.message : String(loaded.error);
  return { name: 'node', fallbackReason: reason };
}
