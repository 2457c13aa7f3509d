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

const node = await startNode({ servers: false, config: { consensus: { mode: 'manual' } } });
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
      normalBlockMs: Number(perNormal.toFixed(2)),
      height: node.height,
    }),
  );
} finally {
  await node.stop();
}
