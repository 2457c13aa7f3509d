import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A test of the built package (`npm install` / `npm ci` builds dist through the `prepare` script). */
const built = it.skipIf(!existsSync(`${root}/dist/index.js`));

/** Runs `script` as an ES module in a fresh `node` in the project's folder; its last stdout line, parsed. */
function runModule(script: string, opts: { flags?: string[]; env?: NodeJS.ProcessEnv } = {}): unknown {
  const r = spawnSync(process.execPath, [...(opts.flags ?? []), '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, ...opts.env },
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim());
}

describe('package', () => {
  built("`import { startNode } from 'chainlet'` works from the built package", () => {
    const script = `
      import { startNode, DEFAULT_CHAIN_ID } from 'chainlet';
      const node = await startNode({ servers: false, config: { consensus: { mode: 'manual' } } });
      await node.mine(2);
      console.log(JSON.stringify({ chainId: node.chainId, evm: node.evmChainId, height: node.height, def: DEFAULT_CHAIN_ID }));
      await node.stop();`;
    expect(runModule(script)).toEqual({ chainId: 'chainlet_9000-1', evm: 9000, height: 3, def: 'chainlet_9000-1' });
  });

  built('loads cosmjs-types only at the first Cosmos use, and pino not at all for a silent node', () => {
    const script = `
      import { createRequire } from 'node:module';
      const loaded = (pkg) => Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('/node_modules/' + pkg + '/')).length;
      const cosmjsFiles = () => loaded('cosmjs-types');
      const { startNode } = await import('chainlet');
      const node = await startNode({ servers: false, config: { consensus: { mode: 'manual' } } });
      await node.mine(1);
      const atStart = cosmjsFiles();
      const res = await node.internals.app.query({ path: '/cosmos.base.tendermint.v1beta1.Service/GetNodeInfo', data: new Uint8Array(0), height: 0, prove: false });
      console.log(JSON.stringify({ atStart, afterQuery: cosmjsFiles() > 0, code: res.code, bytes: res.value.length > 0, pino: loaded('pino') }));
      await node.stop();`;
    expect(runModule(script)).toEqual({ atStart: 0, afterQuery: true, code: 0, bytes: true, pino: 0 });
  });

  built("an import loads neither node:http, node:inspector nor node:zlib, and a start only the servers' node:http (the rest on first use)", () => {
    const script = `
      const builtins = () => process.moduleLoadList.filter((m) => /^NativeModule (http|inspector|inspector\\/promises|zlib)$/.test(m));
      const { startNode } = await import('chainlet');
      const afterImport = builtins();
      const node = await startNode({ config: { rpc: { laddr: 'tcp://127.0.0.1:0' }, jsonRpc: { address: '127.0.0.1:0', wsAddress: '127.0.0.1:0' }, routing: { address: '127.0.0.1:0' } } });
      // A raw request: fetch would load node:http and node:zlib itself.
      const { connect } = await import('node:net');
      const url = new URL(node.urls.jsonRpc);
      const body = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}';
      const reply = await new Promise((resolve, reject) => {
        const sock = connect(Number(url.port), url.hostname, () => sock.end('POST / HTTP/1.1\\r\\nHost: x\\r\\nContent-Type: application/json\\r\\nConnection: close\\r\\nContent-Length: ' + body.length + '\\r\\n\\r\\n' + body));
        let text = '';
        sock.on('data', (d) => (text += d)).on('end', () => resolve(text)).on('error', reject);
      });
      const chainId = JSON.parse(reply.slice(reply.indexOf('\\r\\n\\r\\n') + 4)).result;
      const afterStart = builtins();
      const dump = await node.internals.devnet.dumpState();
      const afterDump = builtins().some((m) => m.endsWith('zlib'));
      console.log(JSON.stringify({ afterImport, afterStart, chainId, afterDump, dumped: dump.length > 0 }));
      await node.stop();`;
    // node:http is the servers' backend; `ws` (and with it node:zlib) waits for the first WebSocket.
    expect(runModule(script)).toEqual({ afterImport: [], afterStart: ['NativeModule http'], chainId: '0x2328', afterDump: true, dumped: true });
  });

  built('loads its bundle with the V8 code cache the build wrote, and without one', () => {
    const script = `
      const { codeCacheUsed } = await import('./dist/core-loader.js');
      const { startNode } = await import('chainlet');
      const node = await startNode({ servers: false, config: { consensus: { mode: 'manual' } } });
      await node.mine(1);
      console.log(JSON.stringify({ codeCacheUsed, height: node.height }));
      await node.stop();`;
    expect(runModule(script)).toEqual({ codeCacheUsed: true, height: 2 });
    // The command line's entry marks itself and takes its own cache (a network's and the CLI's bytecode too).
    expect(
      runModule(
        "globalThis[Symbol.for('chainlet.entry')] = 'cli'; const l = await import('./dist/core-loader.js'); console.log(JSON.stringify([l.codeCacheUsed, l.codeCacheSource]));",
      ),
    ).toEqual([true, 'build']);
    expect(
      readdirSync(`${root}/dist`)
        .filter((f) => f.endsWith('.v8cache'))
        .sort(),
    ).toEqual([expect.stringMatching(/^chainlet-[0-9a-f]+-cli\.v8cache$/), expect.stringMatching(/^chainlet-[0-9a-f]+\.v8cache$/)]);
    expect(runModule(script, { env: { CHAINLET_CODE_CACHE: 'off' } })).toEqual({ codeCacheUsed: false, height: 2 });
  });

  built('under other V8 flags the first process writes a code cache of its own, which the next one takes', () => {
    const dir = mkdtempSync(`${tmpdir()}/chainlet-local-cache-`);
    try {
      const script = `
        const { codeCacheUsed, codeCacheSource } = await import('./dist/core-loader.js');
        const { startNode } = await import('chainlet');
        const node = await startNode({ servers: false, config: { consensus: { mode: 'manual' } } });
        console.log(JSON.stringify({ codeCacheUsed, codeCacheSource: codeCacheSource ?? null, height: node.height }));
        await node.stop();`;
      const run = (flags: string[]) => runModule(script, { flags, env: { CHAINLET_CODE_CACHE_DIR: dir } });
      // --max-semi-space-size is a V8 flag: V8 refuses the build's cache under it.
      expect(run(['--max-semi-space-size=16'])).toEqual({ codeCacheUsed: false, codeCacheSource: null, height: 1 });
      expect(readdirSync(dir).filter((f) => f.endsWith('.v8cache'))).toHaveLength(1);
      expect(run(['--max-semi-space-size=16'])).toEqual({ codeCacheUsed: true, codeCacheSource: 'local', height: 1 });
      // Without flags the build's cache is taken, and nothing more is written.
      expect(run([])).toEqual({ codeCacheUsed: true, codeCacheSource: 'build', height: 1 });
      expect(readdirSync(dir).filter((f) => f.endsWith('.v8cache'))).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  built('a code cache V8 refuses is ignored: the bundle compiles and runs', () => {
    // A copy of the loader and the bundle beside a cache file of garbage under the bundle's build id.
    const dir = mkdtempSync(`${tmpdir()}/chainlet-cache-`);
    try {
      copyFileSync(`${root}/dist/core-loader.js`, `${dir}/core-loader.js`);
      copyFileSync(`${root}/dist/chainlet.cjs`, `${dir}/chainlet.cjs`);
      const cache = readdirSync(`${root}/dist`).find((f) => /^chainlet-[0-9a-f]+\.v8cache$/.test(f));
      expect(cache).toBeDefined();
      writeFileSync(`${dir}/${cache}`, Buffer.alloc(4096, 7));
      writeFileSync(`${dir}/package.json`, '{"type":"module"}');
      symlinkSync(`${root}/node_modules`, `${dir}/node_modules`, 'dir');
      const script = `
        const { core, codeCacheUsed } = await import(${JSON.stringify(`${dir}/core-loader.js`)});
        const node = await core.startNode({ servers: false, config: { consensus: { mode: 'manual' } } });
        await node.mine(1);
        console.log(JSON.stringify({ codeCacheUsed, height: node.height }));
        await node.stop();`;
      // A refused cache makes the process write one of its own at exit: into the test's folder.
      expect(runModule(script, { env: { CHAINLET_CODE_CACHE_DIR: dir } })).toEqual({ codeCacheUsed: false, height: 2 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
