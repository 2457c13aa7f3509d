/**
 * Bundles the tsc output into what a user loads, in place. Everything `import('chainlet')` and the
 * `chainlet` command run is one CommonJS script, dist/chainlet.cjs, which dist/core-loader.js
 * compiles with a V8 code cache written here (scripts/warm-code-cache.mjs runs a start in a child
 * process and saves the bytecode it compiled). dist/index.js and dist/cli/main.js become two small
 * ES modules over that loader. Loading ~560 small ES modules cost ~300 ms at each start; ES-module
 * chunks about half that. The one script, holding everything, parses slower than those chunks did;
 * with its cache (Node 20 has no compile cache for ES modules) the import is a little faster than
 * theirs and a start's first `startNode()` ≈ 25 ms faster (docs/benchmarks.md). Code a start does
 * not need stays in the script unevaluated until first use (esbuild keeps each lazily imported
 * module behind its own init function). Native addons and CommonJS packages that load files or
 * workers at run time (pino's transports, ws's optional addons) stay external and resolve from
 * node_modules as before; protobufjs is bundled (only its minimal runtime is used). The rest of
 * tsc's output stays in dist/ beside the type declarations; nothing loads it.
 * Run after tsc (npm run build does both): the two entries are overwritten.
 */
import { parse } from 'acorn';
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { applyUpstreamEdit, UPSTREAM_EDITS } from './upstream-edits.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));

// cosmjs-types (≈ 1.2 MB of generated codecs) stays external too: the Cosmos face, IBC and the hub
// load it on first use (src/codec/cosmjs-types.ts), so `import('chainlet')` and a start do not
// compile it. The check after the build keeps it off the entries' static import graphs.
const external = ['classic-level', 'secp256k1', '@trufflesuite/uws-js-unofficial', 'pino', 'ws', 'cosmjs-types'];
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

/** The public API's names, read from tsc's dist/index.js before the wrapper replaces it. */
function publicExports() {
  const ast = parse(readFileSync(`${root}/dist/index.js`, 'utf8'), { ecmaVersion: 'latest', sourceType: 'module' });
  const names = [];
  for (const node of ast.body) {
    if (node.type === 'ExportAllDeclaration') throw new Error('bundle: src/index.ts must name its exports (no export *): the ES module wrapper lists them');
    if (node.type === 'ExportNamedDeclaration') for (const spec of node.specifiers) names.push(spec.exported.name);
  }
  if (names.length === 0) throw new Error('bundle: dist/index.js exports nothing; run tsc first');
  return names;
}
const apiNames = publicExports();

/**
 * litesvm's JavaScript is bundled (so it is under the code cache), its native loader is not: that
 * file picks the platform's binary package at run time, so the bundle requires it from
 * node_modules. Its `require('@solana/kit')` gets the ES build our own imports bundle, not a second
 * copy of @solana/kit in CommonJS.
 */
const litesvmParts = {
  name: 'litesvm-parts',
  setup(b) {
    b.onResolve({ filter: /^\.\/internal$/ }, (args) =>
      /[\\/]litesvm[\\/]dist[\\/]index\.js$/.test(args.importer) ? { path: 'litesvm/dist/internal.js', external: true } : undefined,
    );
    b.onResolve({ filter: /^@solana\/kit$/ }, (args) =>
      args.kind === 'require-call' ? b.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir }) : undefined,
    );
  },
};

rmSync(`${root}/dist/chunks`, { recursive: true, force: true });
for (const f of readdirSync(`${root}/dist`)) if (f.endsWith('.v8cache')) rmSync(`${root}/dist/${f}`);
/** tsc's output of src/package-core.ts: the root of the bundle. */
const ENTRY = 'dist/package-core.js';
// A new id each build names the code cache (scripts/core-loader.mjs): a cache never meets another build.
const buildId = randomBytes(8).toString('hex');
const result = await build({
  absWorkingDir: root,
  entryPoints: [ENTRY],
  outfile: 'dist/chainlet.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external,
  // The script is compiled by vm.Script, which has no loader for import(): the external packages
  // loaded on first use (all CommonJS) are required instead.
  supported: { 'dynamic-import': false },
  define: { 'import.meta.url': '__chainletModuleUrl' },
  banner: { js: `// chainlet build ${buildId}\nvar __chainletModuleUrl = require('node:url').pathToFileURL(__filename).href;` },
  sourcemap: 'linked',
  logLevel: 'warning',
  // protobufjs's `inquire` finds optional modules with a direct eval of `require`; it works in the bundle.
  logOverride: { 'direct-eval': 'silent' },
  metafile: true,
  plugins: [upstreamEdits, litesvmParts],
});

// A package in `lazyOnly` must not be reachable through static imports from the entry: report the chain.
const inputs = result.metafile.inputs;
const from = new Map([[ENTRY, '']]);
const queue = [ENTRY];
while (queue.length > 0) {
  const mod = queue.shift();
  for (const im of inputs[mod]?.imports ?? []) {
    if (im.kind !== 'import-statement') continue;
    if (im.external) {
      if (!lazyOnly.some((p) => im.path === p || im.path.startsWith(`${p}/`))) continue;
      const chain = [im.path];
      for (let m = mod; m; m = from.get(m)) chain.unshift(m);
      throw new Error(`bundle: ${im.path} must be loaded on first use, but ${ENTRY} imports it statically: ${chain.join(' -> ')}`);
    }
    if (!from.has(im.path)) {
      from.set(im.path, mod);
      queue.push(im.path);
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
for (const file of Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.cjs'))) {
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
    if (!inSafe || source[at - 1] === '\\')
      throw new Error(`bundle: ${file} has a non-ASCII character outside comments and regular expressions: ${source.slice(Math.max(0, at - 40), at + 10)}`);
    out += source.slice(last, at) + `\\u${m[0].charCodeAt(0).toString(16).padStart(4, '0')}`;
    last = at + 1;
  }
  writeFileSync(path, out + source.slice(last));
}

// The loader and the two entries over it.
copyFileSync(`${root}/scripts/core-loader.mjs`, `${root}/dist/core-loader.js`);
writeFileSync(
  `${root}/dist/index.js`,
  `/** Chainlet's public API, from the bundle (scripts/bundle.mjs). */\nimport { core } from './core-loader.js';\n\nexport const { ${apiNames.join(', ')} } = core;\n`,
);
writeFileSync(
  `${root}/dist/cli/main.js`,
  `#!/usr/bin/env node\n/** The \`chainlet\` command, from the bundle (scripts/bundle.mjs), with the command line's code cache. */\nglobalThis[Symbol.for('chainlet.entry')] = 'cli';\nconst { core } = await import('../core-loader.js');\nconst { runCli } = await core.loadCli();\nawait runCli(process.argv);\n`,
);
for (const stale of ['index.js.map', 'cli/main.js.map']) rmSync(`${root}/dist/${stale}`, { force: true });

// The code caches, the library's and the command line's. Without them everything works, only slower
// to load: a failure warns, it does not stop the build.
for (const entry of ['lib', 'cli']) {
  try {
    const out = execFileSync(process.execPath, [`${root}/scripts/warm-code-cache.mjs`, entry], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    const { bytes } = JSON.parse(out.trim().split('\n').at(-1));
    console.log(`bundle: ${entry} code cache ${(bytes / 1024).toFixed(0)} KiB`);
  } catch (err) {
    console.warn(`bundle: no ${entry} code cache written (loading compiles the bundle instead): ${err.stderr || err.message}`);
  }
}
