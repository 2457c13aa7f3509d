/**
 * Writes dist/'s V8 code cache (scripts/core-loader.mjs): loads the bundle, runs what a start runs
 * (the library's `startNode` with a few transactions and queries over HTTP, then the command line's
 * default network of EVM chain, hub and SVM chain, and the command line itself), and saves the
 * bytecode compiled meanwhile. Everything listens on ports 0 and stops before the cache is written.
 * Run by scripts/bundle.mjs in a process of its own; prints one JSON line.
 */
import { codeCacheUsed, core, writeCodeCache } from '../dist/core-loader.js';

const ports0 = {
  rpc: { laddr: 'tcp://127.0.0.1:0' },
  jsonRpc: { address: '127.0.0.1:0', wsAddress: '127.0.0.1:0' },
  routing: { address: '127.0.0.1:0' },
};

async function rpc(url, method, params = []) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

// The library: a node, transactions one at a time as a test suite sends them, the usual reads.
const node = await core.startNode({ config: ports0 });
const url = node.urls.jsonRpc;
const [from, to] = node.accounts.map((a) => a.address);
for (let i = 0; i < 8; i++) {
  const hash = await rpc(url, 'eth_sendTransaction', [{ from, to, value: '0x1' }]);
  await rpc(url, 'eth_getTransactionReceipt', [hash]);
}
await rpc(url, 'eth_chainId');
await rpc(url, 'eth_blockNumber');
await rpc(url, 'eth_getBalance', [to, 'latest']);
await rpc(url, 'eth_estimateGas', [{ from, to, value: '0x1' }]);
await rpc(url, 'eth_call', [{ from, to, data: '0x' }, 'latest']);
await rpc(url, 'eth_getBlockByNumber', ['latest', true]);
await fetch(`${node.urls.rpc}/status`).then((r) => r.text());
await node.stop();

// The command line's default network (`chainlet start`): EVM chain, hub, SVM chain, IBC.
const network = await core.startNetwork({
  chains: [
    { kind: 'evm', config: ports0 },
    { kind: 'hub', config: { rpc: { laddr: 'tcp://127.0.0.1:0' } } },
    { kind: 'svm', rpc: '127.0.0.1:0', ws: '127.0.0.1:0', slotMs: 0 },
  ],
});
await rpc(network.evm.urls.jsonRpc, 'eth_chainId');
await network.stop();

// The command line itself (commander, the option tables), without starting anything.
const { runCli } = await core.loadCli();
const log = console.log;
console.log = () => {};
await runCli([process.execPath, 'chainlet', 'version']);
console.log = log;

const written = writeCodeCache();
console.log(JSON.stringify({ ...written, compiledWithCache: codeCacheUsed }));
