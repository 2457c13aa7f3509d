import { createHash } from 'node:crypto';
import { keccak256 } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, CHAIN_ID, EVM_CHAIN_ID, getJson, pollStatus, postJson, signedTxBase64, startRoutingNode, type RoutingFixture } from './helpers.js';

const sha256Upper = (b64: string) => createHash('sha256').update(Buffer.from(b64, 'base64')).digest('hex').toUpperCase();
const keccakOf = (b64: string) => keccak256(Buffer.from(b64, 'base64'));
const TERMINAL = ['STATE_COMPLETED_SUCCESS', 'STATE_COMPLETED_ERROR', 'STATE_ABANDONED'];
const isTerminal = (s: string) => TERMINAL.includes(s);

/** A deployment whose init code reverts (PUSH1 0 PUSH1 0 REVERT): executed, receipt status 0. */
async function revertingDeploy(nonce: number): Promise<string> {
  const raw = await account.signTransaction({
    chainId: 9000,
    type: 'eip1559',
    nonce,
    data: '0x60006000fd',
    gas: 100_000n,
    maxFeePerGas: 10_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  });
  return Buffer.from(raw.slice(2), 'hex').toString('base64');
}

let auto: RoutingFixture;
let manual: RoutingFixture;

beforeAll(async () => {
  [auto, manual] = await Promise.all([startRoutingNode(), startRoutingNode({ consensus: { mode: 'manual' } })]);
});
afterAll(async () => {
  await Promise.all([auto?.stop(), manual?.stop()]);
});

let autoNonce = 0;

describe('POST /v2/tx/submit → GET /v2/tx/status', () => {
  it('reaches STATE_COMPLETED_SUCCESS, visible from the first status call', async () => {
    const tx = await signedTxBase64({ nonce: autoNonce++ });
    const sub = await postJson(`${auto.url}/v2/tx/submit`, { chain_id: EVM_CHAIN_ID, tx });
    expect(sub.status).toBe(200);
    // The EVM face answers the keccak hash users of EVM chains know.
    expect(sub.body).toEqual({ tx_hash: keccakOf(tx), explorer_link: `${auto.url}/explorer/tx/${keccakOf(tx)}` });
    const seen = await pollStatus(auto.url, EVM_CHAIN_ID, sub.body.tx_hash, isTerminal);
    const states = seen.map((s) => s.state);
    expect(['STATE_SUBMITTED', 'STATE_PENDING', 'STATE_COMPLETED_SUCCESS']).toContain(states[0]);
    expect(states.at(-1)).toBe('STATE_COMPLETED_SUCCESS');
    expect(seen.at(-1)).toEqual({
      state: 'STATE_COMPLETED_SUCCESS',
      transfers: [],
      transfer_sequence: [],
      next_blocking_transfer: null,
      transfer_asset_release: null,
      error: null,
      status: 'STATE_COMPLETED',
    });
  });

  it('answers the upper-case SHA-256 hash on the cosmos face; both hashes find the tx', async () => {
    const tx = await signedTxBase64({ nonce: autoNonce++ });
    const sub = await postJson(`${auto.url}/v2/tx/submit`, { chain_id: CHAIN_ID, tx });
    expect(sub.status).toBe(200);
    expect(sub.body.tx_hash).toBe(sha256Upper(tx));
    await pollStatus(auto.url, CHAIN_ID, sub.body.tx_hash, isTerminal);
    const byEth = await getJson(`${auto.url}/v2/tx/status?chain_id=${EVM_CHAIN_ID}&tx_hash=${keccakOf(tx)}`);
    expect(byEth.body.state).toBe('STATE_COMPLETED_SUCCESS');
    const lower = await getJson(`${auto.url}/v2/tx/status?chain_id=${CHAIN_ID}&tx_hash=${sha256Upper(tx).toLowerCase()}`);
    expect(lower.body.state).toBe('STATE_COMPLETED_SUCCESS');
  });

  it('is idempotent when the same tx is submitted twice', async () => {
    const f = manual;
    const tx = await signedTxBase64({ nonce: 0, value: 7n });
    const a = await postJson(`${f.url}/v2/tx/submit`, { chain_id: EVM_CHAIN_ID, tx });
    const b = await postJson(`${f.url}/v2/tx/submit`, { chain_id: EVM_CHAIN_ID, tx });
    expect(a.status).toBe(200);
    expect(b).toMatchObject({ status: 200, body: a.body });
    // Waiting in the mempool is not "seen on chain": STATE_SUBMITTED until a block includes it.
    expect((await getJson(`${f.url}/v2/tx/status?chain_id=${EVM_CHAIN_ID}&tx_hash=${a.body.tx_hash}`)).body.state).toBe('STATE_SUBMITTED');
    await f.node.mine(1);
    // Indexing runs behind the block; once it has caught up the result is known.
    await f.node.internals.indexer.flush();
    expect((await getJson(`${f.url}/v2/tx/status?chain_id=${EVM_CHAIN_ID}&tx_hash=${a.body.tx_hash}`)).body.state).toBe('STATE_COMPLETED_SUCCESS');
  });

  it('reports an executed but reverted tx as STATE_COMPLETED_ERROR with the error', async () => {
    const tx = await revertingDeploy(autoNonce++);
    const sub = await postJson(`${auto.url}/v2/tx/submit`, { chain_id: EVM_CHAIN_ID, tx });
    expect(sub.status).toBe(200);
    const last = (await pollStatus(auto.url, EVM_CHAIN_ID, sub.body.tx_hash, isTerminal)).at(-1);
    expect(last.state).toBe('STATE_COMPLETED_ERROR');
    expect(last.status).toBe('STATE_COMPLETED');
    expect(last.error.type).toBe('STATUS_ERROR_TRANSACTION_EXECUTION');
    expect(last.error.message).toMatch(/revert/i);
    expect(last.error.details).toEqual({ code: 0, message: last.error.message });
  });

  it('rejects a tx that is not base64 (400, code 3)', async () => {
    for (const tx of ['%%%not base64%%%', '', 12, undefined]) {
      const r = await postJson(`${auto.url}/v2/tx/submit`, { chain_id: EVM_CHAIN_ID, tx });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ code: 3, message: 'tx must be base64 encoded', details: [] });
    }
  });

  it('rejects a chain it does not host (404, code 5)', async () => {
    const tx = await signedTxBase64({ nonce: 0 });
    for (const chain_id of ['osmosis-1', '1', '', undefined]) {
      const r = await postJson(`${auto.url}/v2/tx/submit`, { chain_id, tx });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: 5, message: 'chain ID not supported', details: [] });
    }
  });

  it('passes CheckTx rejections on as code 3 with the chain’s words', async () => {
    const wrongChain = await signedTxBase64({ nonce: 0, chainId: 1 });
    const r = await postJson(`${auto.url}/v2/tx/submit`, { chain_id: EVM_CHAIN_ID, tx: wrongChain });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(3);
    expect(r.body.message).toMatch(/chain id/i);
    const garbage = await postJson(`${auto.url}/v2/tx/submit`, { chain_id: CHAIN_ID, tx: 'AQID' });
    expect(garbage.status).toBe(400);
    expect(garbage.body.code).toBe(3);
    expect(garbage.body.details).toEqual([]);
  });
});

describe('a node with a one-tx mempool and no tx indexer', () => {
  let lean: RoutingFixture;
  beforeAll(async () => {
    lean = await startRoutingNode({ consensus: { mode: 'manual' }, mempool: { size: 1 }, txIndex: { indexer: 'null' } });
  });
  afterAll(async () => {
    await lean?.stop();
  });

  it('answers a full mempool with 429, code 8; results then come from the EVM receipts', async () => {
    const first = await signedTxBase64({ nonce: 0 });
    const sub = await postJson(`${lean.url}/v2/tx/submit`, { chain_id: CHAIN_ID, tx: first });
    expect(sub.status).toBe(200);
    const full = await postJson(`${lean.url}/v2/tx/submit`, { chain_id: CHAIN_ID, tx: await signedTxBase64({ nonce: 1 }) });
    expect(full.status).toBe(429);
    expect(full.body.code).toBe(8);
    expect(full.body.message).toMatch(/^mempool is full/);
    expect(full.body.details).toEqual([]);

    expect((await getJson(`${lean.url}/v2/tx/status?chain_id=${CHAIN_ID}&tx_hash=${sub.body.tx_hash}`)).body.state).toBe('STATE_SUBMITTED');
    await lean.node.mine(1);
    // No indexer: the tracker finds the tx by its Ethereum hash and reads the receipt.
    expect((await getJson(`${lean.url}/v2/tx/status?chain_id=${CHAIN_ID}&tx_hash=${sub.body.tx_hash}`)).body).toMatchObject({
      state: 'STATE_COMPLETED_SUCCESS',
      error: null,
    });
    const page = await fetch(sub.body.explorer_link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<strong>success</strong>');
  });
});

describe('POST /v2/tx/track', () => {
  it('tracks a tx broadcast elsewhere and reports its result', async () => {
    const tx = await signedTxBase64({ nonce: autoNonce++ });
    await auto.node.broadcastTx(Buffer.from(tx, 'base64'));
    const r = await postJson(`${auto.url}/v2/tx/track`, { chain_id: CHAIN_ID, tx_hash: sha256Upper(tx) });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ tx_hash: sha256Upper(tx), explorer_link: `${auto.url}/explorer/tx/${sha256Upper(tx)}` });
    expect((await pollStatus(auto.url, CHAIN_ID, r.body.tx_hash, isTerminal)).at(-1).state).toBe('STATE_COMPLETED_SUCCESS');
  });

  it('answers `tx is invalid on chain` for a tx the chain knows as failed', async () => {
    const tx = await revertingDeploy(autoNonce++);
    const sub = await postJson(`${auto.url}/v2/tx/submit`, { chain_id: EVM_CHAIN_ID, tx });
    await pollStatus(auto.url, EVM_CHAIN_ID, sub.body.tx_hash, isTerminal);
    const r = await postJson(`${auto.url}/v2/tx/track`, { chain_id: EVM_CHAIN_ID, tx_hash: keccakOf(tx) });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: 3, message: 'tx is invalid on chain', details: [] });
  });

  it('rejects an unsupported chain (404) and a malformed hash (400)', async () => {
    const chain = await postJson(`${auto.url}/v2/tx/track`, { chain_id: 'cosmoshub-4', tx_hash: 'AB'.repeat(32) });
    expect(chain.status).toBe(404);
    expect(chain.body).toEqual({ code: 5, message: 'chain ID not supported', details: [] });
    const hash = await postJson(`${auto.url}/v2/tx/track`, { chain_id: CHAIN_ID, tx_hash: 'xyz' });
    expect(hash.status).toBe(400);
    expect(hash.body).toEqual({ code: 3, message: 'tx_hash must be a hex encoded 32-byte transaction hash or a base58 Solana signature', details: [] });
    const missing = await postJson(`${auto.url}/v2/tx/track`, { chain_id: CHAIN_ID });
    expect(missing.body).toEqual({ code: 3, message: 'tx_hash is required', details: [] });
  });
});

describe('GET /v2/tx/status errors', () => {
  it('answers `tx not found` (404, code 5) for a tx never submitted or tracked', async () => {
    const r = await getJson(`${auto.url}/v2/tx/status?chain_id=${CHAIN_ID}&tx_hash=${'CD'.repeat(32)}`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 5, message: 'tx not found', details: [] });
  });

  it('checks chain_id and tx_hash', async () => {
    const chain = await getJson(`${auto.url}/v2/tx/status?chain_id=juno-1&tx_hash=${'CD'.repeat(32)}`);
    expect(chain.status).toBe(404);
    expect(chain.body.message).toBe('chain ID not supported');
    const hash = await getJson(`${auto.url}/v2/tx/status?chain_id=${CHAIN_ID}`);
    expect(hash.status).toBe(400);
    expect(hash.body).toEqual({ code: 3, message: 'tx_hash is required', details: [] });
  });
});

describe('STATE_ABANDONED', () => {
  let short: RoutingFixture;
  beforeAll(async () => {
    // Long enough that the first status call (right after submit/track) surely comes first on a busy machine.
    short = await startRoutingNode({ routing: { submittedTimeoutMs: 2500, stalledTimeoutMs: 2500 } });
  });
  afterAll(async () => {
    await short?.stop();
  });

  it('abandons a tracked hash never seen in a block after the configured timeout', async () => {
    const hash = '0x' + 'ee'.repeat(32);
    const t = await postJson(`${short.url}/v2/tx/track`, { chain_id: EVM_CHAIN_ID, tx_hash: hash });
    expect(t.body.tx_hash).toBe(hash);
    const seen = await pollStatus(short.url, EVM_CHAIN_ID, hash, isTerminal);
    expect(seen[0].state).toBe('STATE_SUBMITTED');
    expect(seen.at(-1)).toMatchObject({ state: 'STATE_ABANDONED', status: 'STATE_ABANDONED', transfers: [] });
    expect(seen.at(-1).error.message).toMatch(/not seen in a block within 2.5s/);
  });

  it('abandons a submitted tx stuck in the mempool (nonce gap)', async () => {
    const gapped = await signedTxBase64({ nonce: 5 });
    const sub = await postJson(`${short.url}/v2/tx/submit`, { chain_id: EVM_CHAIN_ID, tx: gapped });
    expect(sub.status).toBe(200);
    const seen = await pollStatus(short.url, EVM_CHAIN_ID, sub.body.tx_hash, isTerminal);
    expect(seen[0].state).toBe('STATE_SUBMITTED');
    expect(seen.at(-1).state).toBe('STATE_ABANDONED');
  });
});

describe('explorer page', () => {
  it('shows a committed tx, its block and its result', async () => {
    const tx = await signedTxBase64({ nonce: autoNonce++, value: 5n });
    const sub = await postJson(`${auto.url}/v2/tx/submit`, { chain_id: EVM_CHAIN_ID, tx });
    await pollStatus(auto.url, EVM_CHAIN_ID, sub.body.tx_hash, isTerminal);
    const r = await fetch(sub.body.explorer_link);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await r.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain(sha256Upper(tx));
    expect(html).toContain(keccakOf(tx));
    expect(html).toContain(account.address.toLowerCase());
    expect(html).toMatch(/<th>Height<\/th><td><code>\d+<\/code>/);
    expect(html).toMatch(/<th>Block hash<\/th><td><code>[0-9A-F]{64}<\/code>/);
    expect(html).toContain('<strong>success</strong>');
    // The cosmos-face link (upper-case SHA-256) opens the same page.
    expect((await fetch(`${auto.url}/explorer/tx/${sha256Upper(tx)}`)).status).toBe(200);
  });

  it('shows a mempool tx as pending and an unknown one as 404', async () => {
    const tx = await signedTxBase64({ nonce: 9 });
    const sub = await postJson(`${manual.url}/v2/tx/submit`, { chain_id: CHAIN_ID, tx });
    const pending = await fetch(sub.body.explorer_link);
    expect(pending.status).toBe(200);
    expect(await pending.text()).toContain('<strong>pending</strong>');
    const unknown = await fetch(`${auto.url}/explorer/tx/${'ab'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Transaction not found');
    const bad = await fetch(`${auto.url}/explorer/tx/<script>`);
    expect(bad.status).toBe(400);
    const text = await bad.text();
    expect(text).not.toContain('<script>');
    expect(text).toContain('hash must be a hex encoded 32-byte transaction hash');
  });
});
