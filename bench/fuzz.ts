/**
 * npm run fuzz — the hostile-input run of issue 33 over every server of the default network (the
 * built CLI, ports moved): FUZZ_N requests per family (default 10 000), seed FUZZ_SEED (default 1),
 * bounded by FUZZ_DEADLINE_S (default 1200); FUZZ_ONLY=comet,solana runs only the families named so. Prints a line per family, then one JSON report; exits 1
 * when any answer was out of its family's form, leaked key material, the node died or stopped
 * making blocks, or its RSS did not come back within 20 % of idle. Needs `npm run build`.
 */
import { runFuzz } from '../test/fuzz/run.js';

const report = await runFuzz({
  perFamily: Number(process.env['FUZZ_N'] ?? 10_000),
  seed: Number(process.env['FUZZ_SEED'] ?? 1),
  deadlineMs: Number(process.env['FUZZ_DEADLINE_S'] ?? 1200) * 1000,
  ...(process.env['FUZZ_ONLY'] ? { only: process.env['FUZZ_ONLY'].split(',') } : {}),
  log: (l) => console.log(l),
});
for (const f of report.families) for (const s of f.samples) console.log(`  ${f.family}: ${s}`);
console.log(`alive ${report.alive}; liveness problems: ${report.livenessProblems.join('; ') || 'none'}`);
console.log(
  `RSS after a full collection: idle ${report.rssIdleMb.toFixed(1)} MB, after ${report.rssAfterMb.toFixed(1)} MB (within 20 %: ${report.rssWithinSlack}); peak during the run ${report.rssPeakMb.toFixed(1)} MB`,
);
console.log(`chains at idle ${JSON.stringify(report.stateIdle)}, after ${JSON.stringify(report.stateAfter)}`);
console.log(JSON.stringify({ ...report, families: report.families.map(({ samples: _s, ...f }) => f) }));
process.exit(report.ok ? 0 : 1);
