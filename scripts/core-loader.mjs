/**
 * Loads dist/chainlet.cjs, the bundle of everything `import('chainlet')` and the `chainlet` command
 * run, as one script compiled with the V8 code cache the build wrote beside it. Node 20 keeps no
 * compile cache for ES modules (`module.enableCompileCache` is Node 22), so each start would parse
 * and compile the bundle again; with the cache V8 deserializes the bytecode of the functions a start
 * runs instead. A cache V8 refuses (another Node or V8 version, other V8 flags) costs nothing but its
 * read: the script then compiles as usual. The build names the cache after the bundle's build id,
 * so a cache never meets another build's bundle. Copied to dist/ by scripts/bundle.mjs.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInThisContext, Script } from 'node:vm';

const file = fileURLToPath(new URL('./chainlet.cjs', import.meta.url));

/**
 * The size of the buffer the bundle and its cache are read into. glibc takes any block it had
 * mapped for an allocation and frees, up to 32 MiB, as its new mmap threshold, and keeps twice that
 * free at the top of each thread's arena from then on: the 4 MB buffer of the bundle, freed after
 * the load, let every thread arena keep up to 8.5 MB of V8's compiler memory (≈ 20 MB after a busy
 * run, of ~220 MB). A block over 32 MiB leaves the threshold alone; the pages past what is read are
 * never touched, so they take no memory.
 */
const PAST_MMAP_THRESHOLD_MAX = 33 * 1024 * 1024;

/**
 * `vm.Script` runs in Node's main context. A test runner that evaluates each test file in a context
 * of its own (Jest, Vitest's vm pools) loads this module in that context; the bundle must then be
 * loaded there too, or its objects would come from another realm (`instanceof Uint8Array`, `Object`
 * and `Error` would fail in the tests). There, the runner's own loader takes the bundle, without the
 * code cache.
 */
const mainRealm = runInThisContext('globalThis') === globalThis;

/**
 * Two caches: the library's (what `import('chainlet')`, a node and its transactions run) and the
 * command line's (a whole network and the CLI as well), since V8 deserializes a cache whole and
 * the library should not pay for the hub's and the SVM chain's bytecode. dist/cli/main.js sets
 * this mark before it imports the loader.
 */
const cacheSuffix = globalThis[Symbol.for('chainlet.entry')] === 'cli' ? '-cli' : '';

let script;
let cacheFile;
let codeCacheFrom;
let exports;
if (mainRealm) {
  // The build keeps the bundle ASCII, so latin1 is the same text without UTF-8 decoding. The bytes
  // are read between Node's CommonJS wrapper, into a buffer the cache is then read into as well:
  // the source is made flat in one copy (`Module.wrap` would make a rope V8 flattens again, ≈ 15 ms
  // here), and memory touched for the first time costs ≈ 3.5 ms a megabyte on a small VM (page
  // faults), more than the reading itself.
  const [head, tail] = Module.wrapper;
  const body = readInto(file, (size) => Buffer.from(new ArrayBuffer(Math.max(head.length + size + tail.length, PAST_MMAP_THRESHOLD_MAX)), head.length));
  const bytes = Buffer.from(body.buffer, 0, head.length + body.length + tail.length);
  bytes.write(head, 0, 'latin1');
  bytes.write(tail, head.length + body.length, 'latin1');
  const source = bytes.latin1Slice(0, bytes.length);
  const buildId = /^\/\/ chainlet build ([0-9a-f]+)/.exec(source.slice(head.length, head.length + 64))?.[1];
  let local;
  let cachedData;
  let from;
  if (buildId !== undefined) {
    cacheFile = `${dirname(file)}/chainlet-${buildId}${cacheSuffix}.v8cache`;
    local = localCacheFile(buildId);
    if (process.env.CHAINLET_CODE_CACHE !== 'off') {
      // A local cache exists only where the build's was refused (other V8 flags): it comes first.
      [from, cachedData] = ['local', readIfThere(local, bytes.buffer)];
      if (cachedData === undefined) [from, cachedData] = ['build', readIfThere(cacheFile, bytes.buffer)];
    }
  }
  script = new Script(source, { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  exports = module.exports;
  if (cachedData !== undefined) {
    if (script.cachedDataRejected) writeLocalCacheAtExit(script, local);
    else codeCacheFrom = from;
  }
} else {
  exports = (await import('./chainlet.cjs')).default;
}

/**
 * Any V8 flag (`--max-old-space-size` in NODE_OPTIONS, say) makes V8 refuse the build's cache. For
 * those flags the process writes a cache of its own when it exits, in the system's temporary folder
 * (as v8-compile-cache did), keyed by the build, the Node version and the flags; the next process
 * with the same flags reads it. Written once per flag set, unless V8 refuses it too.
 */
function localCacheFile(buildId) {
  const flags = createHash('sha256')
    .update(`${process.version}\n${process.execArgv.join(' ')}\n${process.env.NODE_OPTIONS ?? ''}`)
    .digest('hex')
    .slice(0, 16);
  return join(process.env.CHAINLET_CODE_CACHE_DIR || join(tmpdir(), 'chainlet-code-cache'), `chainlet-${buildId}${cacheSuffix}-${flags}.v8cache`);
}

/** The file's bytes, read into the start of `bufferFor(size)` (memory the caller may already have touched). */
function readInto(path, bufferFor) {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    return readAll(fd, bufferFor(size).subarray(0, size));
  } finally {
    closeSync(fd);
  }
}

/** The file's bytes, in `reuse` when they fit; undefined if it cannot be read. */
function readIfThere(path, reuse) {
  try {
    return readInto(path, (size) => (size <= reuse.byteLength ? Buffer.from(reuse, 0, size) : Buffer.allocUnsafeSlow(size)));
  } catch {
    return undefined;
  }
}

/** Fills `buf` from the start of the file (shorter if the file is). */
function readAll(fd, buf) {
  let n = 0;
  while (n < buf.length) {
    const got = readSync(fd, buf, n, buf.length - n, n);
    if (got === 0) break;
    n += got;
  }
  return buf.subarray(0, n);
}

function writeLocalCacheAtExit(compiled, path) {
  process.once('exit', () => {
    try {
      mkdirSync(dirname(path), { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, compiled.createCachedData());
      renameSync(tmp, path);
    } catch {
      // A read-only or full disk: the next process compiles, as this one did.
    }
  });
}

/** The bundle's exports: the public API and `loadCli`. */
export const core = exports;

/** Which cache V8 took: the build's, one this machine wrote for other V8 flags, or none (none, refused, or loaded by a test runner's own loader). */
export const codeCacheSource = codeCacheFrom;

/** Whether V8 took a code cache. */
export const codeCacheUsed = codeCacheFrom !== undefined;

/** For the build (scripts/warm-code-cache.mjs): writes the bytecode compiled so far as the cache. */
export function writeCodeCache() {
  if (cacheFile === undefined) throw new Error(`${file} has no build id`);
  if (script === undefined) throw new Error('the bundle was not loaded as a script (not in the main realm)');
  const data = script.createCachedData();
  writeFileSync(cacheFile, data);
  return { file: cacheFile, bytes: data.length };
}
