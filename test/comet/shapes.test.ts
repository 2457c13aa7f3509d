/**
 * Raw JSON of the main methods, field by field against REFERENCE §1.5: int64 as strings, 32-bit
 * ints as numbers, HexBytes as upper-case hex, []byte as base64, RFC 3339 times, URI id -1,
 * Cache-Control and X-Server-Time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBase64, fromHex } from '../../src/crypto/encoding.js';
import { sha256 } from '../../src/crypto/hash.js';
import { verifyTxProof } from '../../src/types/txs.js';
import { b64, call, DEV, get, post, signTransfer, startCometTestNode, type CometTestNode } from './helpers.js';

const HEX32 = /^[0-9A-F]{64}$/;
const HEX20 = /^[0-9A-F]{40}$/;
const INT = /^-?\d+$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const B64 = /^[A-Za-z0-9+/]*={0,2}$/;

let t: CometTestNode;
let tx: Uint8Array;
let txHashHex: string;
let txHeight: number;

beforeAll(async () => {
  t = await startCometTestNode();
  tx = await signTransfer({ nonce: 0 });
  const r = await call(t.url, 'broadcast_tx_commit', { tx: b64(tx) });
  txHashHex = r.result.hash;
  txHeight = Number(r.result.height);
  await t.node.mine(2);
  // A tx with a nonce gap stays queued in the mempool for the mempool views.
  await call(t.url, 'broadcast_tx_sync', { tx: b64(await signTransfer({ from: 1, nonce: 50 })) });
});

afterAll(async () => {
  await t?.stop();
});

function expectHeader(h: any): void {
  expect(h.version.block).toBe('11');
  expect(h.chain_id).toBe(t.node.chainId);
  expect(h.height).toMatch(INT);
  expect(h.time).toMatch(TIME);
  for (const k of ['last_commit_hash', 'data_hash', 'validators_hash', 'next_validators_hash', 'consensus_hash', 'app_hash', 'evidence_hash'])
    expect(h[k]).toMatch(HEX32);
  expect(h.proposer_address).toMatch(HEX20);
}

function expectBlockId(b: any): void {
  expect(b.hash).toMatch(HEX32);
  expect(typeof b.parts.total).toBe('number');
  expect(b.parts.total).toBeGreaterThanOrEqual(1);
  expect(b.parts.hash).toMatch(HEX32);
}

function expectExecTxResult(r: any): void {
  expect(Object.keys(r)).toEqual(['code', 'data', 'log', 'info', 'gas_wanted', 'gas_used', 'events', 'codespace']);
  expect(typeof r.code).toBe('number');
  expect(r.data === null || B64.test(r.data)).toBe(true);
  expect(r.gas_wanted).toMatch(INT);
  expect(r.gas_used).toMatch(INT);
  for (const e of r.events) {
    expect(typeof e.type).toBe('string');
    for (const a of e.attributes) expect(Object.keys(a)).toEqual(['key', 'value', 'index']);
  }
}

describe('URI and JSON-RPC envelopes', () => {
  it('URI answers carry id -1, X-Server-Time and JSON content type', async () => {
    const r = await get(t.url, '/health');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ jsonrpc: '2.0', id: -1, result: {} });
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(Number(r.headers.get('x-server-time'))).toBeCloseTo(Date.now() / 1000, -1);
  });

  it('adds Cache-Control to cacheable calls with an explicit height only', async () => {
    expect((await get(t.url, '/block?height=1')).headers.get('cache-control')).toBe('public, max-age=86400');
    expect((await get(t.url, '/block')).headers.get('cache-control')).toBeNull();
    expect((await get(t.url, '/genesis')).headers.get('cache-control')).toBe('public, max-age=86400');
    expect((await get(t.url, '/status')).headers.get('cache-control')).toBeNull();
    const rpc = await post(t.url, { jsonrpc: '2.0', id: 'x', method: 'block', params: { height: '1' } });
    expect(rpc.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(rpc.json.id).toBe('x');
    // An error is never cached (over JSON-RPC CometBFT would cache it: see docs, differences).
    expect((await get(t.url, '/block?height=99999')).headers.get('cache-control')).toBeNull();
    const failed = await post(t.url, { jsonrpc: '2.0', id: 1, method: 'block', params: { height: '99999' } });
    expect(failed.json.error.code).toBe(-32603);
    expect(failed.headers.get('cache-control')).toBeNull();
  });

  it('serves the HTML endpoint list on an empty GET /', async () => {
    const r = await get(t.url, '/');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    expect(r.text).toContain('Available endpoints:');
    expect(r.text).toContain('/abci_query?path=_&amp;data=_&amp;height=_&amp;prove=_'.replace(/&amp;/g, '&'));
    expect(r.text).not.toContain('dial_seeds');
  });
});

describe('info methods', () => {
  it('status', async () => {
    const { result: s } = (await get(t.url, '/status')).json;
    expect(s.node_info.protocol_version).toEqual({ p2p: '8', block: '11', app: expect.stringMatching(INT) });
    expect(s.node_info.id).toMatch(/^[0-9a-f]{40}$/);
    expect(s.node_info.version).toBe('0.38.25');
    expect(s.node_info.network).toBe(t.node.chainId);
    expect(s.node_info.channels).toBe('40202122233038606100');
    expect(s.node_info.other).toEqual({ tx_index: 'on', rpc_address: `tcp://${new URL(t.url).host}` });
    const sync = s.sync_info;
    expect(sync.latest_block_height).toBe(String(t.node.height));
    expect(sync.latest_block_hash).toMatch(HEX32);
    expect(sync.latest_app_hash).toMatch(HEX32);
    expect(sync.latest_block_time).toMatch(TIME);
    expect(sync.earliest_block_height).toBe('1');
    expect(sync.catching_up).toBe(false);
    expect(s.validator_info.address).toMatch(HEX20);
    expect(s.validator_info.pub_key.type).toBe('tendermint/PubKeyEd25519');
    expect(fromBase64(s.validator_info.pub_key.value)).toHaveLength(32);
    expect(s.validator_info.voting_power).toMatch(INT);
  });

  it('block with a tx, and block 1 with empty last block id and commit', async () => {
    const { result } = (await get(t.url, `/block?height=${txHeight}`)).json;
    expectBlockId(result.block_id);
    expectHeader(result.block.header);
    expect(result.block.header.height).toBe(String(txHeight));
    expect(result.block.data.txs).toEqual([b64(tx)]);
    expect(result.block.evidence).toEqual({ evidence: [] });

    const { result: b1 } = await call(t.url, 'block', { height: '1' });
    expect(b1.block.header.last_block_id).toEqual({ hash: '', parts: { total: 0, hash: '' } });
    expect(b1.block.last_commit).toEqual({ height: '0', round: 0, block_id: { hash: '', parts: { total: 0, hash: '' } }, signatures: [] });

    const { result: b2 } = await call(t.url, 'block', { height: String(txHeight + 1) });
    const lc = b2.block.last_commit;
    expect(lc.height).toBe(String(txHeight));
    expect(lc.round).toBe(0);
    expect(lc.block_id).toEqual(result.block_id);
    expect(lc.signatures[0].block_id_flag).toBe(2);
    expect(lc.signatures[0].validator_address).toMatch(HEX20);
    expect(lc.signatures[0].timestamp).toMatch(TIME);
    expect(fromBase64(lc.signatures[0].signature)).toHaveLength(64);
  });

  it('block_by_hash, header and header_by_hash', async () => {
    const { result: b } = (await get(t.url, `/block?height=${txHeight}`)).json;
    const hash = b.block_id.hash as string;
    const byHash = (await call(t.url, 'block_by_hash', { hash: b64(fromHex(hash)) })).result;
    expect(byHash).toEqual(b);
    expect((await get(t.url, `/block_by_hash?hash=0x${hash}`)).json.result).toEqual(b);
    expect((await call(t.url, 'block_by_hash', { hash: b64(new Uint8Array(32)) })).result).toEqual({
      block_id: { hash: '', parts: { total: 0, hash: '' } },
      block: null,
    });
    expect((await call(t.url, 'header', { height: String(txHeight) })).result).toEqual({ header: b.block.header });
    expect((await call(t.url, 'header_by_hash', { hash })).result).toEqual({ header: b.block.header });
    expect((await call(t.url, 'header_by_hash', { hash: '00'.repeat(32) })).result).toEqual({ header: null });
  });

  it('blockchain: string sizes and counts, newest first', async () => {
    const { result } = (await get(t.url, '/blockchain?minHeight=1&maxHeight=3')).json;
    expect(result.last_height).toBe(String(t.node.height));
    expect(result.block_metas.map((m: any) => m.header.height)).toEqual(['3', '2', '1']);
    for (const m of result.block_metas) {
      expectBlockId(m.block_id);
      expect(m.block_size).toMatch(INT);
      expect(m.num_txs).toMatch(INT);
    }
    expect((await call(t.url, 'blockchain', { minHeight: '-1', maxHeight: '0' })).error.data).toBe('heights must be non-negative');
  });

  it('block_results: jsonpb tx results, base64 app hash, nulls for empty lists', async () => {
    const { result } = (await get(t.url, `/block_results?height=${txHeight}`)).json;
    expect(result.height).toBe(String(txHeight));
    expect(result.txs_results).toHaveLength(1);
    expectExecTxResult(result.txs_results[0]);
    expect(result.txs_results[0].gas_used).toBe('21000');
    expect(result.finalize_block_events.length).toBeGreaterThan(0);
    expect(result.validator_updates).toBeNull();
    expect(result.consensus_param_updates).toBeNull();
    // base64 here, hex in the header of the next block.
    const next = (await get(t.url, `/block?height=${txHeight + 1}`)).json.result.block.header;
    expect(Buffer.from(result.app_hash, 'base64').toString('hex').toUpperCase()).toBe(next.app_hash);
    const empty = (await get(t.url, `/block_results?height=${txHeight + 1}`)).json.result;
    expect(empty.txs_results).toBeNull();
  });

  it('commit: canonical for older heights, the seen commit for the latest', async () => {
    const old = (await get(t.url, `/commit?height=${txHeight}`)).json.result;
    expect(old.canonical).toBe(true);
    expectHeader(old.signed_header.header);
    expect(old.signed_header.commit.height).toBe(String(txHeight));
    const latest = (await get(t.url, '/commit')).json.result;
    expect(latest.canonical).toBe(false);
    expect(latest.signed_header.commit.height).toBe(String(t.node.height));
  });

  it('validators, consensus_params and genesis', async () => {
    const v = (await get(t.url, '/validators')).json.result;
    expect(v.block_height).toBe(String(t.node.height + 1));
    expect(v.count).toBe('1');
    expect(v.total).toBe('1');
    expect(v.validators[0]).toEqual({
      address: expect.stringMatching(HEX20),
      pub_key: { type: 'tendermint/PubKeyEd25519', value: expect.stringMatching(B64) },
      voting_power: expect.stringMatching(INT),
      proposer_priority: expect.stringMatching(INT),
    });
    const cp = (await get(t.url, '/consensus_params?height=1')).json.result;
    expect(cp.block_height).toBe('1');
    expect(cp.consensus_params.block.max_bytes).toMatch(INT);
    expect(cp.consensus_params.evidence.max_age_duration).toBe('172800000000000');
    expect(cp.consensus_params.validator.pub_key_types).toEqual(['ed25519']);

    const g = (await get(t.url, '/genesis')).json.result.genesis;
    expect(g.chain_id).toBe(t.node.chainId);
    expect(g.initial_height).toBe('1');
    expect(g.validators[0].power).toMatch(INT);
    const chunk = (await call(t.url, 'genesis_chunked', { chunk: '0' })).result;
    expect(chunk.chunk).toBe('0');
    expect(chunk.total).toBe('1');
    expect(JSON.parse(Buffer.from(chunk.data, 'base64').toString())).toEqual(g);
    expect((await call(t.url, 'genesis_chunked', { chunk: '1' })).error.data).toBe('there are 0 chunks, 1 is invalid');
  });

  it('net_info, consensus_state and dump_consensus_state', async () => {
    expect((await get(t.url, '/net_info')).json.result).toEqual({ listening: true, listeners: ['Listener(@tcp://0.0.0.0:26656)'], n_peers: '0', peers: [] });
    const cs = (await get(t.url, '/consensus_state')).json.result.round_state;
    expect(cs['height/round/step']).toBe(`${t.node.height + 1}/0/1`);
    expect(cs.proposer.address).toMatch(HEX20);
    const dump = (await get(t.url, '/dump_consensus_state')).json.result;
    expect(dump.round_state.height).toBe(String(t.node.height + 1));
    expect(dump.round_state.validators.validators).toHaveLength(1);
    expect(dump.peers).toEqual([]);
  });
});

describe('tx queries', () => {
  it('tx by base64 hash (JSON-RPC) and 0x hash (URI); a proof only with prove=true', async () => {
    const hash = fromHex(txHashHex);
    const r = (await call(t.url, 'tx', { hash: b64(hash) })).result;
    expect(r.hash).toBe(txHashHex);
    expect(r.height).toBe(String(txHeight));
    expect(r.index).toBe(0);
    expect(r.tx).toBe(b64(tx));
    expectExecTxResult(r.tx_result);
    expect(r).not.toHaveProperty('proof');

    const p = (await get(t.url, `/tx?hash=0x${txHashHex}&prove=true`)).json.result;
    expect(p.proof.root_hash).toMatch(HEX32);
    expect(p.proof.data).toBe(b64(tx));
    expect(p.proof.proof).toEqual({ total: '1', index: '0', leaf_hash: expect.stringMatching(B64), aunts: [] });
    const header = (await get(t.url, `/header?height=${txHeight}`)).json.result.header;
    expect(p.proof.root_hash).toBe(header.data_hash);
    const proof = {
      rootHash: fromHex(p.proof.root_hash),
      data: fromBase64(p.proof.data),
      proof: { total: 1, index: 0, leafHash: fromBase64(p.proof.proof.leaf_hash), aunts: [] },
    };
    expect(verifyTxProof(proof, fromHex(header.data_hash))).toBe(true);

    expect((await call(t.url, 'tx', { hash: b64(new Uint8Array(32)) })).error.data).toBe(`tx (${'00'.repeat(32)}) not found`);
  });

  it('tx_search and block_search: totals as strings, server-side order and paging', async () => {
    const q = `tx.height = ${txHeight}`;
    const s = (await call(t.url, 'tx_search', { query: q, prove: true })).result;
    expect(s.total_count).toBe('1');
    expect(s.txs[0].hash).toBe(txHashHex);
    expect(s.txs[0].proof.root_hash).toMatch(HEX32);
    expect((await get(t.url, `/tx_search?query="${encodeURIComponent(q)}"`)).json.result.total_count).toBe('1');

    const desc = (await call(t.url, 'block_search', { query: 'block.height <= 3' })).result;
    expect(desc.total_count).toBe('3');
    expect(desc.blocks.map((b: any) => b.block.header.height)).toEqual(['3', '2', '1']);
    const asc = (await call(t.url, 'block_search', { query: 'block.height <= 3', order_by: 'asc', per_page: '2', page: '2' })).result;
    expect(asc.blocks.map((b: any) => b.block.header.height)).toEqual(['3']);
    expect((await call(t.url, 'block_search', { query: 'block.height <= 3', page: '3', per_page: '2' })).error.data).toBe(
      'page should be within [1, 2] range, given 3',
    );
    expect((await call(t.url, 'tx_search', { query: q, order_by: 'up' })).error.data).toBe("expected order_by to be either 'asc' or 'desc' or empty");
    expect((await call(t.url, 'tx_search', { query: 'x'.repeat(513) })).error.data).toBe('maximum query length exceeded');
  });
});

describe('tx submission and the mempool', () => {
  it('broadcast_tx_sync: CheckTx code, hex data, hex hash', async () => {
    const raw = await signTransfer({ from: 4, nonce: 0 });
    const r = (await call(t.url, 'broadcast_tx_sync', { tx: b64(raw) })).result;
    expect(r).toEqual({ code: 0, data: '', log: '', codespace: '', hash: Buffer.from(sha256(raw)).toString('hex').toUpperCase() });
    const bad = (await call(t.url, 'broadcast_tx_sync', { tx: b64(await signTransfer({ from: 4, nonce: 0, value: 7n })) })).result;
    expect(bad.code).not.toBe(0);
    expect(bad.log).toMatch(/nonce/);
    expect((await call(t.url, 'broadcast_tx_sync', { tx: b64(raw) })).error).toEqual({
      code: -32603,
      message: 'Internal error',
      data: 'tx already exists in cache',
    });
  });

  it('broadcast_tx_async answers with the hash only', async () => {
    const raw = await signTransfer({ from: 5, nonce: 0 });
    const r = (await get(t.url, `/broadcast_tx_async?tx=0x${Buffer.from(raw).toString('hex')}`)).json.result;
    expect(r).toEqual({ code: 0, data: '', log: '', codespace: '', hash: Buffer.from(sha256(raw)).toString('hex').toUpperCase() });
    // A queued tx (nonce gap) stays in the pool: sending it again fails the seen-tx check.
    const queued = b64(await signTransfer({ from: 5, nonce: 10 }));
    expect((await call(t.url, 'broadcast_tx_async', { tx: queued })).result.code).toBe(0);
    expect((await call(t.url, 'broadcast_tx_async', { tx: queued })).error.data).toBe('tx already exists in cache');
  });

  it('broadcast_tx_commit: flat jsonpb check_tx, tx_result and string height', async () => {
    const raw = await signTransfer({ from: 6, nonce: 0 });
    const r = (await call(t.url, 'broadcast_tx_commit', { tx: b64(raw) })).result;
    expect(Object.keys(r)).toEqual(['check_tx', 'tx_result', 'hash', 'height']);
    expectExecTxResult(r.check_tx);
    expectExecTxResult(r.tx_result);
    expect(r.height).toMatch(INT);
    expect(Number(r.height)).toBeGreaterThan(0);
  });

  it('check_tx runs CheckTx without admitting the tx', async () => {
    const raw = await signTransfer({ from: 2, nonce: 0 });
    const before = t.node.internals.mempool.size();
    const r = (await call(t.url, 'check_tx', { tx: b64(raw) })).result;
    expectExecTxResult(r);
    expect(r.code).toBe(0);
    expect(r.gas_wanted).toBe('21000');
    expect(t.node.internals.mempool.size()).toBe(before);
    // Not in the seen cache either: it can still be broadcast.
    expect((await call(t.url, 'broadcast_tx_sync', { tx: b64(raw) })).result.code).toBe(0);
  });

  it('unconfirmed_txs and num_unconfirmed_txs', async () => {
    const u = (await get(t.url, '/unconfirmed_txs?limit=5')).json.result;
    expect(u.n_txs).toMatch(INT);
    expect(Number(u.total)).toBeGreaterThanOrEqual(1);
    expect(u.total_bytes).toMatch(INT);
    expect(u.txs.every((x: string) => B64.test(x))).toBe(true);
    const n = (await get(t.url, '/num_unconfirmed_txs')).json.result;
    expect(n.txs).toBeNull();
    expect(n.n_txs).toBe(n.total);
  });
});

describe('abci', () => {
  it('abci_info omits zero fields and encodes the app hash as base64', async () => {
    const r = (await get(t.url, '/abci_info')).json.result.response;
    expect(r.data).toBe('chainlet');
    expect(r.app_version).toMatch(INT);
    expect(r.last_block_height).toBe(String(t.node.height));
    expect(fromBase64(r.last_block_app_hash)).toHaveLength(32);
  });

  it('abci_query: hex data, jsonpb response with proofOps', async () => {
    const addr = DEV[7]!.address;
    const r = (await call(t.url, 'abci_query', { path: '/evm/balance', data: addr.slice(2), height: '0', prove: false })).result.response;
    expect(Object.keys(r)).toEqual(['code', 'log', 'info', 'index', 'key', 'value', 'proofOps', 'height', 'codespace']);
    expect(r.code).toBe(0);
    expect(r.index).toBe('0');
    expect(r.height).toMatch(INT);
    expect(JSON.parse(Buffer.from(r.value, 'base64').toString()).balance).toBe('10000000000000000000000');
    const uri = (await get(t.url, `/abci_query?path="/evm/balance/${addr}"`)).json.result.response;
    expect(uri.value).toBe(r.value);
  });
});
