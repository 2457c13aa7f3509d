/** The package version and the CometBFT version we emulate. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version in the nearest package.json named "chainlet" above this module: the same answer from
 * src/ (tsx, vitest), from dist/ (tsc) and from the bundle's chunks (dist/chunks/).
 */
function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'chainlet' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no package.json here: keep walking up
    }
    dir = dirname(dir);
  }
  return '0.0.0';
}

export const VERSION: string = packageVersion();
/** `node_info.version`: cosmjs picks its v0.38 client when this starts with "0.38.". */
export const COMET_VERSION = '0.38.25';
export const P2P_PROTOCOL = 8;
export const BLOCK_PROTOCOL = 11;
