/**
 * `chainlet app`'s ABCI socket server driven like CometBFT drives an app: the conformance client
 * replays the blocks an in-process node produced (InitChain, CheckTx, PrepareProposal,
 * ProcessProposal, FinalizeBlock, Commit, Query, Info) and gets the same app hashes and tx results;
 * malformed frames, an oversized length prefix and a dropped connection are handled without a crash
 * or lost state; a restart reports the last committed height.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, DEV_KEY_0, signErc20Deploy, signEthTransfer } from '../../src/app/fixtures/signed-txs.js';
import { commitInfoToWire, paramsToWire, timeToWire, type W } from '../../src/abci-server/wire.js';
import { encodeFrame } from '../../src/abci-server/framing.js';
import { serveAppOverSocket, type RunningAppServer } from '../../src/node/abci-app.js';
import { startNode, type ChainletNode } from '../../src/node/node.js';
import { BlockIDFlag } from '../../src/abci/types.js';
import { connectAbci, type AbciConnection } from './client.js';
import pino from 'pino';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const home = mkdtempSync(join(tmpdir(), 'chainlet-abci-'));
let node: ChainletNode;
let server: RunningAppServer;
let consensus: AbciConnection;
let mempool: AbciConnection;
let query: AbciConnection;
let snapshot: AbciConnection;

async function startServer(): Promise<void> {
  server = await serveAppOverSocket({ home, address: 'tcp://127.0.0.1:0', maxMessageBytes: 1_000_000, logger: pino({ level: 'silent' }) });
  [consensus, mempool, query, snapshot] = await Promise.all([0, 1, 2, 3].map(() => connectAbci(server.address)));
}

/** The FinalizeBlock request CometBFT would send for block `h` of the in-process node. */
async function finalizeRequest(h: number): Promise<W.RequestFinalizeBlock> {
  const bs = node.internals.blockStore;
  const block = (await bs.loadBlock(h))!;
  const meta = (await bs.loadBlockMeta(h))!;
  return {
    txs: block.data.txs,
    decidedLastCommit: commitInfoToWire({
      round: block.lastCommit.round,
      votes: block.lastCommit.signatures.map((s) => ({ validatorAddress: s.validatorAddress, power: 10, blockIdFlag: s.blockIdFlag as number as BlockIDFlag })),
    }),
    misbehavior: [],
    hash: meta.blockId.hash,
    height: BigInt(h),
    time: timeToWire(block.header.time),
    nextValidatorsHash: block.header.nextValidatorsHash,
    proposerAddress: block.header.proposerAddress,
  };
}

beforeAll(async () => {
  node = await startNode({ servers: false, config: { consensus: { mode: 'manual' } } });
  // Block 1 is the first block made at start; then two blocks of txs.
  for (const tx of [signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 5n, { nonce: 0n }), signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 7n, { nonce: 1n })])
    await node.broadcastTx(tx);
  await node.mine(1);
  for (const tx of [signErc20Deploy(DEV_KEY_0, 1000n, { nonce: 2n }), signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 9n, { nonce: 3n })]) await node.broadcastTx(tx);
  await node.mine(1);
  await startServer();
});
afterAll(async () => {
  for (const c of [consensus, mempool, query, snapshot]) c?.close();
  await server?.stop();
  await node?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('the ABCI socket server, driven as CometBFT drives it', () => {
  it('Info, Echo and Flush on a fresh app', async () => {
    const info = (await query.call({ info: { version: '0.38.17', blockVersion: 11n, p2pVersion: 8n, abciVersion: '2.0.0' } })).info!;
    expect(info.lastBlockHeight).toBe(0n);
    expect((await query.call({ echo: { message: 'hello' } })).echo?.message).toBe('hello');
    expect((await consensus.call({ flush: {} })).flush).toBeDefined();
  });

  it('InitChain gives the genesis app hash the in-process node has', async () => {
    const g = node.genesis;
    const res = (
      await consensus.call({
        initChain: {
          time: timeToWire(g.genesisTime),
          chainId: g.chainId,
          consensusParams: paramsToWire(g.consensusParams),
          validators: g.validators.map((v) => ({ pubKey: { ed25519: v.pubKey }, power: BigInt(v.power) })),
          appStateBytes: new TextEncoder().encode(JSON.stringify(g.appState)),
          initialHeight: BigInt(g.initialHeight),
        },
      })
    ).initChain!;
    const block1 = (await node.internals.blockStore.loadBlock(1))!;
    expect(hex(res.appHash)).toBe(hex(block1.header.appHash));
  });

  it('replays every block: CheckTx, PrepareProposal, ProcessProposal, FinalizeBlock, Commit give the same app hashes and results', async () => {
    for (let h = 1; h <= node.height; h++) {
      const req = await finalizeRequest(h);
      for (const tx of req.txs) expect((await mempool.call({ checkTx: { tx, type: 0 } })).checkTx!.code).toBe(0);
      const prepared = (
        await consensus.call({
          prepareProposal: {
            maxTxBytes: 1_000_000n,
            txs: req.txs,
            localLastCommit: { round: 0, votes: [] },
            misbehavior: [],
            height: req.height,
            time: req.time,
            nextValidatorsHash: req.nextValidatorsHash,
            proposerAddress: req.proposerAddress,
          },
        })
      ).prepareProposal!;
      expect(prepared.txs.map(hex)).toEqual(req.txs.map(hex));
      const processed = (
        await consensus.call({
          processProposal: {
            txs: req.txs,
            proposedLastCommit: req.decidedLastCommit,
            misbehavior: [],
            hash: req.hash,
            height: req.height,
            time: req.time,
            nextValidatorsHash: req.nextValidatorsHash,
            proposerAddress: req.proposerAddress,
          },
        })
      ).processProposal!;
      expect(processed.status).toBe(1);
      const fin = (await consensus.call({ finalizeBlock: req })).finalizeBlock!;
      const saved = (await node.internals.stateStore.loadFinalizeBlockResponse(h))!;
      expect(hex(fin.appHash), `app hash at ${h}`).toBe(hex(saved.appHash));
      expect(fin.txResults.map((r) => [r.code, Number(r.gasUsed), hex(r.data)])).toEqual(saved.txResults.map((r) => [r.code, r.gasUsed, hex(r.data)]));
      expect(fin.txResults.map((r) => r.events.map((e) => e.type))).toEqual(saved.txResults.map((r) => r.events.map((e) => e.type)));
      await consensus.call({ commit: {} });
    }
    const info = (await query.call({ info: { version: '', blockVersion: 0n, p2pVersion: 0n, abciVersion: '' } })).info!;
    expect(Number(info.lastBlockHeight)).toBe(node.height);
    // Query answers as the in-process node's app does.
    const path = `/evm/balance/${DEV_ADDRESS_1}`;
    const got = (await query.call({ query: { data: new Uint8Array(0), path, height: 0n, prove: false } })).query!;
    const want = await node.internals.app.query({ data: new Uint8Array(0), path, height: 0, prove: false });
    expect(new TextDecoder().decode(got.value)).toBe(new TextDecoder().decode(want.value ?? new Uint8Array(0)));
  });

  it('answers the snapshot connection truthfully (none offered, none taken) and vote extensions as no-ops', async () => {
    expect((await snapshot.call({ listSnapshots: {} })).listSnapshots?.snapshots).toEqual([]);
    expect((await snapshot.call({ offerSnapshot: { appHash: new Uint8Array(0) } })).offerSnapshot?.result).toBe(3);
    expect(
      (
        await consensus.call({
          verifyVoteExtension: { hash: new Uint8Array(0), validatorAddress: new Uint8Array(20), height: 1n, voteExtension: new Uint8Array(0) },
        })
      ).verifyVoteExtension?.status,
    ).toBe(1);
  });

  it('answers Response.exception for a request it cannot handle, and keeps serving', async () => {
    const res = await query.call({});
    expect(res.exception?.error).toMatch(/unknown ABCI request/);
    expect((await query.call({ echo: { message: 'still here' } })).echo?.message).toBe('still here');
  });

  it('closes only the connection that sends a malformed frame or an oversized length prefix', async () => {
    const bad = await connectAbci(server.address);
    bad.socket.write(encodeFrame(new Uint8Array([0xff, 0xff, 0xff, 0x07, 0x01])));
    await bad.closed;
    const big = await connectAbci(server.address);
    big.socket.write(new Uint8Array([0x80, 0x80, 0x80, 0x40])); // 128 MiB announced, over the 1 MB limit
    await big.closed;
    expect((await query.call({ echo: { message: 'ok' } })).echo?.message).toBe('ok');
  });

  it('a connection dropped mid-block loses nothing committed; the block is finalized again and committed', async () => {
    await node.broadcastTx(signEthTransfer(DEV_KEY_0, DEV_ADDRESS_0, 1n, { nonce: 4n }));
    const [h] = await node.mine(1);
    const req = await finalizeRequest(h!);
    await consensus.call({ finalizeBlock: req });
    consensus.close(); // CometBFT crashed before Commit
    await consensus.closed;
    consensus = await connectAbci(server.address);
    const info = (await consensus.call({ info: { version: '', blockVersion: 0n, p2pVersion: 0n, abciVersion: '' } })).info!;
    expect(Number(info.lastBlockHeight)).toBe(h! - 1);
    const fin = (await consensus.call({ finalizeBlock: req })).finalizeBlock!;
    expect(hex(fin.appHash)).toBe(hex((await node.internals.stateStore.loadFinalizeBlockResponse(h!))!.appHash));
    await consensus.call({ commit: {} });
  });

  it('after a restart, Info reports the last committed height and app hash (CometBFT replays from there)', async () => {
    for (const c of [consensus, mempool, query, snapshot]) c.close();
    await server.stop();
    await startServer();
    const info = (await query.call({ info: { version: '', blockVersion: 0n, p2pVersion: 0n, abciVersion: '' } })).info!;
    expect(Number(info.lastBlockHeight)).toBe(node.height);
    expect(hex(info.lastBlockAppHash)).toBe(hex((await node.internals.stateStore.loadFinalizeBlockResponse(node.height))!.appHash));
  });

  it('serves over a unix socket too', async () => {
    const sock = join(home, 'app.sock');
    const s2 = await serveAppOverSocket({ home: join(home, 'other'), address: `unix://${sock}`, logger: pino({ level: 'silent' }) });
    try {
      const c = await connectAbci(s2.address);
      expect((await c.call({ echo: { message: 'unix' } })).echo?.message).toBe('unix');
      c.close();
    } finally {
      await s2.stop();
    }
  });
});
