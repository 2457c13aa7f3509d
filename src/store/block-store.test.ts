import { createHash } from 'node:crypto';
import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import { BlockIDFlag } from '../abci/types.js';
import { EMPTY_BLOCK_ID, type Block, type BlockID, type Commit, type Header } from '../types/block.js';
import { createBlockStore } from './block-store.js';
import { NonContiguousBlockError, SeenCommitMismatchError } from './errors.js';

const sha = (s: string) => new Uint8Array(createHash('sha256').update(s).digest());

function blockId(height: number): BlockID {
  return { hash: sha(`block-${height}`), partSetHeader: { total: 1, hash: sha(`parts-${height}`) } };
}

function commit(height: number): Commit {
  return {
    height,
    round: 0,
    blockId: height > 0 ? blockId(height) : EMPTY_BLOCK_ID,
    signatures:
      height > 0
        ? [
            {
              blockIdFlag: BlockIDFlag.Commit,
              validatorAddress: sha('val').slice(0, 20),
              timestamp: { seconds: 1_700_000_000 + height, nanos: 5 },
              signature: sha(`sig-${height}`),
            },
          ]
        : [],
  };
}

function block(height: number, txs: string[] = []): Block {
  const header: Header = {
    version: { block: 11, app: 0 },
    chainId: 'chainlet-test',
    height,
    time: { seconds: 1_700_000_000 + height, nanos: 123_456_789 },
    lastBlockId: height > 1 ? blockId(height - 1) : EMPTY_BLOCK_ID,
    lastCommitHash: sha(`lc-${height}`),
    dataHash: sha(`data-${height}`),
    validatorsHash: sha('vals'),
    nextValidatorsHash: sha('vals'),
    consensusHash: sha('params'),
    appHash: sha(`app-${height}`),
    lastResultsHash: sha(`res-${height}`),
    evidenceHash: sha(''),
    proposerAddress: sha('val').slice(0, 20),
  };
  return {
    header,
    data: { txs: txs.map((t) => new TextEncoder().encode(t)) },
    evidence: { evidence: [] },
    lastCommit: commit(height - 1),
  };
}

async function saveChain(store: Awaited<ReturnType<typeof createBlockStore>>, from: number, to: number) {
  for (let h = from; h <= to; h++) await store.saveBlock(block(h, [`tx-${h}`]), blockId(h), 100 + h, commit(h));
}

describe('BlockStore', () => {
  it('starts empty', async () => {
    const store = await createBlockStore(new MemoryLevel());
    expect([store.base(), store.height()]).toEqual([0, 0]);
    expect(await store.loadBlock(1)).toBeUndefined();
    expect(await store.loadBlockMeta(1)).toBeUndefined();
    expect(await store.heightByHash(blockId(1).hash)).toBeUndefined();
    expect(await store.heightByHash(new Uint8Array())).toBeUndefined();
  });

  it('round-trips blocks, metas and hashes (bytes stay Uint8Array)', async () => {
    const store = await createBlockStore(new MemoryLevel());
    await saveChain(store, 1, 3);
    expect([store.base(), store.height()]).toEqual([1, 3]);

    const b2 = await store.loadBlock(2);
    expect(b2).toEqual(block(2, ['tx-2']));
    expect(b2!.data.txs[0]).toBeInstanceOf(Uint8Array);
    expect(b2!.header.time).toEqual({ seconds: 1_700_000_002, nanos: 123_456_789 });

    expect(await store.loadBlockMeta(3)).toEqual({ blockId: blockId(3), blockSize: 103, header: block(3).header, numTxs: 1 });
    expect(await store.heightByHash(blockId(2).hash)).toBe(2);
    expect((await store.loadBlockByHash(blockId(3).hash))?.header.height).toBe(3);
    expect((await store.loadBlockMetaByHash(blockId(1).hash))?.blockSize).toBe(101);
    expect(await store.loadBlockByHash(sha('unknown'))).toBeUndefined();
    expect(await store.loadBlockMetaByHash(sha('unknown'))).toBeUndefined();
  });

  it('keeps canonical commits from the next block and the seen commit for the latest only', async () => {
    const store = await createBlockStore(new MemoryLevel());
    await saveChain(store, 1, 3);
    expect(await store.loadBlockCommit(1)).toEqual(commit(1));
    expect(await store.loadBlockCommit(2)).toEqual(commit(2));
    expect(await store.loadBlockCommit(3)).toBeUndefined();
    expect(await store.loadSeenCommit(3)).toEqual(commit(3));
    expect(await store.loadSeenCommit(2)).toBeUndefined();
  });

  it('restores base and height when reopened on the same database', async () => {
    const db = new MemoryLevel();
    await saveChain(await createBlockStore(db), 5, 7);
    const reopened = await createBlockStore(db);
    expect([reopened.base(), reopened.height()]).toEqual([5, 7]);
    expect((await reopened.loadBlock(6))?.header.height).toBe(6);
    await reopened.saveBlock(block(8), blockId(8), 10, commit(8));
    expect(reopened.height()).toBe(8);
  });

  it('works on a sublevel', async () => {
    const db = new MemoryLevel();
    const store = await createBlockStore(db.sublevel('blocks'));
    await saveChain(store, 1, 2);
    expect((await createBlockStore(db.sublevel('blocks'))).height()).toBe(2);
    expect((await createBlockStore(db.sublevel('other'))).height()).toBe(0);
  });

  it('refuses gaps and mismatched seen commits without writing anything', async () => {
    const store = await createBlockStore(new MemoryLevel());
    await saveChain(store, 1, 2);
    const gap = store.saveBlock(block(4), blockId(4), 1, commit(4));
    await expect(gap).rejects.toBeInstanceOf(NonContiguousBlockError);
    await expect(gap).rejects.toThrow('BlockStore can only save contiguous blocks. Wanted 3, got 4');
    await expect(store.saveBlock(block(3), blockId(3), 1, commit(2))).rejects.toBeInstanceOf(SeenCommitMismatchError);
    expect(store.height()).toBe(2);
    expect(await store.loadBlock(3)).toBeUndefined();
    expect(await store.loadBlock(4)).toBeUndefined();
  });

  it('serialises concurrent saves in call order', async () => {
    const store = await createBlockStore(new MemoryLevel());
    await Promise.all([1, 2, 3, 4].map((h) => store.saveBlock(block(h), blockId(h), h, commit(h))));
    expect(store.height()).toBe(4);
    expect(await store.loadBlockCommit(3)).toEqual(commit(3));
  });
});
