/**
 * Writes one of dist/'s V8 code caches (scripts/core-loader.mjs): loads the bundle, runs what a start
 * runs and saves the bytecode compiled meanwhile. `lib` (the library's cache): `startNode` with
 * transactions, a contract and queries over HTTP. `cli` (the command line's): that, then the
 * command line's default network of EVM chain, hub and SVM chain, and the command line itself.
 * Everything listens on ports 0 and stops before the cache is written. Run by scripts/bundle.mjs
 * in a process of its own, once per cache; prints one JSON line.
 */
const entry = process.argv[2] === 'cli' ? 'cli' : 'lib';
if (entry === 'cli') globalThis[Symbol.for('chainlet.entry')] = 'cli';
const { codeCacheUsed, core, writeCodeCache } = await import('../dist/core-loader.js');

const ports0 = {
  rpc: { laddr: 'tcp://127.0.0.1:0' },
  jsonRpc: { address: '127.0.0.1:0', wsAddress: '127.0.0.1:0' },
  routing: { address: '127.0.0.1:0' },
};

async function rpc(url, method, params = []) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** The receipt, once the automined block has it. */
async function receipt(url, hash) {
  for (;;) {
    const r = await rpc(url, 'eth_getTransactionReceipt', [hash]);
    if (r) return r;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

// The library: a node, transactions one at a time as a test suite sends them, the usual reads.
const node = await core.startNode({ config: ports0 });
const url = node.urls.jsonRpc;
const [from, to] = node.accounts.map((a) => a.address);
for (let i = 0; i < 8; i++) {
  await receipt(url, await rpc(url, 'eth_sendTransaction', [{ from, to, value: '0x1' }]));
}
// A contract: deployed, called (a storage write and a log), read, estimated; so the EVM's own
// interpreter paths are in the cache too. Runtime: x = calldata[0:32]; sstore(0, x); log0(x);
// return x. Init code: copy the 20-byte runtime from offset 12 and return it.
const runtime = '6000358060005560005260206000a060206000f3';
const deploy = await rpc(url, 'eth_sendTransaction', [{ from, data: `0x6014600c60003960146000f3${runtime}` }]);
const { contractAddress: contract, status } = await receipt(url, deploy);
if (status !== '0x1') throw new Error('warm-up: the contract deploy failed');
const word = `0x${'2a'.padStart(64, '0')}`;
for (let i = 0; i < 4; i++) {
  const { status: called, logs } = await receipt(url, await rpc(url, 'eth_sendTransaction', [{ from, to: contract, data: word }]));
  if (called !== '0x1' || logs.length !== 1) throw new Error('warm-up: the contract call failed');
}
await rpc(url, 'eth_call', [{ from, to: contract, data: word }, 'latest']);
await rpc(url, 'eth_estimateGas', [{ from, to: contract, data: word }]);
await rpc(url, 'eth_getLogs', [{ address: contract, fromBlock: '0x0' }]);
await rpc(url, 'eth_chainId');
await rpc(url, 'eth_blockNumber');
await rpc(url, 'eth_getBalance', [to, 'latest']);
await rpc(url, 'eth_estimateGas', [{ from, to, value: '0x1' }]);
await rpc(url, 'eth_call', [{ from, to, data: '0x' }, 'latest']);
await rpc(url, 'eth_getBlockByNumber', ['latest', true]);
await fetch(`${node.urls.rpc}/status`).then((r) => r.text());
await node.stop();

if (entry === 'cli') await warmCommandLine();

const written = writeCodeCache();
console.log(JSON.stringify({ entry, ...written, compiledWithCache: codeCacheUsed }));

async function warmCommandLine() {
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
}
