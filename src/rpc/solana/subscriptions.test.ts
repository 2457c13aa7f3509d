/**
 * The Solana subscriptions' fan-out over a real ledger with fake connections: each event's result
 * is serialized once however many subscriptions receive it, and every notification is the bytes
 * of the whole object serialized at once (the form before), differing only by its subscription.
 */
import { getTransferSolInstruction } from '@solana-program/system';
import {
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEV_MNEMONIC } from '../../genesis/dev-accounts.js';
import { SvmLedger } from '../../svm/ledger.js';
import type { WsConnection } from '../transport/index.js';
import { stringifyWithBigints } from './json.js';
import { SOLANA_METHODS, type SolanaEnv } from './methods.js';
import { createSolanaSubscriptions, type SolanaSubscriptions } from './subscriptions.js';

let env: SolanaEnv;
let subscriptions: SolanaSubscriptions;
beforeAll(async () => {
  const ledger = await SvmLedger.create({ mnemonic: DEV_MNEMONIC, accounts: 2 });
  env = { ledger, version: 'test', featureSet: 1, maxAirdropLamports: 10n ** 18n };
  subscriptions = createSolanaSubscriptions(env);
});
afterAll(() => subscriptions?.closeAll());

let nextConn = 0;
function connection(): WsConnection & { sent: string[] } {
  const sent: string[] = [];
  return { id: ++nextConn, remoteAddress: `127.0.0.1:${nextConn}`, path: '/', sent, closed: false, send: (t) => (sent.push(t), true), close: () => undefined };
}

/** The notification as it was written before: the whole object serialized at once. */
const whole = (method: string, subscription: unknown, result: unknown) => stringifyWithBigints({ jsonrpc: '2.0', method, params: { result, subscription } });
/** The text after the result's key: the same for every subscriber of one event but for the subscription number. */
const resultOf = (t: string) => t.slice(t.indexOf('"result":'), t.lastIndexOf(',"subscription":'));

function subscribeAll(method: string, params: unknown[], n: number) {
  return Array.from({ length: n }, () => {
    const c = connection();
    return { c, id: subscriptions.calls(c)(method, params) as number };
  });
}

describe('Solana subscription notifications', () => {
  it('encode a slot once for every slotSubscribe', () => {
    const subs = subscribeAll('slotSubscribe', [], 3);
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      env.ledger.advanceSlot();
      expect(stringify).toHaveBeenCalledTimes(1);
    } finally {
      stringify.mockRestore();
    }
    const slot = env.ledger.slot;
    for (const { c, id } of subs) expect(c.sent).toEqual([whole('slotNotification', id, { parent: slot - 1n, root: slot > 32n ? slot - 32n : 0n, slot })]);
    expect(resultOf(subs[1]!.c.sent[0]!)).toBe(resultOf(subs[0]!.c.sent[0]!));
    for (const { c } of subs) subscriptions.close(c);
  });

  it('encode a tx’s logs, signature and account results once each, for every subscriber', async () => {
    const payer = await createKeyPairSignerFromBytes(env.ledger.devAccounts[0]!.secretKey);
    const to = env.ledger.devAccounts[1]!.address;
    const latest = SOLANA_METHODS['getLatestBlockhash']!(env, []) as { value: { blockhash: string; lastValidBlockHeight: bigint } };
    const msg = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(latest.value as never, m),
      (m) => appendTransactionMessageInstructions([getTransferSolInstruction({ source: payer, destination: to as never, amount: lamports(1_000n) })], m),
    );
    const signed = await signTransactionMessageWithSigners(msg);
    const signature = getSignatureFromTransaction(signed);
    const logs = subscribeAll('logsSubscribe', ['all'], 3);
    const sigs = subscribeAll('signatureSubscribe', [signature], 2);
    const accounts = subscribeAll('accountSubscribe', [to, { encoding: 'base64' }], 3);
    const parsed = subscribeAll('accountSubscribe', [to, { encoding: 'jsonParsed' }], 2);
    const stringify = vi.spyOn(JSON, 'stringify');
    let rec;
    try {
      rec = env.ledger.send(Buffer.from(getBase64EncodedWireTransaction(signed), 'base64'));
      // logs, signature, account in base64, account in jsonParsed: one each.
      expect(stringify).toHaveBeenCalledTimes(4);
    } finally {
      stringify.mockRestore();
    }
    expect(rec.err).toBeNull();
    for (const { c, id } of logs)
      expect(c.sent).toEqual([whole('logsNotification', id, { context: { slot: rec.slot }, value: { signature, err: null, logs: rec.logs } })]);
    for (const { c, id } of sigs) expect(c.sent).toEqual([whole('signatureNotification', id, { context: { slot: rec.slot }, value: { err: null } })]);
    const info = (encoding: string) => (SOLANA_METHODS['getAccountInfo']!(env, [to, { encoding }]) as { value: unknown }).value;
    for (const { c, id } of accounts) expect(c.sent).toEqual([whole('accountNotification', id, { context: { slot: rec.slot }, value: info('base64') })]);
    for (const { c, id } of parsed) expect(c.sent).toEqual([whole('accountNotification', id, { context: { slot: rec.slot }, value: info('jsonParsed') })]);
    expect(resultOf(logs[2]!.c.sent[0]!)).toBe(resultOf(logs[0]!.c.sent[0]!));
    for (const { c } of [...logs, ...sigs, ...accounts, ...parsed]) subscriptions.close(c);
  });
});
