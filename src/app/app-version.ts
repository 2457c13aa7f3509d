/** The package version that Info reports, read once from the nearest package.json named "chainlet". */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function packageVersion(): string {
  if (cached !== undefined) return cached;
  cached = '0.0.0';
  // Works from src/app (tsx, vitest) and from dist/app (built) alike.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'chainlet' && typeof pkg.version === 'string') {
        cached = pkg.version;
        break;
      }
    } catch {
      // no package.json here: keep walking up
    }
    dir = dirname(dir);
  }
  return cached;
}
