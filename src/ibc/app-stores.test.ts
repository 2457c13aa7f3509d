/**
 * An app's multistore across heights: trees start at their first write (an EVM chain IBC never
 * reached commits nothing), heights without a commit of their own (a devnet's mined empty blocks)
 * read the version before them, and a reopened store answers every height as before.
 */
import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import { EMPTY_ROOT, levelNodeDb, writeOps, type IavlSublevel, type NodeBatch } from '../store/iavl/index.js';
import { commitInfoRoot } from '../store/multistore.js';
import { AppStores, evmAppHash } from './app-stores.js';

const utf8 = new TextEncoder();
const text = new TextDecoder();

function open(db: MemoryLevel<Uint8Array, Uint8Array>, keepRecent?: number): Promise<AppStores> {
  const sub = (name: string) => db.sublevel<Uint8Array, Uint8Array>(name, { keyEncoding: 'view', valueEncoding: 'view' }) as unknown as IavlSublevel;
  return AppStores.open(new Map([['ibc', levelNodeDb(sub('tree'))]]), sub('heights'), undefined, keepRecent === undefined ? {} : { keepRecent });
}

/** Commits `height` and writes the batch, as an app's commit does. */
async function commit(s: AppStores, height: number): Promise<void> {
  const batch: NodeBatch = [];
  s.commit(height, batch);
  if (batch.length > 0) await writeOps(batch[0]!.sublevel, batch);
}

describe('AppStores', () => {
  it('keeps only the last pruning-keep-recent versions when set: older heights answer "version does not exist"', async () => {
    const db = new MemoryLevel<Uint8Array, Uint8Array>({ keyEncoding: 'view', valueEncoding: 'view' });
    const s = await open(db, 2);
    for (let h = 1; h <= 5; h++) {
      s.apply('ibc', [['k', utf8.encode(`at ${h}`)]]);
      await commit(s, h);
    }
    const value = async (store: AppStores, h: number) => {
      const r = await store.query('ibc', utf8.encode('k'), h, false).catch((e: Error) => e.message);
      return typeof r === 'string' ? r : r.value && text.decode(r.value);
    };
    expect(await value(s, 5)).toBe('at 5');
    expect(await value(s, 4)).toBe('at 4');
    expect(await value(s, 3)).toMatch(/version does not exist/);
    const again = await open(db, 2);
    expect(await value(again, 4)).toBe('at 4');
    expect(await value(again, 2)).toMatch(/version does not exist/);
  });

  it('maps heights to versions across gaps, before the first write, and after a reopen', async () => {
    const db = new MemoryLevel<Uint8Array, Uint8Array>({ keyEncoding: 'view', valueEncoding: 'view' });
    const s = await open(db);
    // Heights 1–3: nothing written, nothing committed.
    for (const h of [1, 2, 3]) await commit(s, h);
    expect(s.versionAt(3)).toBeUndefined();
    expect(s.tree('ibc').version).toBe(0);
    const value = async (store: AppStores, h: number) => {
      const r = await store.query('ibc', utf8.encode('k'), h, false).catch((e: Error) => e.message);
      return typeof r === 'string' ? r : r.value && text.decode(r.value);
    };
    s.apply('ibc', [['k', utf8.encode('at 4')]]);
    await commit(s, 4);
    s.apply('ibc', [['k', utf8.encode('at 5')]]);
    await commit(s, 5);
    // 6–9: empty blocks with no commit (fast-mined); 10 writes again.
    s.apply('ibc', [['k', utf8.encode('at 10')]]);
    await commit(s, 10);
    await commit(s, 11);
    expect([3, 4, 5, 7, 9, 10, 11, 12].map((h) => s.versionAt(h))).toEqual([undefined, 1, 2, 2, 2, 3, 4, 4]);
    expect(await value(s, 7)).toBe('at 5');
    expect(await value(s, 10)).toBe('at 10');
    expect(await value(s, 3)).toMatch(/version does not exist/);
    // Read by height (the IBC queries at a past height): an empty store before the first commit.
    const byHeight = s.byHeight('ibc');
    expect(byHeight.hasVersion(2)).toBe(true);
    expect(await byHeight.getAt(utf8.encode('k'), 2)).toBeUndefined();
    expect(text.decode((await byHeight.getAt(utf8.encode('k'), 8))!)).toBe('at 5');

    const again = await open(db);
    expect([3, 4, 5, 7, 9, 10, 11, 12].map((h) => again.versionAt(h))).toEqual([undefined, 1, 2, 2, 2, 3, 4, 4]);
    expect(await value(again, 8)).toBe('at 5');
    expect(Buffer.from((await again.rootsAt(10))!.get('ibc')!).toString('hex')).toBe(Buffer.from((await s.rootsAt(10))!.get('ibc')!).toString('hex'));
  });

  it("makes the EVM chain's app hash the multistore root over evm and ibc from genesis on (an empty IBC store: the empty tree's root)", () => {
    const root = new Uint8Array(32).fill(7);
    const stores = (ibc: Uint8Array) =>
      commitInfoRoot(
        new Map([
          ['evm', root],
          ['ibc', ibc],
        ]),
      );
    expect(Buffer.from(evmAppHash(root, undefined)).equals(Buffer.from(root))).toBe(false);
    expect(Buffer.from(evmAppHash(root, undefined)).equals(Buffer.from(stores(EMPTY_ROOT)))).toBe(true);
    expect(Buffer.from(evmAppHash(root, new Uint8Array(32).fill(1))).equals(Buffer.from(stores(new Uint8Array(32).fill(1))))).toBe(true);
  });
});
