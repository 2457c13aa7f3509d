/**
 * Bundles the tsc output into the two files a user loads, in place: dist/index.js (`import
 * 'chainlet'`) and dist/cli/main.js (the `chainlet` command), with shared code in dist/chunks/. Loading ~560
 * small ES modules cost ~300 ms of resolution, file reads and compilation at each start; one bundle
 * loads in about half that. Native addons and CommonJS packages that load files or workers at run
 * time (pino's transports, protobufjs, ws's optional addons) stay external and resolve from
 * node_modules as before. The rest of tsc's output stays in dist/ beside the type declarations; nothing loads it.
 * Run after tsc (npm run build does both): the two entries are overwritten.
 */
import { parse } from 'acorn';
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { applyUpstreamEdit, UPSTREAM_EDITS } from './upstream-edits.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));

// cosmjs-types (≈ 1.2 MB of generated codecs) stays external too: the Cosmos face, IBC and the hub
// load it on first use (src/codec/cosmjs-types.ts), so `import('chainlet')` and a start do not
// compile it. The check after the build keeps it off the entries' static import graphs.
const external = ['classic-level', 'secp256k1', '@trufflesuite/uws-js-unofficial', 'pino', 'protobufjs', 'ws', 'litesvm', 'cosmjs-types'];
// pino loads only for a logger that is not silent (src/util/logger.ts).
const lazyOnly = ['cosmjs-types', 'pino'];
for (const name of external) if (!pkg.dependencies[name]) throw new Error(`bundle: external ${name} is not a dependency`);

/** Dependency files the bundle edits as it inlines them (why and what: scripts/upstream-edits.mjs). */
const upstreamEdits = {
  name: 'upstream-edits',
  setup(b) {
    for (const edit of UPSTREAM_EDITS) {
      b.onLoad({ filter: edit.file }, async (args) => ({ contents: applyUpstreamEdit(edit, readFileSync(args.path, 'utf8'), args.path), loader: 'js' }));
    }
  },
};

rmSync(`${root}/dist/chunks`, { recursive: true, force: true });
const result = await build({
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
  metafile: true,
  plugins: [upstreamEdits],
});

// A package in `lazyOnly` must not be reachable through static imports from an entry: report the chain.
const inputs = result.metafile.inputs;
for (const entry of ['dist/index.js', 'dist/cli/main.js']) {
  const from = new Map([[entry, '']]);
  const queue = [entry];
  while (queue.length > 0) {
    const mod = queue.shift();
    for (const im of inputs[mod]?.imports ?? []) {
      if (im.kind !== 'import-statement') continue;
      if (im.external) {
        if (!lazyOnly.some((p) => im.path === p || im.path.startsWith(`${p}/`))) continue;
        const chain = [im.path];
        for (let m = mod; m; m = from.get(m)) chain.unshift(m);
        throw new Error(`bundle: ${im.path} must be loaded on first use, but ${entry} imports it statically: ${chain.join(' -> ')}`);
      }
      if (!from.has(im.path)) {
        from.set(im.path, mod);
        queue.push(im.path);
      }
    }
  }
}

/**
 * Node decodes a module's source on a slower path when it holds any non-ASCII byte (≈ 10 ms over
 * the chunks a start loads). esbuild already writes strings and untagged templates in ASCII; what
 * is left gets `\u` escapes where they mean the same: in comments, and in regular expressions
 * (unless a backslash precedes the character). Anywhere else (a tagged template's raw text, say)
 * the build stops instead. acorn finds those places.
 */
for (const file of Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'))) {
  const path = `${root}/${file}`;
  const source = readFileSync(path, 'utf8');
  if (!/[^\x00-\x7f]/.test(source)) continue;
  const safe = [];
  parse(source, {
    ecmaVersion: 'latest',
    sourceType: 'module',
    onComment: (_block, _text, start, end) => safe.push([start, end]),
    onToken: (t) => {
      if (t.type.label === 'regexp') safe.push([t.start, t.end]);
    },
  });
  let out = '';
  let last = 0;
  for (const m of source.matchAll(/[^\x00-\x7f]/g)) {
    const at = m.index;
    const inSafe = safe.some(([a, b]) => at >= a && at < b);
    if (!inSafe || source[at - 1] === '\\') throw new Error(`bundle: ${file} has a non-ASCII character outside comments and regular expressions: ${source.slice(Math.max(0, at - 40), at + 10)}`);
    out += source.slice(last, at) + `\\u${m[0].charCodeAt(0).toString(16).padStart(4, '0')}`;
    last = at + 1;
  }
  writeFileSync(path, out + source.slice(last));
}
