/**
 * ibc-go's MerkleProof checks on proofs made by the app stores (an IAVL `ibc` tree under a
 * multistore root): membership, non-membership, and ibc-go's errors for a wrong value, a wrong
 * root, an empty or undecodable proof, an existence proof given for an absence.
 */
import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import { CosmosTxError } from '../sdk/errors.js';
import type { IavlSublevel, NodeBatch } from '../store/iavl/index.js';
import { memoryNodeDb } from '../store/iavl/index.js';
import { AppStores } from './app-stores.js';
import { COMMITMENT_PREFIX } from './keys.js';
import { encodeMerkleProof, verifyIbcMembership, verifyIbcNonMembership } from './proofs.js';

const utf8 = new TextEncoder();

async function stores(): Promise<{ s: AppStores; appHash: Uint8Array }> {
  const db = new MemoryLevel<Uint8Array, Uint8Array>({ keyEncoding: 'view', valueEncoding: 'view' });
  const heights = db.sublevel<Uint8Array, Uint8Array>('h', { keyEncoding: 'view', valueEncoding: 'view' }) as unknown as IavlSublevel;
  const s = await AppStores.open(
    new Map([
      ['ibc', memoryNodeDb()],
      ['other', memoryNodeDb()],
    ]),
    heights,
  );
  s.apply('ibc', [
    ['connections/connection-0', utf8.encode('conn')],
    ['receipts/ports/transfer/channels/channel-0/sequences/2', Uint8Array.of(1)],
  ]);
  s.apply('other', [['x', utf8.encode('y')]]);
  const appHash = s.workingHash();
  const batch: NodeBatch = [];
  s.commit(5, batch);
  await heights.batch(batch.map((o) => ({ type: 'put' as const, key: o.key, value: o.value! })));
  return { s, appHash };
}

async function proof(s: AppStores, key: string): Promise<Uint8Array> {
  const r = await s.query('ibc', utf8.encode(key), 5, true);
  return encodeMerkleProof(r.proofOps!.map((o) => o.data));
}

function failure(f: () => void): { code: number; codespace: string; log: string } | undefined {
  try {
    f();
  } catch (e) {
    if (e instanceof CosmosTxError) return { code: e.code, codespace: e.codespace, log: e.log };
    throw e;
  }
  return undefined;
}

describe('verifyIbcMembership / verifyIbcNonMembership', () => {
  it('verify what the stores prove, and refuse a wrong value, root, empty proof or the wrong kind of proof', async () => {
    const { s, appHash } = await stores();
    const conn = await proof(s, 'connections/connection-0');
    expect(failure(() => verifyIbcMembership(conn, appHash, COMMITMENT_PREFIX, 'connections/connection-0', utf8.encode('conn')))).toBeUndefined();
    expect(failure(() => verifyIbcMembership(conn, appHash, COMMITMENT_PREFIX, 'connections/connection-0', utf8.encode('other')))).toMatchObject({
      code: 2,
      codespace: 'commitment',
      log: expect.stringMatching(/^chained membership proof failed to verify membership of value: .* at index 0/),
    });
    const wrongRoot = Uint8Array.from(appHash, (b, i) => (i === 0 ? b ^ 1 : b));
    expect(failure(() => verifyIbcMembership(conn, wrongRoot, COMMITMENT_PREFIX, 'connections/connection-0', utf8.encode('conn')))?.log).toMatch(
      /proof did not commit to expected root|failed to verify membership of value/,
    );
    expect(failure(() => verifyIbcMembership(new Uint8Array(0), appHash, COMMITMENT_PREFIX, 'connections/connection-0', utf8.encode('conn')))).toEqual({
      code: 4,
      codespace: 'commitment',
      log: 'proof cannot be empty: invalid merkle proof',
    });
    expect(
      failure(() => verifyIbcMembership(Uint8Array.of(0xff, 0xff), appHash, COMMITMENT_PREFIX, 'connections/connection-0', utf8.encode('conn')))?.log,
    ).toBe('failed to unmarshal proof into ICS 23 commitment merkle proof: invalid proof');

    const absentKey = 'receipts/ports/transfer/channels/channel-0/sequences/1';
    const absent = await proof(s, absentKey);
    expect(failure(() => verifyIbcNonMembership(absent, appHash, COMMITMENT_PREFIX, absentKey))).toBeUndefined();
    // The absence of sequence 1 says nothing of sequence 3; a present receipt has no absence proof.
    expect(failure(() => verifyIbcNonMembership(absent, appHash, COMMITMENT_PREFIX, absentKey.replace(/1$/, '3')))?.log).toMatch(
      /could not verify absence of key/,
    );
    const presentKey = absentKey.replace(/1$/, '2');
    const present = await proof(s, presentKey);
    expect(failure(() => verifyIbcNonMembership(present, appHash, COMMITMENT_PREFIX, presentKey))?.log).toMatch(/^got ExistenceProof in VerifyNonMembership/);
    // A membership proof read as an absence the other way round: a nonexistence proof in a chain of memberships.
    expect(failure(() => verifyIbcMembership(absent, appHash, COMMITMENT_PREFIX, absentKey, Uint8Array.of(1)))?.log).toMatch(
      /contains nonexistence proof at index 0/,
    );
  });
});
