import { ics23, iavlSpec, verifyMembership, verifyNonMembership } from '@confio/ics23';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../test/fuzz/rng.js';
import { compareBytes, toHex, utf8 } from '../../crypto/encoding.js';
import { leafHash } from './node.js';
import { EMPTY_ROOT, IavlProofError, IavlVersionError, memoryNodeDb, openIavlTree, type IavlTree } from './index.js';

const decode = (bytes: Uint8Array) => ics23.CommitmentProof.decode(bytes);

function randomKey(rng: Rng): Uint8Array {
  const k = new Uint8Array(1 + rng.int(6));
  for (let i = 0; i < k.length; i++) k[i] = rng.int(256);
  return k;
}

/** Checks every key's existence proof and some absent keys' non-existence proofs at `version`. */
async function checkProofs(tree: IavlTree, version: number, model: Map<string, Uint8Array>, rng: Rng): Promise<void> {
  const root = tree.rootAt(version)!;
  for (const [hex, value] of model) {
    const key = Buffer.from(hex, 'hex');
    const proof = decode(await tree.proveExistence(key, version));
    if (!verifyMembership(proof, iavlSpec, root, key, value)) throw new Error(`membership of ${hex} at ${version} did not verify`);
  }
  const sorted = [...model.keys()].map((h) => new Uint8Array(Buffer.from(h, 'hex'))).sort(compareBytes);
  // Random absent keys, one before the first key and one after the last.
  const absent: Uint8Array[] = [Uint8Array.of(0), Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)];
  for (let i = 0; i < 30; i++) absent.push(randomKey(rng));
  for (const key of absent) {
    if (model.has(toHex(key))) continue;
    const proof = decode(await tree.proveAbsence(key, version));
    if (!verifyNonMembership(proof, iavlSpec, root, key)) throw new Error(`non-membership of ${toHex(key)} at ${version} did not verify`);
  }
  if (sorted.length > 0) {
    expect(compareBytes(absent[0]!, sorted[0]!)).toBeLessThan(0);
    expect(compareBytes(absent[1]!, sorted[sorted.length - 1]!)).toBeGreaterThan(0);
  }
}

describe('IavlTree', () => {
  it('proves every key and absent keys with @confio/ics23 under iavlSpec, at the latest and at past versions', async () => {
    const rng = new Rng(7);
    const tree = await openIavlTree(memoryNodeDb());
    const models: Map<string, Uint8Array>[] = [];
    const model = new Map<string, Uint8Array>();
    for (let version = 1; version <= 6; version++) {
      for (let i = 0; i < 60; i++) {
        const keys = [...model.keys()];
        if (keys.length > 0 && rng.chance(0.25)) {
          const k = rng.pick(keys);
          tree.delete(Buffer.from(k, 'hex'));
          model.delete(k);
        } else {
          const k = keys.length > 0 && rng.chance(0.2) ? new Uint8Array(Buffer.from(rng.pick(keys), 'hex')) : randomKey(rng);
          const v = utf8(`v${version}.${i}`);
          tree.set(k, v);
          model.set(toHex(k), v);
        }
      }
      const working = tree.workingRoot();
      const { version: saved, root } = tree.commit();
      expect(saved).toBe(version);
      expect(toHex(root)).toBe(toHex(working));
      models.push(new Map(model));
    }
    for (const version of [6, 3, 1]) {
      await checkProofs(tree, version, models[version - 1]!, rng);
      for (const [k, v] of models[version - 1]!) expect(toHex((await tree.getAt(Buffer.from(k, 'hex'), version))!)).toBe(toHex(v));
    }
  });

  it('refuses a proof checked against a wrong value, a wrong key or another version', async () => {
    const tree = await openIavlTree(memoryNodeDb());
    for (let i = 0; i < 10; i++) tree.set(utf8(`key${i}`), utf8(`value${i}`));
    tree.commit();
    tree.set(utf8('key3'), utf8('changed'));
    tree.commit();
    const proof = decode(await tree.proveExistence(utf8('key3'), 1));
    expect(verifyMembership(proof, iavlSpec, tree.rootAt(1)!, utf8('key3'), utf8('value3'))).toBe(true);
    expect(verifyMembership(proof, iavlSpec, tree.rootAt(1)!, utf8('key3'), utf8('changed'))).toBe(false);
    expect(verifyMembership(proof, iavlSpec, tree.rootAt(1)!, utf8('key4'), utf8('value3'))).toBe(false);
    expect(verifyMembership(proof, iavlSpec, tree.rootAt(2)!, utf8('key3'), utf8('value3'))).toBe(false);
    const absent = decode(await tree.proveAbsence(utf8('key35'), 2));
    expect(verifyNonMembership(absent, iavlSpec, tree.rootAt(2)!, utf8('key35'))).toBe(true);
    expect(verifyNonMembership(absent, iavlSpec, tree.rootAt(2)!, utf8('key3'))).toBe(false);
  });

  it('answers the SDK getProofFromTree way: existence for a present key, absence otherwise', async () => {
    const tree = await openIavlTree(memoryNodeDb());
    tree.set(utf8('a'), utf8('1'));
    tree.set(utf8('c'), utf8('3'));
    tree.commit();
    const present = await tree.prove(utf8('a'), 1);
    expect(present.value).toEqual(utf8('1'));
    expect(decode(present.proof).exist).toBeTruthy();
    const absent = await tree.prove(utf8('b'), 1);
    expect(absent.value).toBeUndefined();
    const nonexist = decode(absent.proof).nonexist!;
    expect(nonexist.left!.key).toEqual(utf8('a'));
    expect(nonexist.right!.key).toEqual(utf8('c'));
    await expect(tree.proveExistence(utf8('b'), 1)).rejects.toThrow(IavlProofError);
    await expect(tree.proveAbsence(utf8('a'), 1)).rejects.toThrow(IavlProofError);
  });

  it('proves absence in a one-key tree on either side; an empty tree has the empty root and a proof without neighbours', async () => {
    const tree = await openIavlTree(memoryNodeDb());
    expect(tree.version).toBe(0);
    expect(toHex(tree.workingRoot())).toBe(toHex(EMPTY_ROOT));
    expect(tree.commit()).toEqual({ version: 1, root: EMPTY_ROOT });
    const empty = decode(await tree.proveAbsence(utf8('k'), 1)).nonexist!;
    expect(empty.left ?? undefined).toBeUndefined();
    expect(empty.right ?? undefined).toBeUndefined();
    tree.set(utf8('m'), utf8('x'));
    tree.commit();
    for (const key of ['a', 'z']) {
      const p = decode(await tree.proveAbsence(utf8(key), 2));
      expect(verifyNonMembership(p, iavlSpec, tree.rootAt(2)!, utf8(key))).toBe(true);
    }
    // Deleting the last key brings back the empty root.
    tree.delete(utf8('m'));
    expect(tree.commit().root).toEqual(EMPTY_ROOT);
  });

  it('starts at initialVersion, keeps the root of a version without writes, and reads past versions', async () => {
    const tree = await openIavlTree(memoryNodeDb(), { initialVersion: 5 });
    tree.set(utf8('k'), utf8('v1'));
    expect(tree.commit().version).toBe(5);
    const r5 = tree.rootAt(5)!;
    expect(tree.commit()).toEqual({ version: 6, root: r5 });
    tree.set(utf8('k'), utf8('v2'));
    tree.set(utf8('other'), utf8('o'));
    tree.commit();
    expect(await tree.getAt(utf8('k'), 5)).toEqual(utf8('v1'));
    expect(await tree.getAt(utf8('other'), 6)).toBeUndefined();
    expect(await tree.getAt(utf8('k'), 7)).toEqual(utf8('v2'));
    expect(tree.rootAt(4)).toBeUndefined();
    await expect(tree.getAt(utf8('k'), 4)).rejects.toThrow(IavlVersionError);
    await expect(tree.proveExistence(utf8('k'), 8)).rejects.toThrow('version does not exist: 8 (latest: 7)');
    expect((await tree.entriesAt(7)).map(([k]) => Buffer.from(k).toString())).toEqual(['k', 'other']);
  });

  it('drops uncommitted writes on discardChanges, and a rewrite of the same value still makes a new version of its leaf (as iavl)', async () => {
    const tree = await openIavlTree(memoryNodeDb());
    tree.set(utf8('k'), utf8('v'));
    const r1 = tree.commit().root;
    tree.set(utf8('k'), utf8('other'));
    tree.set(utf8('x'), utf8('y'));
    tree.discardChanges();
    expect(tree.get(utf8('k'))).toEqual(utf8('v'));
    expect(tree.get(utf8('x'))).toBeUndefined();
    expect(tree.workingRoot()).toEqual(r1);
    tree.set(utf8('k'), utf8('v'));
    expect(toHex(tree.commit().root)).not.toBe(toHex(r1));
  });

  it('keeps only the keepRecent newest versions and deletes the nodes only older ones used', async () => {
    const db = memoryNodeDb();
    const tree = await openIavlTree(db, { keepRecent: 2 });
    tree.set(utf8('a'), utf8('1'));
    tree.set(utf8('b'), utf8('1'));
    const root1 = tree.commit().root; // 1
    tree.set(utf8('a'), utf8('2'));
    tree.commit(); // 2
    expect(await db.getNode(root1)).toBeDefined();
    tree.set(utf8('a'), utf8('3'));
    tree.commit(); // 3: version 1 goes
    expect(tree.hasVersion(1)).toBe(false);
    expect(tree.oldestVersion).toBe(2);
    await expect(tree.getAt(utf8('a'), 1)).rejects.toThrow(IavlVersionError);
    expect(await tree.getAt(utf8('a'), 2)).toEqual(utf8('2'));
    expect(await tree.getAt(utf8('b'), 2)).toEqual(utf8('1'));
    expect([...(await db.loadRoots()).roots.keys()].sort()).toEqual([2, 3]);
    // Version 1's root and its leaf of `a` are gone; `b`'s leaf, made in version 1 and still live, stays.
    expect(await db.getNode(root1)).toBeUndefined();
    expect(await db.getNode(leafHash(utf8('a'), utf8('1'), 1))).toBeUndefined();
    expect(await db.getNode(leafHash(utf8('a'), utf8('2'), 2))).toBeDefined();
    expect(await db.getNode(leafHash(utf8('b'), utf8('1'), 1))).toBeDefined();
    const proofB = decode(await tree.proveExistence(utf8('b'), 3));
    expect(verifyMembership(proofB, iavlSpec, tree.rootAt(3)!, utf8('b'), utf8('1'))).toBe(true);
  });

  it('commits a later version when versions are skipped: they read as the last one, with the same root (as empty iavl commits)', async () => {
    const a = await openIavlTree(memoryNodeDb());
    const b = await openIavlTree(memoryNodeDb());
    for (const t of [a, b]) {
      t.set(utf8('k'), utf8('v1'));
      t.commit();
    }
    // `b` commits every version; `a` skips 2..9 and commits 10 directly.
    for (let v = 2; v <= 9; v++) b.commit();
    for (const t of [a, b]) t.set(utf8('k2'), utf8('v10'));
    // A working root hashed as the next version first must not leak into version 10's hashes.
    a.workingRoot();
    const at10 = a.workingRoot(10);
    expect(a.commit(undefined, 10)).toEqual(b.commit());
    expect(at10).toEqual(a.rootAt(10));
    expect(a.rootAt(7)).toEqual(a.rootAt(1));
    expect(a.hasVersion(11)).toBe(false);
    expect(await a.getAt(utf8('k2'), 9)).toBeUndefined();
    expect(await a.getAt(utf8('k'), 9)).toEqual(utf8('v1'));
    const proof = decode(await a.proveExistence(utf8('k'), 5));
    expect(verifyMembership(proof, iavlSpec, a.rootAt(5)!, utf8('k'), utf8('v1'))).toBe(true);
    expect(() => a.commit(undefined, 10)).toThrow(/cannot commit version 10: the next version is 11/);
    expect(() => a.workingRoot(3)).toThrow(RangeError);
  });

  it('prunes across skipped versions only once no kept version reads through them', async () => {
    const db = memoryNodeDb();
    const tree = await openIavlTree(db, { keepRecent: 5 });
    const commitAt = (v: number) => {
      tree.set(utf8('k'), utf8(`v${v}`));
      return tree.commit(undefined, v);
    };
    commitAt(1);
    commitAt(2);
    commitAt(100); // versions 96..99 read as 2: 2 stays, 1 goes
    expect([tree.oldestVersion, tree.version]).toEqual([2, 100]);
    expect(await tree.getAt(utf8('k'), 96)).toEqual(utf8('v2'));
    commitAt(101);
    expect(tree.oldestVersion).toBe(2);
    commitAt(105); // keeps 101..105: 2 and 100 go
    expect([tree.oldestVersion, tree.version]).toEqual([101, 105]);
    expect(tree.hasVersion(100)).toBe(false);
    expect(await tree.getAt(utf8('k'), 103)).toEqual(utf8('v101'));
    expect([...(await db.loadRoots()).roots.keys()].sort((x, y) => x - y)).toEqual([101, 105]);
  });

  it('refuses an empty key and bad options', async () => {
    const tree = await openIavlTree(memoryNodeDb());
    expect(() => tree.set(new Uint8Array(0), utf8('v'))).toThrow(/key is empty/);
    await expect(openIavlTree(memoryNodeDb(), { keepRecent: -1 })).rejects.toThrow(/keepRecent/);
    await expect(openIavlTree(memoryNodeDb(), { initialVersion: 0 })).rejects.toThrow(/initialVersion/);
  });
});
