/**
 * Over-long encoded input is refused before it is decoded (base58 decoding is quadratic: a
 * 120 000-character transaction used to stall every chain of the process), with agave's
 * decode_and_deserialize errors (-32602): sendTransaction, simulateTransaction and getFeeForMessage,
 * base58 and base64, at and past the limits; over-long pubkeys and signatures in params too.
 */
import { createKeyPairSignerFromBytes, createSolanaRpc, generateKeyPairSigner, getBase58Decoder, lamports, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSvmChain, type SvmChain } from '../../src/chains/svm/start.js';
import { rpcError, signedWire } from './helpers.js';

let chain: SvmChain;
let rpc: Rpc<SolanaRpcApi>;

beforeAll(async () => {
  chain = await startSvmChain({ kind: 'svm', rpc: '127.0.0.1:0', ws: '127.0.0.1:0', slotMs: 0 });
  rpc = createSolanaRpc(chain.urls.rpc!);
});

afterAll(async () => {
  await chain?.stop();
});

const TX = 'solana_transaction::versioned::VersionedTransaction';

describe('encoded input limits', () => {
  it('refuses a 120 000-character base58 transaction before decoding it, as agave does', async () => {
    const long = '2'.repeat(120_000);
    expect(await rpcError(rpc.sendTransaction(long as never).send())).toEqual({
      code: -32602,
      message: `base58 encoded ${TX} too large: 120000 bytes (max: encoded/raw 1683/1232)`,
    });
    expect(await rpcError(rpc.simulateTransaction(long as never).send())).toEqual({
      code: -32602,
      message: `base58 encoded ${TX} too large: 120000 bytes (max: encoded/raw 1683/1232)`,
    });
    // At the limit the text is decoded; 1 683 'z's decode to more than a packet.
    expect(await rpcError(rpc.sendTransaction('z'.repeat(1683) as never).send())).toMatchObject({
      code: -32602,
      message: expect.stringMatching(
        /^decoded solana_transaction::versioned::VersionedTransaction too large: \d+ bytes \(max: 1232 bytes\)$/,
      ) as unknown as string,
    });
    expect(await rpcError(rpc.sendTransaction('2'.repeat(1684) as never).send())).toEqual({
      code: -32602,
      message: `base58 encoded ${TX} too large: 1684 bytes (max: encoded/raw 1683/1232)`,
    });
    expect((await rpcError(rpc.sendTransaction('0OIl' as never).send())).message).toBe(
      "invalid base58 encoding: InvalidCharacter { character: '0', index: 0 }",
    );
  });

  it('refuses base64 over a packet, and a long base64 message in getFeeForMessage', async () => {
    const long = 'A'.repeat(300_000);
    expect(await rpcError(rpc.sendTransaction(long as never, { encoding: 'base64' }).send())).toEqual({
      code: -32602,
      message: `base64 encoded ${TX} too large: 300000 bytes (max: encoded/raw 1644/1232)`,
    });
    expect(await rpcError(rpc.simulateTransaction(long as never, { encoding: 'base64' }).send())).toEqual({
      code: -32602,
      message: `base64 encoded ${TX} too large: 300000 bytes (max: encoded/raw 1644/1232)`,
    });
    expect(await rpcError(rpc.getFeeForMessage(long as never).send())).toEqual({
      code: -32602,
      message: 'base64 encoded solana_message::versioned::VersionedMessage too large: 300000 bytes (max: encoded/raw 1644/1232)',
    });
  });

  it('still takes a real base58 transaction; over-long pubkeys and signatures are refused unread', async () => {
    const payer = await createKeyPairSignerFromBytes(chain.ledger.devAccounts[0]!.secretKey);
    const to = (await generateKeyPairSigner()).address;
    const wire = await signedWire(
      payer,
      [getTransferSolInstruction({ source: payer, destination: to, amount: lamports(2_000_000n) })],
      chain.ledger.latestBlockhash(),
    );
    const sig = await rpc.sendTransaction(getBase58Decoder().decode(Buffer.from(wire, 'base64')) as never).send();
    expect(typeof sig).toBe('string');
    expect((await rpc.getBalance(to).send()).value).toBe(2_000_000n);
    const longKey = '2'.repeat(200_000);
    expect((await rpcError(rpc.getBalance(longKey as never).send())).code).toBe(-32602);
    expect((await rpcError(rpc.getSignaturesForAddress(to, { before: longKey as never }).send())).code).toBe(-32602);
  });
});
