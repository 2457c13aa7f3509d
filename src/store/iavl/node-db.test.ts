import { ics23, iavlSpec, verifyMembership, verifyNonMembership } from '@confio/ics23';
import type { AbstractBatchOperation, AbstractLevel } from 'abstract-level';
import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import { toHex, utf8 } from '../../crypto/encoding.js';
import { BTreeLevel } from '../btree-level.js';
import { IavlMissingNodeError, levelNodeDb, openIavlTree, writeOps, type IavlSublevel, type IavlTree, type NodeBatch } from './index.js';

type Root = AbstractLevel<string | Uint8Array | Buffer, unknown, unknown>;

function sublevelOf(root: Root): IavlSublevel {
  return root.sublevel<Uint8Array, Uint8Array>('iavl', { keyEncoding: 'view', valueEncoding: 'view' }) as unknown as IavlSublevel;
}

/** Five versions of a small store, each key rewritten or deleted now and then. */
function writeVersion(tree: IavlTree, v: number): void {
  for (let i = 0; i < 40; i++) {
    if ((i + v) % 7 === 0) tree.delete(utf8(`key${i}`));
    else if ((i * v) % 3 !== 1) tree.set(utf8(`key${i}`), utf8(`v${v}-${i}`));
  }
}

async function snapshot(tree: IavlTree, versions: number[]): Promise<string[]> {
  const out: string[] = [];
  for (const v of versions) {
    out.push(`${v}:${toHex(tree.rootAt(v)!)}`);
    for (const key of ['key3', 'key10', 'key35', 'nokey']) {
      const { value, proof } = await tree.prove(utf8(key), v);
      out.push(`${key}=${value === undefined ? '-' : Buffer.from(value).toString()} ${toHex(proof)}`);
    }
  }
  return out;
}

describe('levelNodeDb', () => {
  it("adds a commit to the caller's batch, writes nothing itself, and a reopened tree has the same roots, values and proofs", async () => {
    const root = new MemoryLevel({ keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as Root;
    const sub = sublevelOf(root);
    const other = root.sublevel<string, string>('meta', { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    const tree = await openIavlTree(levelNodeDb(sub));
    for (let v = 1; v <= 5; v++) {
      writeVersion(tree, v);
      const batch: NodeBatch = [];
      tree.commit(batch);
      expect(batch.length).toBeGreaterThan(0);
      if (v === 1) expect(await sub.keys().all()).toEqual([]);
      // The chain's own writes go in the same atomic batch.
      const ops = [...batch, { type: 'put', sublevel: other, key: 'height', value: String(v) }];
      await root.batch(ops as unknown as AbstractBatchOperation<Root, unknown, unknown>[]);
    }
    const before = await snapshot(tree, [1, 3, 5]);

    const reopened = await openIavlTree(levelNodeDb(sub), { recentInMemory: 1 });
    expect(reopened.version).toBe(5);
    expect(reopened.oldestVersion).toBe(1);
    expect(toHex(reopened.workingRoot())).toBe(toHex(tree.rootAt(5)!));
    expect(await snapshot(reopened, [1, 3, 5])).toEqual(before);
    expect([...reopened.iterate()].length).toBe([...tree.iterate()].length);
    expect(await reopened.entriesAt(2)).toEqual(await tree.entriesAt(2));
    // Proofs of a past version, read back from the db, verify.
    const p = ics23.CommitmentProof.decode(await reopened.proveExistence(utf8('key10'), 2));
    expect(verifyMembership(p, iavlSpec, reopened.rootAt(2)!, utf8('key10'), (await reopened.getAt(utf8('key10'), 2))!)).toBe(true);
    const n = ics23.CommitmentProof.decode(await reopened.proveAbsence(utf8('key99'), 4));
    expect(verifyNonMembership(n, iavlSpec, reopened.rootAt(4)!, utf8('key99'))).toBe(true);

    // Writes continue from the reopened tree as from the original.
    writeVersion(tree, 6);
    writeVersion(reopened, 6);
    const batch: NodeBatch = [];
    const r6 = reopened.commit(batch);
    await writeOps(sub, batch);
    expect(r6).toEqual(tree.commit());
    await root.close();
  });

  it('writes only the latest version for a commit without changes; a reopened tree reads those versions as the last change', async () => {
    const root = new MemoryLevel({ keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as Root;
    const sub = sublevelOf(root);
    const tree = await openIavlTree(levelNodeDb(sub));
    tree.set(utf8('k'), utf8('v'));
    const { root: r1 } = tree.commit();
    await tree.flush();
    const keys = (await sub.keys().all()).length;
    for (let v = 2; v <= 50; v++) {
      const batch: NodeBatch = [];
      expect(tree.commit(batch)).toEqual({ version: v, root: r1 });
      expect(batch.length).toBe(1);
      await writeOps(sub, batch);
    }
    expect((await sub.keys().all()).length).toBe(keys);
    const reopened = await openIavlTree(levelNodeDb(sub));
    expect(reopened.version).toBe(50);
    expect(reopened.rootAt(37)).toEqual(r1);
    expect(await reopened.getAt(utf8('k'), 50)).toEqual(utf8('v'));
    reopened.set(utf8('k'), utf8('w'));
    expect(reopened.commit().version).toBe(51);
    await root.close();
  });

  it('writes by itself without a batch (flush waits), also into the in-memory B+ tree database', async () => {
    for (const root of [
      new MemoryLevel({ keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as Root,
      new BTreeLevel({ keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as Root,
    ]) {
      await root.open();
      const sub = sublevelOf(root);
      const tree = await openIavlTree(levelNodeDb(sub), { initialVersion: 10 });
      for (let v = 1; v <= 3; v++) {
        writeVersion(tree, v);
        tree.commit();
      }
      await tree.flush();
      const reopened = await openIavlTree(levelNodeDb(sub));
      expect(reopened.version).toBe(12);
      expect(await snapshot(reopened, [10, 11, 12])).toEqual(await snapshot(tree, [10, 11, 12]));
      await root.close();
    }
  });

  it('prunes at open what a run keeping more versions left, and keeps pruning as it commits', async () => {
    const root = new MemoryLevel({ keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as Root;
    const sub = sublevelOf(root);
    const tree = await openIavlTree(levelNodeDb(sub));
    for (let v = 1; v <= 6; v++) {
      writeVersion(tree, v);
      tree.commit();
    }
    await tree.flush();
    const keysBefore = (await sub.keys().all()).length;
    const latest = await snapshot(tree, [5, 6]);

    const pruned = await openIavlTree(levelNodeDb(sub), { keepRecent: 2 });
    expect(pruned.oldestVersion).toBe(5);
    expect(pruned.rootAt(4)).toBeUndefined();
    expect(await snapshot(pruned, [5, 6])).toEqual(latest);
    expect((await sub.keys().all()).length).toBeLessThan(keysBefore);

    writeVersion(pruned, 7);
    pruned.commit();
    await pruned.flush();
    const again = await openIavlTree(levelNodeDb(sub), { keepRecent: 2 });
    expect([again.oldestVersion, again.version]).toEqual([6, 7]);
    // Every node versions 6 and 7 need is still there: all their proofs come back.
    expect((await snapshot(again, [6, 7])).length).toBe(10);
    expect(await snapshot(again, [6])).toEqual(latest.slice(5));
    await root.close();
  });

  it('refuses to open over a db that lost a node of the latest version, naming the node', async () => {
    const root = new MemoryLevel({ keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as Root;
    const sub = sublevelOf(root);
    const tree = await openIavlTree(levelNodeDb(sub));
    writeVersion(tree, 1);
    tree.commit();
    await tree.flush();
    const nodeKeys = (await sub.keys().all()).filter((k) => k[0] === 0x6e);
    await sub.del(nodeKeys[nodeKeys.length - 1]!);
    await expect(openIavlTree(levelNodeDb(sub))).rejects.toThrow(IavlMissingNodeError);
    await root.close();
  });
});
