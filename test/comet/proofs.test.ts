/**
 * Tx inclusion proofs and queries on a block holding several txs: every `TxProof` from `tx` and
 * `tx_search` (prove=true) must verify against the block's `data_hash` with an RFC 6962 verifier
 * written here from the definition (not the node's own), and paging/order must hold within a
 * height. Params are also sent by position (JSON-RPC array form).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { b64, call, get, signTransfer, startCometTestNode, type CometTestNode } from './helpers.js';

const N_TXS = 5; // not a power of two: the proof path crosses an uneven split

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const leafHash = (leaf: Uint8Array) => sha256(Uint8Array.of(0), leaf);
const innerHash = (l: Uint8Array, r: Uint8Array) => sha256(Uint8Array.of(1), l, r);

/** Largest power of two strictly below n (n ≥ 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** RFC 6962 root from a leaf hash and its aunts (innermost first), or undefined if malformed. */
function rootFromAunts(index: number, total: number, leaf: Uint8Array, aunts: Uint8Array[]): Uint8Array | undefined {
  if (index < 0 || index >= total) return undefined;
  if (total === 1) return aunts.length === 0 ? leaf : undefined;
  if (aunts.length === 0) return undefined;
  const k = splitPoint(total);
  const rest = aunts.slice(0, -1);
  const last = aunts[aunts.length - 1]!;
  if (index < k) {
    const left = rootFromAunts(index, k, leaf, rest);
    return left && innerHash(left, last);
  }
  const right = rootFromAunts(index - k, total - k, leaf, rest);
  return right && innerHash(last, right);
}

/** Checks a TxProof JSON the way a light client would. */
function verifyProofJson(p: any, tx: Uint8Array, dataHashHex: string): boolean {
  if (p.root_hash !== dataHashHex) return false;
  if (!Buffer.from(p.data, 'base64').equals(Buffer.from(tx))) return false;
  const leaf = leafHash(sha256(tx)); // data_hash leaves are the tx hashes
  if (!leaf.equals(Buffer.from(p.proof.leaf_hash, 'base64'))) return false;
  const aunts = (p.proof.aunts as string[]).map((a) => Buffer.from(a, 'base64'));
  const root = rootFromAunts(Number(p.proof.index), Number(p.proof.total), leaf, aunts);
  return root !== undefined && Buffer.from(root).toString('hex').toUpperCase() === dataHashHex;
}

let t: CometTestNode;
const txs: Uint8Array[] = [];
let height: number;
let dataHash: string;

beforeAll(async () => {
  t = await startCometTestNode({ config: { consensus: { mode: 'manual' } } });
  for (let i = 0; i < N_TXS; i++) {
    const raw = await signTransfer({ nonce: i, value: BigInt(i + 1) });
    txs.push(raw);
    expect((await call(t.url, 'broadcast_tx_sync', { tx: b64(raw) })).result.code).toBe(0);
  }
  [height] = (await t.node.mine(1)) as [number];
  dataHash = (await call(t.url, 'header', [String(height)])).result.header.data_hash;
});

afterAll(async () => {
  await t?.stop();
});

describe('TxProof on a block of several txs', () => {
  it('puts every tx in one block', async () => {
    const block = (await call(t.url, 'block', [String(height)])).result.block;
    expect(block.data.txs).toEqual(txs.map(b64));
  });

  it('tx prove=true: each proof verifies against data_hash, with real aunts', async () => {
    for (let i = 0; i < N_TXS; i++) {
      const r = (await call(t.url, 'tx', { hash: b64(sha256(txs[i]!)), prove: true })).result;
      expect(r.index).toBe(i);
      expect(r.proof.proof.total).toBe(String(N_TXS));
      expect(r.proof.proof.index).toBe(String(i));
      expect(r.proof.proof.aunts.length).toBeGreaterThan(0);
      expect(verifyProofJson(r.proof, txs[i]!, dataHash)).toBe(true);
    }
  });

  it('a proof does not verify for another tx or a tampered aunt', async () => {
    const p = (await get(t.url, `/tx?hash=0x${sha256(txs[2]!).toString('hex')}&prove=true`)).json.result.proof;
    expect(verifyProofJson(p, txs[2]!, dataHash)).toBe(true);
    expect(verifyProofJson({ ...p, data: b64(txs[3]!) }, txs[3]!, dataHash)).toBe(false);
    const aunts = [...p.proof.aunts];
    aunts[0] = b64(new Uint8Array(32));
    expect(verifyProofJson({ ...p, proof: { ...p.proof, aunts } }, txs[2]!, dataHash)).toBe(false);
  });

  it('tx_search prove=true: proofs for the whole height, in index order, paged and reversed', async () => {
    const q = `tx.height = ${height}`;
    const all = (await call(t.url, 'tx_search', { query: q, prove: true, per_page: '10' })).result;
    expect(all.total_count).toBe(String(N_TXS));
    expect(all.txs.map((x: any) => x.index)).toEqual([0, 1, 2, 3, 4]);
    all.txs.forEach((x: any, i: number) => expect(verifyProofJson(x.proof, txs[i]!, dataHash)).toBe(true));

    // Positional params: query, prove, page, per_page, order_by.
    const page2 = (await call(t.url, 'tx_search', [q, false, '2', '2', 'desc'])).result;
    expect(page2.txs.map((x: any) => x.index)).toEqual([2, 1]);
    expect(page2.txs[0]).not.toHaveProperty('proof');
    expect((await call(t.url, 'tx_search', [q, false, '4', '2', 'asc'])).error.data).toBe('page should be within [1, 3] range, given 4');
  });
});

describe('params by position (JSON-RPC array form)', () => {
  it('decodes each param from its position', async () => {
    const chain = (await call(t.url, 'blockchain', [String(height), String(height)])).result;
    expect(chain.block_metas.map((m: any) => m.header.height)).toEqual([String(height)]);
    expect(chain.block_metas[0].num_txs).toBe(String(N_TXS));
    const res = (await call(t.url, 'block_results', [String(height)])).result;
    expect(res.txs_results).toHaveLength(N_TXS);
    const byHash = (await call(t.url, 'tx', [b64(sha256(txs[4]!)), false])).result;
    expect(byHash.index).toBe(4);
    expect((await call(t.url, 'validators', [String(height), '1', '1'])).result.count).toBe('1');
  });
});
