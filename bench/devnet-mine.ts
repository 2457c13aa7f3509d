/**
 * How long mining 10 000 empty blocks takes (anvil_mine / hardhat_mine), in process and as one
 * JSON-RPC call, beside the normal block path (consensus rounds) for comparison.
 *
 *   npx tsx bench/devnet-mine.ts [blocks=10000] [runs=5]
 *
 * Prints one line per measurement, then one JSON object (last line).
 */
import { startNode } from '../src/node/node.js';

const blocks = Number(process.argv[2] ?? 10_000);
const runs = Number(process.argv[3] ?? 5);

// Every listener on an OS-chosen port: only the eth JSON-RPC one is used.
const node = await startNode({
  config: {
    consensus: { mode: 'manual' },
    rpc: { laddr: 'tcp://127.0.0.1:0' },
    jsonRpc: { address: '127.0.0.1:0', wsAddress: '127.0.0.1:0' },
    routing: { address: '127.0.0.1:0' },
  },
});

/** One `anvil_mine` call over the eth HTTP listener. */
async function mineOverRpc(count: number): Promise<void> {
  const res = await fetch(node.urls.jsonRpc!, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: [`0x${count.toString(16)}`] }),
  });
  const body = (await res.json()) as { error?: { message: string } };
  if (body.error) throw new Error(`anvil_mine: ${body.error.message}`);
}

try {
  await node.internals.devnet.mine(200); // warm up the JIT on the same path
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await node.internals.devnet.mine(blocks);
    const t = performance.now() - t0;
    const c = process.cpuUsage(c0);
    wall.push(t);
    cpu.push((c.user + c.system) / 1000);
    console.log(`mine(${blocks}) #${i + 1}: ${t.toFixed(0)} ms wall, ${cpu.at(-1)!.toFixed(0)} ms cpu`);
  }
  const rpc: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await mineOverRpc(blocks);
    rpc.push(performance.now() - t0);
    console.log(`anvil_mine(${blocks}) over HTTP #${i + 1}: ${rpc.at(-1)!.toFixed(0)} ms`);
  }
  // The normal path, one block at a time through consensus rounds, for comparison.
  const normal = 200;
  const t0 = performance.now();
  await node.mine(normal);
  const perNormal = (performance.now() - t0) / normal;
  console.log(`normal blocks: ${perNormal.toFixed(2)} ms each (${((perNormal * blocks) / 1000).toFixed(1)} s for ${blocks})`);
  const sorted = [...wall].sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      blocks,
      runs,
      wallMsMedian: Math.round(sorted[Math.floor(sorted.length / 2)]!),
      wallMsMin: Math.round(sorted[0]!),
      cpuMsMedian: Math.round([...cpu].sort((a, b) => a - b)[Math.floor(cpu.length / 2)]!),
      rpcMsMedian: Math.round([...rpc].sort((a, b) => a - b)[Math.floor(rpc.length / 2)]!),
      normalBlockMs: Number(perNormal.toFixed(2)),
      height: node.height,
    }),
  );
} finally {
  await node.stop();
}
