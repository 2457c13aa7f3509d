import { describe, expect, it } from 'vitest';
import type { FoundTx, RoutingChain } from './env.js';
import { TxTracker } from './tx-tracker.js';

const TIMEOUTS = { submittedMs: 1000, stalledMs: 1000 };
const hash = (b: number) => new Uint8Array(32).fill(b);

/** A chain at `height` holding committed txs by either hash (`0x0N` its CometBFT hash, `0x1N` its Ethereum hash). */
function chainAt(height: number | undefined, txs: { n: number; height: number }[]): Pick<RoutingChain, 'findTx' | 'height'> & { lookups: number } {
  const chain = {
    lookups: 0,
    async findTx(h: Uint8Array): Promise<FoundTx | undefined> {
      chain.lookups++;
      const t = txs.find((x) => h[0] === x.n || h[0] === 0x10 + x.n);
      return (
        t && { tx: new Uint8Array(), cometHash: hash(t.n), ethHash: hash(0x10 + t.n), height: t.height, index: 0, outcome: { ok: true, code: 0, log: '' } }
      );
    },
    ...(height === undefined ? {} : { height: () => height }),
  };
  return chain;
}

function trackerOver(chain: Pick<RoutingChain, 'findTx' | 'height'>): TxTracker {
  return new TxTracker({ now: () => 0, chains: [chain as RoutingChain] }, TIMEOUTS);
}

describe('TxTracker.recall', () => {
  it('registers a tx committed at or below the height its chain had when the tracker was made, under both hashes', async () => {
    const chain = chainAt(5, [
      { n: 1, height: 3 },
      { n: 2, height: 5 },
    ]);
    const tracker = trackerOver(chain);
    const rec = await tracker.recall(chain, hash(0x11));
    expect(rec).toBeDefined();
    expect(tracker.get(hash(1))).toBe(rec);
    expect(await tracker.refresh(rec!)).toMatchObject({ state: 'STATE_COMPLETED_SUCCESS', height: 3 });
    expect(await tracker.recall(chain, hash(2))).toBeDefined();
    expect(tracker.size).toBe(2);
  });

  it('registers nothing committed after that height, unknown, or on a chain that gives no height', async () => {
    const later = chainAt(5, [{ n: 1, height: 6 }]);
    const tracker = trackerOver(later);
    expect(await tracker.recall(later, hash(1))).toBeUndefined();
    expect(await tracker.recall(later, hash(9))).toBeUndefined();
    expect(tracker.size).toBe(0);

    const heightless = chainAt(undefined, [{ n: 1, height: 1 }]);
    expect(await trackerOver(heightless).recall(heightless, hash(1))).toBeUndefined();
    expect(heightless.lookups).toBe(0);
    // A chain the tracker was not made over.
    expect(await tracker.recall(chainAt(5, [{ n: 1, height: 1 }]), hash(1))).toBeUndefined();
  });
});
