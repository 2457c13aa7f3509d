/**
 * The hostile-input fuzz (issue 33) on a small scale, so `npm test` keeps it: the built CLI's
 * default network on free ports, a few hundred seeded requests to each family. `npm run fuzz` is the
 * full run (10 000 a family) and prints the figures.
 */
import { describe, expect, it } from 'vitest';
import { runFuzz } from '../fuzz/run.js';

describe('the default network under hostile input', () => {
  it('answers every request in its family form, leaks no key, stays alive and makes blocks', async () => {
    const report = await runFuzz({ perFamily: 200, seed: 7, deadlineMs: 150_000, rssSlack: Number.POSITIVE_INFINITY });
    const problems = report.families.flatMap((f) => f.samples.map((s) => `${f.family}: ${s}`));
    expect(problems).toEqual([]);
    expect(report.families.map((f) => [f.family, f.secretLeaks])).toEqual(report.families.map((f) => [f.family, 0]));
    expect(report.alive).toBe(true);
    expect(report.livenessProblems).toEqual([]);
    expect(report.complete).toBe(true);
  }, 200_000);
});
