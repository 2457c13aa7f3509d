/**
 * The node RPC driven by @cosmjs/tendermint-rpc, as dapps and explorers use it: connectComet's
 * version detection, Comet38Client over HTTP and over WebSocket, and its subscriptions.
 */
import { Comet38Client, connectComet, WebsocketClient, type comet38 } from '@cosmjs/tendermint-rpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stream } from 'xstream';
import { sha256 } from '../../src/crypto/hash.js';
import { txsHash, verifyTxProof } from '../../src/types/txs.js';
import { DEV, signTransfer, startCometTestNode, type CometTestNode } from './helpers.js';

let t: CometTestNode;
let http: Comet38Client;
let nonce = 0;

/** Generous on a loaded CI machine: loops below stop as soon as their condition holds. */
const DEADLINE_MS = 20_000;

/** The first event of a stream, or a timeout. */
function first<T>(stream: Stream<T>, timeoutMs = DEADLINE_MS): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stream.removeListener(listener);
      reject(new Error('no event'));
    }, timeoutMs);
    const listener = {
      next: (v: T) => {
        clearTimeout(timer);
        stream.removeListener(listener);
        resolve(v);
      },
      error: (e: unknown) => {
        clearTimeout(timer);
        stream.removeListener(listener);
        reject(e instanceof Error ? e : new Error(JSON.stringify(e)));
      },
      complete: () => undefined,
    };
    stream.addListener(listener);
  });
}

/** Polls `tx` until the tx is indexed (automine commits it moments after CheckTx). */
async function waitForTx(hash: Uint8Array, prove = false) {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    try {
      return await http.tx({ hash, prove });
    } catch (err) {
      if (Date.now() > deadline || !String(err).includes('not found')) throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

beforeAll(async () => {
  t = await startCometTestNode();
  await t.node.mine(1);
  http = await Comet38Client.connect(t.url);
});

afterAll(async () => {
  http?.disconnect();
  await t?.stop();
});

describe('connectComet', () => {
  it('detects v0.38 and returns a Comet38Client', async () => {
    const c = await connectComet(t.url);
    expect(c).toBeInstanceOf(Comet38Client);
    c.disconnect();
  });

  it('does the same over a WebSocket URL', async () => {
    const c = await connectComet(t.wsBase);
    try {
      expect(c).toBeInstanceOf(Comet38Client);
      expect((await c.status()).nodeInfo.network).toBe(t.node.chainId);
    } finally {
      c.disconnect();
    }
  });
});

describe('Comet38Client over HTTP', () => {
  it('status and health', async () => {
    const s = await http.status();
    expect(s.nodeInfo.version).toBe('0.38.25');
    expect(s.nodeInfo.network).toBe(t.node.chainId);
    expect(s.syncInfo.latestBlockHeight).toBe(t.node.height);
    expect(s.syncInfo.catchingUp).toBe(false);
    expect(s.validatorInfo.pubkey?.algorithm).toBe('ed25519');
    expect(s.validatorInfo.votingPower).toBeGreaterThan(0n);
    expect(await http.health()).toBeNull();
  });

  it('block, blockchain, commit, validators, genesis, abciInfo', async () => {
    await t.node.mine(2);
    const b1 = await http.block(1);
    expect(b1.block.header.height).toBe(1);
    expect(b1.block.header.lastBlockId).toBeNull();
    expect(b1.block.lastCommit).toBeNull();
    const b2 = await http.block(2);
    expect(b2.block.header.lastBlockId?.hash).toEqual(b1.blockId.hash);
    expect(b2.block.lastCommit?.height).toBe(1);

    const latest = await http.block();
    expect(latest.block.header.height).toBe(t.node.height);

    const chain = await http.blockchain(1, 3);
    expect(chain.blockMetas.map((m) => m.header.height)).toEqual([3, 2, 1]);
    expect(chain.lastHeight).toBe(t.node.height);

    const commit = await http.commit(2);
    expect(commit.canonical).toBe(true);
    expect(commit.commit.blockId.hash).toEqual((await http.block(2)).blockId.hash);
    const seen = await http.commit();
    expect(seen.canonical).toBe(false);

    const vals = await http.validators({});
    expect(vals.total).toBe(1);
    expect(vals.blockHeight).toBe(t.node.height + 1);
    expect(vals.validators[0]!.votingPower).toBeGreaterThan(0n);

    const g = await http.genesis();
    expect(g.chainId).toBe(t.node.chainId);
    expect(g.validators).toHaveLength(1);

    const info = await http.abciInfo();
    expect(info.lastBlockHeight).toBe(t.node.height);
    expect(info.lastBlockAppHash?.length).toBe(32);
  });

  it('abciQuery reaches the app', async () => {
    const r = await http.abciQuery({ path: `/evm/balance/${DEV[1]!.address}`, data: new Uint8Array(0) });
    expect(r.code).toBe(0);
    const v = JSON.parse(new TextDecoder().decode(r.value)) as { balance: string };
    expect(BigInt(v.balance)).toBeGreaterThan(0n);
    const bad = await http.abciQuery({ path: '/no/such/path', data: new Uint8Array(0) });
    expect(bad.code).not.toBe(0);
  });

  it('broadcastTxSync, then tx (with a proof that verifies) and blockResults', async () => {
    const raw = await signTransfer({ nonce: nonce++ });
    const res = await http.broadcastTxSync({ tx: raw });
    expect(res.code).toBe(0);
    expect(res.hash).toEqual(sha256(raw));
    const found = await waitForTx(res.hash, true);
    const h = found.height;
    expect(found.result.code).toBe(0);
    expect(found.tx).toEqual(raw);
    const block = await http.block(h);
    expect(block.block.txs).toHaveLength(1);
    const p = found.proof!;
    const proof = { rootHash: p.rootHash, data: p.data, proof: { ...p.proof, aunts: [...p.proof.aunts] } };
    expect(verifyTxProof(proof, block.block.header.dataHash)).toBe(true);
    expect(block.block.header.dataHash).toEqual(txsHash(block.block.txs as Uint8Array[]));

    const results = await http.blockResults(h);
    expect(results.height).toBe(h);
    expect(results.results).toHaveLength(1);
    expect(results.results[0]!.gasUsed).toBe(21000n);
    expect(results.finalizeBlockEvents.length).toBeGreaterThan(0);
  });

  it('broadcastTxAsync returns the hash at once; the tx lands', async () => {
    const raw = await signTransfer({ nonce: nonce++ });
    const res = await http.broadcastTxAsync({ tx: raw });
    expect(res.hash).toEqual(sha256(raw));
    expect((await waitForTx(res.hash)).result.code).toBe(0);
  });

  it('broadcastTxCommit waits for inclusion', async () => {
    const raw = await signTransfer({ nonce: nonce++ });
    const res = await http.broadcastTxCommit({ tx: raw });
    expect(res.checkTx.code).toBe(0);
    expect(res.txResult?.code).toBe(0);
    expect(res.height).toBe(t.node.height);
    expect((await http.tx({ hash: res.hash })).height).toBe(res.height);
  });

  it('broadcastTxCommit returns a failed CheckTx without waiting', async () => {
    const raw = await signTransfer({ nonce: 0, value: 2n }); // nonce already used
    const res = await http.broadcastTxCommit({ tx: raw });
    expect(res.checkTx.code).not.toBe(0);
    expect(res.height).toBe(0);
  });

  it('txSearch and blockSearch with paging and order', async () => {
    const sender = DEV[0]!.address.toLowerCase();
    const all = await http.txSearchAll({ query: `message.sender = '${sender}'` });
    expect(all.totalCount).toBeGreaterThanOrEqual(3);
    const heights = all.txs.map((x) => x.height);
    expect([...heights].sort((a, b) => a - b)).toEqual(heights);
    const page = await http.txSearch({ query: `message.sender = '${sender}'`, page: 1, per_page: 1, order_by: 'desc' });
    expect(page.txs).toHaveLength(1);
    expect(page.txs[0]!.height).toBe(Math.max(...heights));

    // cosmjs re-sorts block_search results by height itself; the server's order is checked in shapes.test.ts.
    const blocks = await http.blockSearch({ query: 'block.height >= 2 AND block.height <= 3' });
    expect(blocks.totalCount).toBe(2);
    expect(blocks.blocks.map((b) => b.block.header.height).sort()).toEqual([2, 3]);
    const paged = await http.blockSearch({ query: 'block.height <= 3', page: 2, per_page: 2, order_by: 'asc' });
    expect(paged.totalCount).toBe(3);
    expect(paged.blocks.map((b) => b.block.header.height)).toEqual([3]);
  });
});

describe('Comet38Client over WebSocket', () => {
  const clients: Comet38Client[] = [];
  const wsClient = () => {
    const c = Comet38Client.create(new WebsocketClient(t.wsBase));
    clients.push(c);
    return c;
  };
  afterAll(() => clients.forEach((c) => c.disconnect()));

  it('answers calls over the socket', async () => {
    const ws = wsClient();
    const s = await ws.status();
    expect(s.nodeInfo.version.startsWith('0.38.')).toBe(true);
    expect((await ws.block(1)).block.header.height).toBe(1);
  });

  it('broadcastTxSync, broadcastTxCommit, tx and blockResults over the socket', async () => {
    const ws = wsClient();
    const sync = await ws.broadcastTxSync({ tx: await signTransfer({ nonce: nonce++ }) });
    expect(sync.code).toBe(0);
    const raw = await signTransfer({ nonce: nonce++ });
    const res = await ws.broadcastTxCommit({ tx: raw });
    expect(res.checkTx.code).toBe(0);
    expect(res.txResult?.code).toBe(0);
    expect(res.hash).toEqual(sha256(raw));
    const found = await ws.tx({ hash: res.hash, prove: true });
    expect(found.height).toBe(res.height);
    expect(found.tx).toEqual(raw);
    expect((await ws.blockResults(res.height)).results.some((r) => r.code === 0)).toBe(true);
    expect((await ws.txSearch({ query: `tx.height = ${res.height}` })).totalCount).toBeGreaterThanOrEqual(1);
  });

  it('subscribeNewBlock and subscribeNewBlockHeader', async () => {
    const ws = wsClient();
    let done = false;
    const blocks = first<comet38.NewBlockEvent>(ws.subscribeNewBlock());
    const headers = first<comet38.NewBlockHeaderEvent>(ws.subscribeNewBlockHeader());
    const both = Promise.all([blocks, headers]).finally(() => (done = true));
    // Mine until both subscriptions (registered asynchronously) have seen a block.
    const deadline = Date.now() + DEADLINE_MS;
    while (!done && Date.now() < deadline) {
      await t.node.mine(1);
      await new Promise((r) => setTimeout(r, 20));
    }
    const [b, h] = await both;
    expect(b.header.height).toBeGreaterThan(0);
    expect(b.header.height).toBeLessThanOrEqual(t.node.height);
    expect(b.header.chainId).toBe(t.node.chainId);
    const stored = await http.block(h.height);
    expect(h.appHash).toEqual(stored.block.header.appHash);
  });

  it('subscribeTx delivers the tx result', async () => {
    const ws = wsClient();
    let done = false;
    const events = first<comet38.TxEvent>(ws.subscribeTx()).finally(() => (done = true));
    // The subscription registers asynchronously: send txs until one is seen.
    const sent: Uint8Array[] = [];
    const deadline = Date.now() + DEADLINE_MS;
    while (!done && Date.now() < deadline) {
      const raw = await signTransfer({ nonce: nonce++ });
      sent.push(raw);
      await http.broadcastTxSync({ tx: raw });
      await new Promise((r) => setTimeout(r, 30));
    }
    const ev = await events;
    const raw = sent.find((x) => Buffer.from(x).equals(Buffer.from(ev.tx)));
    expect(raw).toBeDefined();
    expect(ev.hash).toEqual(sha256(raw!));
    expect(ev.result.code).toBe(0);
    expect(ev.height).toBeGreaterThan(0);
  });
});
