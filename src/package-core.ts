/**
 * What the build bundles into dist/chainlet.cjs (scripts/bundle.mjs): the public API, and the
 * command line, which is evaluated only when the `chainlet` command asks for it.
 */
export * from './index.js';

export function loadCli(): Promise<typeof import('./cli/program.js')> {
  return import('./cli/program.js');
}
