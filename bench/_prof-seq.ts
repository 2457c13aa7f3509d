import { bytesToHex, type Hex } from 'viem';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, DEV_KEY_0, signEthTransfer } from '../src/app/fixtures/signed-txs.js';
import { createEip1193Provider } from '../src/node/rpc-wiring.js';
import { startTestNode } from '../test/helpers/node.js';
const N = Number(process.env['BENCH_N'] ?? 1000);
const node = await startTestNode();
const provider = createEip1193Provider(node);
const send = (method: string, params: unknown[]) => provider.request({ method, params });
let nonce = BigInt((await send('eth_getTransactionCount', [DEV_ADDRESS_0, 'latest'])) as string);
const txs = Array.from({ length: N }, () => signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1n, { nonce: nonce++ }));
import { Session } from 'node:inspector/promises';
const sess = new Session(); sess.connect(); await sess.post('Profiler.enable'); await sess.post('Profiler.setSamplingInterval', { interval: 200 }); if (process.env.PROF) await sess.post('Profiler.start');
const t0 = performance.now();
for (const tx of txs) {
  const hash = (await send('eth_sendRawTransaction', [bytesToHex(tx)])) as Hex;
  let r = null; let polls = 0;
  while (r === null) { r = await send('eth_getTransactionReceipt', [hash]); if (r === null) { polls++; await new Promise((res) => setImmediate(res)); } }
  if ((globalThis as any).__polls === undefined) (globalThis as any).__polls = 0; (globalThis as any).__polls += polls;
}
if (process.env.PROF) { const { profile } = await sess.post('Profiler.stop'); (await import('node:fs')).writeFileSync('/work/prof/loop.cpuprofile', JSON.stringify(profile)); }
console.log('ms/tx', ((performance.now() - t0) / N).toFixed(3), 'polls', (globalThis as any).__polls);
provider.close(); await node.stop();
