/**
 * /v2/fungible/msgs on the SVM chain: an SPL (and a SOL) transfer between two accounts comes back
 * as an unsigned base64 transaction; signed with @solana/kit by the sender and submitted through
 * /v2/tx/submit it moves the tokens (the recipient's associated token account created on the way).
 * A route from the SVM chain to another chain answers Skip's NotFound: there is no bridge.
 */
import { createKeyPairFromBytes, getBase64Encoder, getTransactionDecoder, getBase64EncodedWireTransaction, signTransaction } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeConfig } from '../../src/config/defaults.js';
import type { SvmChain } from '../../src/chains/svm/start.js';
import { startNetwork, type Network } from '../../src/network/network.js';
import { FAST_CONSENSUS, TEST_PORTS } from '../helpers/node.js';

let network: Network;
let svm: SvmChain;
let url: string;

beforeAll(async () => {
  network = await startNetwork({
    chains: [
      { kind: 'evm', config: mergeConfig(TEST_PORTS as never, FAST_CONSENSUS as never) as never },
      { kind: 'svm', rpc: '', slotMs: 0 },
    ],
  });
  svm = network.chains.find((c): c is SvmChain => c.kind === 'svm')!;
  url = network.urls.routing!;
});
afterAll(async () => {
  await network?.stop();
});

const post = async (path: string, body: unknown) => {
  const r = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as any };
};

async function signAndSubmit(base64: string, secretKey: Uint8Array): Promise<string> {
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode(base64));
  const signed = await signTransaction([await createKeyPairFromBytes(secretKey)], tx);
  const r = await post('/v2/tx/submit', { chain_id: svm.chainId, tx: getBase64EncodedWireTransaction(signed) });
  expect(r.status).toBe(200);
  return r.body.tx_hash as string;
}

async function balance(address: string, denom: string): Promise<string> {
  const r = await post('/v2/info/balances', { chains: { [svm.chainId]: { address, denoms: [denom] } } });
  return r.body.chains[svm.chainId].denoms[denom].amount as string;
}

describe('/v2/fungible/msgs on the SVM chain', () => {
  it('an SPL transfer to an account with no token account yet, then SOL', async () => {
    const [from, to] = [svm.ledger.devAccounts[0]!, svm.ledger.devAccounts[9]!];
    const mint = svm.ledger.mint;
    const fresh = (await import('@solana/kit')).getBase58Decoder().decode(crypto.getRandomValues(new Uint8Array(32)));
    const route = await post('/v2/fungible/route', {
      amount_in: '1500000',
      source_asset_denom: mint,
      source_asset_chain_id: svm.chainId,
      dest_asset_denom: mint,
      dest_asset_chain_id: svm.chainId,
    });
    expect(route.body).toMatchObject({
      required_chain_addresses: [svm.chainId, svm.chainId],
      operations: [{ bank_send: { chain_id: svm.chainId, denom: mint } }],
      does_swap: false,
    });
    const msgs = await post('/v2/fungible/msgs', {
      amount_in: '1500000',
      source_asset_denom: mint,
      source_asset_chain_id: svm.chainId,
      dest_asset_denom: mint,
      dest_asset_chain_id: svm.chainId,
      address_list: [from.address, fresh],
    });
    expect(msgs.status).toBe(200);
    expect(msgs.body.txs[0].svm_tx).toMatchObject({ chain_id: svm.chainId, signer_address: from.address });
    const before = BigInt(await balance(from.address, mint));
    await signAndSubmit(msgs.body.txs[0].svm_tx.tx, from.secretKey);
    expect(await balance(fresh, mint)).toBe('1500000');
    expect(BigInt(await balance(from.address, mint))).toBe(before - 1_500_000n);

    const sol = await post('/v2/fungible/msgs', {
      amount_in: '1000000',
      source_asset_denom: 'solana-native',
      source_asset_chain_id: svm.chainId,
      dest_asset_denom: 'solana-native',
      dest_asset_chain_id: svm.chainId,
      address_list: [from.address, to.address],
    });
    const solBefore = BigInt(await balance(to.address, 'sol'));
    await signAndSubmit(sol.body.txs[0].svm_tx.tx, from.secretKey);
    expect(BigInt(await balance(to.address, 'sol'))).toBe(solBefore + 1_000_000n);
  });

  it('no route off the SVM chain; a bad address is InvalidArgument', async () => {
    const off = await post('/v2/fungible/route', {
      amount_in: '1',
      source_asset_denom: svm.ledger.mint,
      source_asset_chain_id: svm.chainId,
      dest_asset_denom: 'achainlet',
      dest_asset_chain_id: network.evm!.chainId,
    });
    expect(off.status).toBe(404);
    expect(off.body).toMatchObject({ code: 5, message: expect.stringMatching(/no bridge/) });
    const bad = await post('/v2/fungible/msgs', {
      amount_in: '1',
      source_asset_denom: 'sol',
      source_asset_chain_id: svm.chainId,
      dest_asset_denom: 'sol',
      dest_asset_chain_id: svm.chainId,
      address_list: [svm.ledger.devAccounts[0]!.address, '0xnot'],
    });
    expect(bad.body).toMatchObject({ code: 3, message: expect.stringMatching(/base58/) });
  });

  it("routes between two names of SOL (the SVM adapter's sameDenom), and not to a mint", async () => {
    const route = (source: string, dest: string) =>
      post('/v2/fungible/route', {
        amount_in: '1',
        source_asset_denom: source,
        source_asset_chain_id: svm.chainId,
        dest_asset_denom: dest,
        dest_asset_chain_id: svm.chainId,
      });
    const aliases = await route('SOL', 'solana-native');
    expect(aliases.status).toBe(200);
    expect(aliases.body).toMatchObject({ amount_out: '1' });
    const toMint = await route('sol', svm.ledger.mint);
    expect(toMint.status).toBe(404);
    expect(toMint.body).toMatchObject({ code: 5, message: expect.stringMatching(/no swap venues/) });
  });
});
