/**
 * Bundles the tsc output into the two files a user loads, in place: dist/index.js (`import
 * 'chainlet'`) and dist/cli/main.js (the `chainlet` command), with shared code in dist/chunks/. Loading ~560
 * small ES modules cost ~300 ms of resolution, file reads and compilation at each start; one bundle
 * loads in about half that. Native addons and CommonJS packages that load files or workers at run
 * time (pino's transports, protobufjs, ws's optional addons) stay external and resolve from
 * node_modules as before. The rest of tsc's output stays in dist/ beside the type declarations; nothing loads it.
 * Run after tsc (npm run build does both): the two entries are overwritten.
 */
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));

const external = ['classic-level', 'secp256k1', '@trufflesuite/uws-js-unofficial', 'pino', 'protobufjs', 'ws', 'litesvm'];
for (const name of external) if (!pkg.dependencies[name]) throw new Error(`bundle: external ${name} is not a dependency`);

rmSync(`${root}/dist/chunks`, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { index: 'dist/index.js', 'cli/main': 'dist/cli/main.js' },
  allowOverwrite: true,
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  sourcemap: 'linked',
  // Bundled CommonJS dependencies call require() for Node built-ins.
  banner: { js: "import { createRequire as __chainletRequire } from 'node:module'; const require = __chainletRequire(import.meta.url);" },
  logLevel: 'warning',
});
