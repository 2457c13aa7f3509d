/**
 * The SVM chain with @solana/kit as a dapp uses it against solana-test-validator: createSolanaRpc
 * and createSolanaRpcSubscriptions over real sockets, SOL and SPL transfers (to a new associated
 * token account) confirmed by sendAndConfirmTransactionFactory, the blockhash window and replay
 * protection, a failing program call that pays its fee, subscriptions and bad input.
 */
import {
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type RpcSubscriptions,
  type SolanaRpcApi,
  type SolanaRpcSubscriptionsApi,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSvmChain, type SvmChain } from '../../src/chains/svm/start.js';

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

async function build(signer: KeyPairSigner, ixs: Instruction[], blockhash?: { blockhash: string; lastValidBlockHeight: bigint }) {
  const bh = blockhash ?? (await rpc.getLatestBlockhash().send()).value;
  const msg = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(signer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(bh as never, m),
    (m) => appendTransactionMessageInstructions(ixs, m),
  );
  return signTransactionMessageWithSigners(msg);
}

describe('the SVM chain with @solana/kit', () => {
  it('funds the dev mnemonic’s accounts with SOL and USDC-like tokens; answers the validator’s read methods', async () => {
    expect(await rpc.getHealth().send()).toBe('ok');
    expect((await rpc.getVersion().send())['solana-core']).toMatch(/^2\./);
    expect(typeof (await rpc.getGenesisHash().send())).toBe('string');
    expect((await rpc.getBalance(payer.address).send()).value).toBe(1000n * 1_000_000_000n);
    const tokenAccounts = await rpc.getTokenAccountsByOwner(payer.address, { mint: chain.ledger.mint as Address }, { encoding: 'jsonParsed' }).send();
    expect(tokenAccounts.value).toHaveLength(1);
    const info = (tokenAccounts.value[0]!.account.data as { parsed: { info: { tokenAmount: { decimals: number; uiAmountString: string } } } }).parsed.info;
    expect(info.tokenAmount).toMatchObject({ decimals: 6, uiAmountString: '1000000' });
    expect((await rpc.getTokenSupply(chain.ledger.mint as Address).send()).value.decimals).toBe(6);
    expect(await rpc.getMinimumBalanceForRentExemption(165n).send()).toBeGreaterThan(2_000_000n);
    const many = await rpc.getMultipleAccounts([payer.address, (await generateKeyPairSigner()).address], { encoding: 'base64' }).send();
    expect(many.value[0]?.lamports).toBe(1000n * 1_000_000_000n);
    expect(many.value[1]).toBeNull();
  });

  it('sends SOL and confirms it with sendAndConfirmTransactionFactory; getTransaction has fee and balances', async () => {
    const to = await generateKeyPairSigner();
    const tx = await build(payer, [getTransferSolInstruction({ source: payer, destination: to.address, amount: lamports(1_500_000_000n) })]);
    await sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions: subs })(tx as never, { commitment: 'confirmed' });
    expect((await rpc.getBalance(to.address).send()).value).toBe(1_500_000_000n);
    const sig = Object.values(tx.signatures)[0]!;
    const { getBase58Decoder } = await import('@solana/kit');
    const signature = getBase58Decoder().decode(sig) as never;
    const statuses = await rpc.getSignatureStatuses([signature]).send();
    expect(statuses.value[0]).toMatchObject({ err: null, confirmationStatus: 'confirmed' });
    const got = await rpc.getTransaction(signature, { maxSupportedTransactionVersion: 0, encoding: 'json' }).send();
    expect(got?.meta?.fee).toBe(5000n);
    expect(got?.meta?.preBalances[0]! - got!.meta!.postBalances[0]!).toBe(1_500_005_000n);
  });

  it('sends USDC-like tokens to a new associated token account', async () => {
    const owner = await generateKeyPairSigner();
    const mint = chain.ledger.mint as Address;
    const [source] = await findAssociatedTokenPda({ mint, owner: payer.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const [dest] = await findAssociatedTokenPda({ mint, owner: owner.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const tx = await build(payer, [
      getCreateAssociatedTokenIdempotentInstruction({ payer, ata: dest, owner: owner.address, mint }),
      getTransferCheckedInstruction({ source, mint, destination: dest, authority: payer, amount: 2_500_000n, decimals: 6 }),
    ]);
    await sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions: subs })(tx as never, { commitment: 'confirmed' });
    expect((await rpc.getTokenAccountBalance(dest).send()).value).toMatchObject({ amount: '2500000', decimals: 6, uiAmountString: '2.5' });
    const byOwner = await rpc.getTokenAccountsByOwner(owner.address, { programId: TOKEN_PROGRAM_ADDRESS }, { encoding: 'base64' }).send();
    expect(byOwner.value.map((v) => v.pubkey)).toEqual([dest]);
  });

  it('refuses a replay after many txs, accepts a blockhash 100 slots old and refuses one 200 slots old', async () => {
    const to = await generateKeyPairSigner();
    const first = await build(payer, [getTransferSolInstruction({ source: payer, destination: to.address, amount: lamports(1_000_000n) })]);
    const wire = getBase64EncodedWireTransaction(first);
    await rpc.sendTransaction(wire, { encoding: 'base64' }).send();
    for (let i = 0; i < 40; i++) {
      const t = await build(payer, [getTransferSolInstruction({ source: payer, destination: to.address, amount: lamports(BigInt(i + 2)) })]);
      await rpc.sendTransaction(getBase64EncodedWireTransaction(t), { encoding: 'base64' }).send();
    }
    await expect(rpc.sendTransaction(wire, { encoding: 'base64' }).send()).rejects.toThrow(/already been processed|AlreadyProcessed|simulation failed/i);

    const old = (await rpc.getLatestBlockhash().send()).value;
    await chain.mine(100);
    expect((await rpc.isBlockhashValid(old.blockhash as never).send()).value).toBe(true);
    const ok = await build(payer, [getTransferSolInstruction({ source: payer, destination: to.address, amount: lamports(1007n) })], old);
    await rpc.sendTransaction(getBase64EncodedWireTransaction(ok), { encoding: 'base64' }).send();
    const older = (await rpc.getLatestBlockhash().send()).value;
    await chain.mine(200);
    expect((await rpc.isBlockhashValid(older.blockhash as never).send()).value).toBe(false);
    const stale = await build(payer, [getTransferSolInstruction({ source: payer, destination: to.address, amount: lamports(1008n) })], older);
    await expect(rpc.sendTransaction(getBase64EncodedWireTransaction(stale), { encoding: 'base64' }).send()).rejects.toThrow(
      /Blockhash not found|simulation failed/i,
    );
  });

  it('a failing program call is refused by preflight, and with skipPreflight it lands and pays its fee', async () => {
    const poor = await generateKeyPairSigner();
    await rpc.requestAirdrop(poor.address, lamports(1_000_000n)).send();
    const tx = await build(poor, [getTransferSolInstruction({ source: poor, destination: payer.address, amount: lamports(5_000_000n) })]);
    const wire = getBase64EncodedWireTransaction(tx);
    await expect(rpc.sendTransaction(wire, { encoding: 'base64' }).send()).rejects.toThrow(/simulation failed/i);
    const signature = await rpc.sendTransaction(wire, { encoding: 'base64', skipPreflight: true }).send();
    const st = (await rpc.getSignatureStatuses([signature]).send()).value[0];
    expect(st?.err).toEqual({ InstructionError: [0n, { Custom: 1n }] });
    expect((await rpc.getBalance(poor.address).send()).value).toBe(1_000_000n - 5000n);
  });

  it('base58 sends, simulateTransaction, getFeeForMessage, slot and block height, and accountSubscribe', async () => {
    const { getBase58Decoder, getBase64Decoder } = await import('@solana/kit');
    const to = await generateKeyPairSigner();
    const controller = new AbortController();
    const accountEvents = await subs.accountNotifications(to.address, { encoding: 'base64' }).subscribe({ abortSignal: controller.signal });
    // kit delivers the notifications that arrive once iteration has started.
    const first = accountEvents[Symbol.asyncIterator]().next();
    const tx = await build(payer, [getTransferSolInstruction({ source: payer, destination: to.address, amount: lamports(3_000_000n) })]);
    const sim = await rpc.simulateTransaction(getBase64EncodedWireTransaction(tx), { encoding: 'base64' }).send();
    expect(sim.value.err).toBeNull();
    expect(sim.value.unitsConsumed).toBeGreaterThan(0n);
    const wire = Buffer.from(getBase64EncodedWireTransaction(tx), 'base64');
    const sig = await rpc.sendTransaction(getBase58Decoder().decode(wire) as never).send();
    expect(typeof sig).toBe('string');
    const n = await first;
    expect(n.value?.value?.lamports).toBe(3_000_000n);
    controller.abort();
    const fee = await rpc.getFeeForMessage(getBase64Decoder().decode(tx.messageBytes) as never).send();
    expect(fee.value).toBe(5000n);
    expect(await rpc.getSlot().send()).toBe(chain.ledger.slot);
    expect(await rpc.getBlockHeight().send()).toBe(chain.ledger.blockHeight);
  });

  it('slotSubscribe notifies each slot; bad input gets JSON-RPC errors', async () => {
    const controller = new AbortController();
    const notifications = await subs.slotNotifications().subscribe({ abortSignal: controller.signal });
    await new Promise((r) => setTimeout(r, 50));
    const before = chain.ledger.slot;
    await chain.mine(1);
    const it = notifications[Symbol.asyncIterator]();
    const n = await it.next();
    expect(n.value?.slot).toBe(before + 1n);
    controller.abort();
    const r = await fetch(chain.urls.rpc!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: ['nope'] }),
    });
    expect(((await r.json()) as { error: { code: number } }).error.code).toBe(-32602);
    const m = await fetch(chain.urls.rpc!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"getNothing"}',
    });
    expect(((await m.json()) as { error: { code: number } }).error.code).toBe(-32601);
    const bad = await fetch(chain.urls.rpc!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });
});

describe('an SVM chain with a home', () => {
  it('keeps its accounts, slot and blockhash window across a restart', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const home = mkdtempSync(join(tmpdir(), 'chainlet-svm-'));
    try {
      const first = await startSvmChain({ kind: 'svm', rpc: '', slotMs: 0, home });
      const someone = (await generateKeyPairSigner()).address;
      first.ledger.airdrop(someone, 123_456_789n);
      const signer = await createKeyPairSignerFromBytes(first.ledger.devAccounts[3]!.secretKey);
      const bh0 = first.ledger.latestBlockhash();
      const msg = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(signer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(bh0 as never, m),
        (m) =>
          appendTransactionMessageInstructions([getTransferSolInstruction({ source: signer, destination: someone as never, amount: lamports(1_000n) })], m),
      );
      const wire = Buffer.from(getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(msg)), 'base64');
      first.ledger.send(wire);
      await first.mine(3);
      const bh = first.ledger.latestBlockhash().blockhash;
      await first.stop();
      const second = await startSvmChain({ kind: 'svm', rpc: '', slotMs: 0, home });
      expect(second.ledger.balance(someone)).toBe(123_456_789n + 1_000n);
      // The window's signatures came back too: a replay after the restart is refused.
      expect(() => second.ledger.send(wire)).toThrow(/already been processed/);
      expect(second.ledger.slot).toBe(3n);
      expect(second.ledger.isBlockhashValid(bh)).toBe(true);
      expect(second.ledger.genesisHash).toBe(first.ledger.genesisHash);
      expect(second.ledger.tokenAccountsOf(second.ledger.devAccounts[0]!.address)).toHaveLength(1);
      await second.stop();
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
