/**
 * The Solana methods dapps, wallets and indexers call beyond sending and reading accounts, through
 * @solana/kit against the chain on real sockets: getBlock / getBlocks / getBlocksWithLimit (shapes,
 * transactionDetails, maxSupportedTransactionVersion, agave's -32004 / -32001 / -32015),
 * getSignaturesForAddress (paging, memos), getProgramAccounts (filters, encodings, limits),
 * getSupply, getRecentPrioritizationFees, getIdentity, getClusterNodes, logsSubscribe, and
 * account notifications only for accounts a tx changed.
 */
import {
  address,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  generateKeyPairSigner,
  getBase58Decoder,
  lamports,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type RpcSubscriptions,
  type Signature,
  type SolanaRpcApi,
  type SolanaRpcSubscriptionsApi,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSvmChain, type SvmChain } from '../../src/chains/svm/start.js';
import { rpcError, signedWire } from './helpers.js';

let chain: SvmChain;
let rpc: Rpc<SolanaRpcApi>;
let subs: RpcSubscriptions<SolanaRpcSubscriptionsApi>;
let payer: KeyPairSigner;

beforeAll(async () => {
  chain = await startSvmChain({ kind: 'svm', rpc: '127.0.0.1:0', ws: '127.0.0.1:0', slotMs: 0 });
  rpc = createSolanaRpc(chain.urls.rpc!);
  subs = createSolanaRpcSubscriptions(chain.urls.rpcWs!);
  payer = await createKeyPairSignerFromBytes(chain.ledger.devAccounts[0]!.secretKey);
});

afterAll(async () => {
  await chain?.stop();
});

/** Sends a signed tx (skipping preflight when asked) and returns its signature. */
async function send(signer: KeyPairSigner, ixs: Instruction[], skipPreflight = false): Promise<Signature> {
  const wire = await signedWire(signer, ixs, chain.ledger.latestBlockhash());
  return rpc.sendTransaction(wire as never, { encoding: 'base64', skipPreflight }).send();
}

const transfer = (from: KeyPairSigner, to: Address, amount: bigint) => getTransferSolInstruction({ source: from, destination: to, amount: lamports(amount) });
const MEMO = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const COMPUTE_BUDGET = address('ComputeBudget111111111111111111111111111111');

describe('blocks', () => {
  it('getBlock serves a closed slot with its txs; the open and future slots are not available (-32004)', async () => {
    await chain.mine(2);
    const to = (await generateKeyPairSigner()).address;
    const sig = await send(payer, [transfer(payer, to, 1_000_000n)]);
    const slot = chain.ledger.slot;
    const open = await rpcError(rpc.getBlock(slot, { maxSupportedTransactionVersion: 0 }).send());
    expect(open).toEqual({ code: -32004, message: `Block not available for slot ${slot}` });
    await chain.mine(1);
    const block = await rpc.getBlock(slot, { maxSupportedTransactionVersion: 0, transactionDetails: 'full', rewards: false }).send();
    const parent = await rpc.getBlock(slot - 1n, { maxSupportedTransactionVersion: 0, transactionDetails: 'none', rewards: false }).send();
    expect(block).toMatchObject({ parentSlot: slot - 1n, previousBlockhash: parent!.blockhash, blockHeight: slot });
    expect(typeof block!.blockTime).toBe('bigint');
    expect(block!.transactions.map((t) => t.transaction.signatures[0])).toEqual([sig]);
    expect(block!.transactions[0]!.meta).toMatchObject({ err: null, fee: 5000n });
    expect(block!.transactions[0]!.version).toBe(0);
    expect('rewards' in block!).toBe(false);

    const sigs = await rpc.getBlock(slot, { maxSupportedTransactionVersion: 0, transactionDetails: 'signatures' }).send();
    expect(sigs!.signatures).toEqual([sig]);
    expect(sigs!.rewards).toEqual([]);
    const accounts = await rpc.getBlock(slot, { maxSupportedTransactionVersion: 0, transactionDetails: 'accounts' }).send();
    expect(accounts!.transactions[0]!.transaction.accountKeys[0]).toEqual({ pubkey: payer.address, signer: true, writable: true, source: 'transaction' });
    const b64 = await rpc.getBlock(slot, { maxSupportedTransactionVersion: 0, encoding: 'base64' }).send();
    expect(b64!.transactions[0]!.transaction[1]).toBe('base64');

    // A v0 tx needs maxSupportedTransactionVersion, as on Solana.
    const noVersion = await rpcError(rpc.getBlock(slot).send());
    expect(noVersion.code).toBe(-32015);
    expect(noVersion.message).toBe(
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
    expect(await rpcError(rpc.getBlock(slot + 1000n, { maxSupportedTransactionVersion: 0 }).send())).toEqual({
      code: -32004,
      message: `Block not available for slot ${slot + 1000n}`,
    });
    const processed = await rpcError(rpc.getBlock(slot, { commitment: 'processed' as never }).send());
    expect(processed.code).toBe(-32602);
    expect(processed.message).toMatch(/commitment below `confirmed`/);
    // finalized: 32 slots behind.
    expect((await rpcError(rpc.getBlock(slot, { commitment: 'finalized', maxSupportedTransactionVersion: 0 }).send())).code).toBe(-32004);
    await chain.mine(32);
    expect((await rpc.getBlock(slot, { commitment: 'finalized', maxSupportedTransactionVersion: 0 }).send())!.blockhash).toBe(block!.blockhash);
    expect(await rpc.getBlockTime(slot).send()).toBe(block!.blockTime);
  });

  it('getBlocks and getBlocksWithLimit list closed slots; getFirstAvailableBlock', async () => {
    const now = chain.ledger.slot;
    expect(await rpc.getBlocks(now - 3n, now + 10n).send()).toEqual([now - 3n, now - 2n, now - 1n]);
    expect(await rpc.getBlocks(now - 2n).send()).toEqual([now - 2n, now - 1n]);
    expect(await rpc.getBlocksWithLimit(now - 5n, 2).send()).toEqual([now - 5n, now - 4n]);
    expect(await rpc.getFirstAvailableBlock().send()).toBe(0n);
    const tooWide = await rpcError(rpc.getBlocks(0n, 600_000n).send());
    expect(tooWide).toEqual({ code: -32602, message: 'Invalid params: Slot range too large; max 500000' });
  });

  it('a block older than the kept history is cleaned up (-32001), with the first available block named', async () => {
    const small = await startSvmChain({ kind: 'svm', rpc: '127.0.0.1:0', ws: '127.0.0.1:0', slotMs: 0, maxBlocks: 5 });
    try {
      const r = createSolanaRpc(small.urls.rpc!);
      await small.mine(10);
      expect(await r.getFirstAvailableBlock().send()).toBe(5n);
      expect(await rpcError(r.getBlock(2n, { maxSupportedTransactionVersion: 0 }).send())).toEqual({
        code: -32001,
        message: 'Block 2 cleaned up, does not exist on node. First available block: 5',
      });
      expect(await r.getBlocks(0n).send()).toEqual([5n, 6n, 7n, 8n, 9n]);
    } finally {
      await small.stop();
    }
  });

  it('refuses a history limit below 1 ([svm] max-blocks, max-records)', async () => {
    await expect(startSvmChain({ kind: 'svm', rpc: '', slotMs: 0, maxBlocks: 0 })).rejects.toThrow(
      'svm chain: maxBlocks ([svm] max-blocks) must be an integer ≥ 1, got 0',
    );
    await expect(startSvmChain({ kind: 'svm', rpc: '', slotMs: 0, maxRecords: 1.5 })).rejects.toThrow(/maxRecords \(\[svm\] max-records\) must be an integer/);
  });
});

describe('getSignaturesForAddress', () => {
  it('lists the txs naming an address, newest first, with before / until / limit and memos', async () => {
    const me = await generateKeyPairSigner();
    await rpc.requestAirdrop(me.address, lamports(1_000_000_000n)).send();
    const other = (await generateKeyPairSigner()).address;
    const s1 = await send(me, [transfer(me, other, 1_000_001n)]);
    const s2 = await send(me, [transfer(me, other, 1_000_002n), { programAddress: MEMO, data: new TextEncoder().encode('hello') }]);
    await chain.mine(1);
    const s3 = await send(me, [transfer(me, other, 1_000_003n)]);
    const all = await rpc.getSignaturesForAddress(me.address).send();
    expect(all.map((s) => s.signature)).toEqual([s3, s2, s1]);
    expect(all[1]).toMatchObject({ err: null, memo: '[5] hello', confirmationStatus: 'confirmed', slot: all[2]!.slot });
    expect(all[0]!.slot).toBe(all[1]!.slot + 1n);
    expect((await rpc.getSignaturesForAddress(me.address, { limit: 2 }).send()).map((s) => s.signature)).toEqual([s3, s2]);
    expect((await rpc.getSignaturesForAddress(me.address, { before: s3 }).send()).map((s) => s.signature)).toEqual([s2, s1]);
    expect((await rpc.getSignaturesForAddress(me.address, { until: s1 }).send()).map((s) => s.signature)).toEqual([s3, s2]);
    expect((await rpc.getSignaturesForAddress(other as Address).send()).map((s) => s.signature)).toEqual([s3, s2, s1]);
    expect(await rpcError(rpc.getSignaturesForAddress(me.address, { limit: 1001 }).send())).toEqual({
      code: -32602,
      message: 'Invalid params: Invalid limit; max 1000',
    });
  });
});

describe('getProgramAccounts', () => {
  it('filters by dataSize and memcmp, encodes base64 / jsonParsed / sliced base58, and applies agave’s limits', async () => {
    const owner = getBase58Decoder().decode(chain.ledger.devAccounts[1]!.publicKey);
    const filters = [{ dataSize: 165n }, { memcmp: { offset: 32n, bytes: owner, encoding: 'base58' } }] as never;
    const found = await rpc.getProgramAccounts(TOKEN_PROGRAM_ADDRESS, { encoding: 'base64', filters }).send();
    expect(found.map((a) => a.pubkey)).toEqual(chain.ledger.tokenAccountsOf(owner));
    expect(found[0]!.account.data[1]).toBe('base64');
    const parsed = await rpc.getProgramAccounts(TOKEN_PROGRAM_ADDRESS, { encoding: 'jsonParsed', filters, withContext: true }).send();
    expect((parsed.value[0]!.account.data as { parsed: { info: { owner: string } } }).parsed.info.owner).toBe(owner);
    const sliced = await rpc.getProgramAccounts(TOKEN_PROGRAM_ADDRESS, { encoding: 'base58', filters, dataSlice: { offset: 0, length: 32 } }).send();
    expect(sliced[0]!.account.data[0]).toBe(chain.ledger.mint);
    // The mint: 82 bytes.
    const mints = await rpc.getProgramAccounts(TOKEN_PROGRAM_ADDRESS, { encoding: 'base64', filters: [{ dataSize: 82n }] }).send();
    expect(mints.map((a) => a.pubkey)).toContain(chain.ledger.mint);

    const big = await rpcError(rpc.getProgramAccounts(TOKEN_PROGRAM_ADDRESS, { filters }).send());
    expect(big).toEqual({ code: -32600, message: 'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.' });
    const five = Array.from({ length: 5 }, () => ({ dataSize: 165n }));
    expect(await rpcError(rpc.getProgramAccounts(TOKEN_PROGRAM_ADDRESS, { encoding: 'base64', filters: five as never }).send())).toEqual({
      code: -32602,
      message: 'Invalid params: Too many filters provided; max 4',
    });
    const long = [{ memcmp: { offset: 0n, bytes: '1'.repeat(200_000), encoding: 'base58' } }] as never;
    expect(await rpcError(rpc.getProgramAccounts(TOKEN_PROGRAM_ADDRESS, { encoding: 'base64', filters: long }).send())).toEqual({
      code: -32602,
      message: 'Invalid param: DataTooLarge',
    });
  });
});

describe('cluster and fee methods', () => {
  it('getSupply, getIdentity, getClusterNodes', async () => {
    const supply = (await rpc.getSupply().send()).value;
    expect(supply.total).toBeGreaterThanOrEqual(10n * 1000n * 1_000_000_000n);
    expect(supply).toMatchObject({ circulating: supply.total, nonCirculating: 0n, nonCirculatingAccounts: [] });
    const { identity } = await rpc.getIdentity().send();
    expect(identity).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    const nodes = await rpc.getClusterNodes().send();
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({
      pubkey: identity,
      rpc: new URL(chain.urls.rpc!).host,
      pubsub: new URL(chain.urls.rpcWs!).host,
      version: expect.stringMatching(/^2\./) as unknown as string,
    });
  });

  it('getRecentPrioritizationFees reports the compute-unit price paid per closed slot', async () => {
    await chain.mine(1);
    const price = 12_345n;
    const data = new Uint8Array(9);
    data[0] = 3; // SetComputeUnitPrice
    new DataView(data.buffer).setBigUint64(1, price, true);
    const to = (await generateKeyPairSigner()).address;
    await send(payer, [{ programAddress: COMPUTE_BUDGET, data }, transfer(payer, to, 1_000_000n)]);
    const slot = chain.ledger.slot;
    await chain.mine(1);
    const fees = await rpc.getRecentPrioritizationFees([payer.address]).send();
    expect(fees.length).toBeLessThanOrEqual(150);
    expect(fees.at(-1)).toEqual({ slot, prioritizationFee: price });
    expect(fees.at(-2)).toEqual({ slot: slot - 1n, prioritizationFee: 0n });
    const many = Array.from({ length: 129 }, () => payer.address);
    expect(await rpcError(rpc.getRecentPrioritizationFees(many).send())).toEqual({
      code: -32602,
      message: 'Invalid params: Too many inputs provided; max 128',
    });
  });
});

describe('subscriptions', () => {
  it('logsSubscribe notifies each tx’s logs, for all and for {mentions: [address]}', async () => {
    const controller = new AbortController();
    const someone = await generateKeyPairSigner();
    const all = (await subs.logsNotifications('all').subscribe({ abortSignal: controller.signal }))[Symbol.asyncIterator]();
    const mentions = (await subs.logsNotifications({ mentions: [someone.address] }).subscribe({ abortSignal: controller.signal }))[Symbol.asyncIterator]();
    const firstAll = all.next();
    const firstMention = mentions.next();
    // A tx that does not name `someone`, then one that does.
    const sigA = await send(payer, [transfer(payer, (await generateKeyPairSigner()).address, 7_000_000n)]);
    const sigB = await send(payer, [transfer(payer, someone.address, 8_000_000n)]);
    const a = (await firstAll).value!;
    expect(a.value.signature).toBe(sigA);
    expect(a.value.err).toBeNull();
    expect(a.value.logs).toContain('Program 11111111111111111111111111111111 success');
    expect((await firstMention).value!.value.signature).toBe(sigB);
    controller.abort();
    await expect(
      subs.logsNotifications({ mentions: [someone.address, payer.address] as never }).subscribe({ abortSignal: new AbortController().signal }),
    ).rejects.toThrow(/Only 1 address supported/);
  });

  it('accountSubscribe does not fire for an account a failed tx only named writable', async () => {
    const poor = await generateKeyPairSigner();
    await rpc.requestAirdrop(poor.address, lamports(1_000_000n)).send();
    const target = (await generateKeyPairSigner()).address;
    const controller = new AbortController();
    const events = (await subs.accountNotifications(target, { encoding: 'base64' }).subscribe({ abortSignal: controller.signal }))[Symbol.asyncIterator]();
    const first = events.next();
    // Fails in the program (insufficient lamports): pays its fee, leaves `target` as it was.
    const failed = await send(poor, [transfer(poor, target, 5_000_000n)], true);
    expect((await rpc.getSignatureStatuses([failed]).send()).value[0]?.err).not.toBeNull();
    // Then one that does change it: the first notification must be this one.
    await send(payer, [transfer(payer, target, 4_000_000n)]);
    expect((await first).value!.value!.lamports).toBe(4_000_000n);
    controller.abort();
  });
});
