/**
 * npm run bench:start — how soon Chainlet answers:
 *
 *   import      `import('chainlet')` of the built package in a fresh Node process
 *   startNode   `startNode()` (in memory, ports 0) after the import, then `stop()`
 *   again       a second `startNode()` in the same process (what each further start of a test suite costs)
 *   cli         `node dist/cli/main.js start` (the bundle) until the first `eth_chainId` answer (as compare.sh)
 *
 * Each is measured in fresh processes (BENCH_RUNS, default 5) and reported as the median; last,
 * one JSON line with every figure. Needs `npm run build` (npm install runs it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);
const CLI_TIMEOUT_MS = 30_000;
const root = fileURLToPath(new URL('..', import.meta.url));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface InProcess {
  importMs: number;
  startMs: number;
  stopMs: number;
  againMs: number;
  /** Which V8 code cache the bundle took (dist/core-loader.js): 'build', 'local' or 'none'. */
  codeCache: string;
}

function inProcess(): InProcess {
  const script = `
    const t0 = performance.now();
    const { startNode } = await import('chainlet');
    const t1 = performance.now();
    const opts = { config: { rpc: { laddr: 'tcp://127.0.0.1:0' }, jsonRpc: { address: '127.0.0.1:0', wsAddress: '127.0.0.1:0' }, routing: { address: '127.0.0.1:0' } } };
    const node = await startNode(opts);
    const t2 = performance.now();
    await node.stop();
    const t3 = performance.now();
    const again = await startNode(opts);
    const t4 = performance.now();
    await again.stop();
    const { codeCacheSource } = await import('./dist/core-loader.js');
    console.log(JSON.stringify({ importMs: t1 - t0, startMs: t2 - t1, stopMs: t3 - t2, againMs: t4 - t3, codeCache: codeCacheSource ?? 'none' }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as InProcess;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function cliFirstAnswer(): Promise<number> {
  const [eth, ws, rpc, routing, svm, svmWs] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [
      `${root}/dist/cli/main.js`,
      'start',
      '--silent',
      '--json-rpc.address',
      `127.0.0.1:${eth}`,
      '--json-rpc.ws-address',
      `127.0.0.1:${ws}`,
      '--rpc.laddr',
      `tcp://127.0.0.1:${rpc}`,
      '--routing.address',
      `127.0.0.1:${routing}`,
      '--svm-rpc',
      `127.0.0.1:${svm}`,
      '--svm-ws',
      `127.0.0.1:${svmWs}`,
      '--hub-rpc',
      'tcp://127.0.0.1:0',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // A child that exits (or never answers) fails the bench instead of leaving it polling forever.
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let exited: string | undefined;
  child.on('exit', (code, signal) => (exited = `exited (code ${code}, signal ${signal})`));
  try {
    for (;;) {
      if (exited !== undefined) throw new Error(`bench:start: the CLI ${exited} before answering:\n${stderr}`);
      if (performance.now() - t0 > CLI_TIMEOUT_MS) throw new Error(`bench:start: no eth_chainId answer within ${CLI_TIMEOUT_MS} ms:\n${stderr}`);
      const r = await fetch(`http://127.0.0.1:${eth}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      }).catch(() => undefined);
      if (r?.ok) return performance.now() - t0;
      await new Promise((res) => setTimeout(res, 5));
    }
  } finally {
    child.kill('SIGKILL');
  }
}

const runs = Array.from({ length: RUNS }, inProcess);
const cli: number[] = [];
for (let i = 0; i < RUNS; i++) cli.push(await cliFirstAnswer());
const fig = {
  importMs: Number(median(runs.map((r) => r.importMs)).toFixed(1)),
  startNodeMs: Number(median(runs.map((r) => r.startMs)).toFixed(1)),
  stopMs: Number(median(runs.map((r) => r.stopMs)).toFixed(1)),
  startNodeAgainMs: Number(median(runs.map((r) => r.againMs)).toFixed(1)),
  cliFirstAnswerMs: Number(median(cli).toFixed(1)),
  // A figure without the cache (V8 flags in NODE_OPTIONS, a stale build) is not comparable.
  codeCache: [...new Set(runs.map((r) => r.codeCache))].join(','),
};
console.log(`import('chainlet')        ${fig.importMs} ms (median of ${RUNS})`);
console.log(`startNode()               ${fig.startNodeMs} ms`);
console.log(`stop()                    ${fig.stopMs} ms`);
console.log(`startNode() again        ${fig.startNodeAgainMs} ms (a second node in the same process)`);
console.log(`CLI start → eth_chainId   ${fig.cliFirstAnswerMs} ms`);
console.log(`code cache                ${fig.codeCache}`);
console.log(JSON.stringify({ bench: 'start', runs: RUNS, node: process.version, ...fig }));
