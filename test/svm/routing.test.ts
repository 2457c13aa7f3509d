/**
 * The routing API over a network with an SVM chain: the `svm` record, /v2/info/balances of SOL and
 * of the USDC-like mint with exact formatted amounts, /v2/tx/submit of a base64 signed Solana tx
 * answered with its signature and explorer link, /v2/tx/status to success, and to failure with the
 * program error.
 */
import { createKeyPairSignerFromBytes, generateKeyPairSigner, lamports, type Instruction, type KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { signedWire } from './helpers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNetwork, type Network } from '../../src/network/network.js';
import type { SvmChain } from '../../src/chains/svm/start.js';
import { FAST_CONSENSUS, TEST_PORTS } from '../helpers/node.js';
import { mergeConfig } from '../../src/config/defaults.js';

let network: Network;
let svm: SvmChain;
let url: string;

beforeAll(async () => {
  network = await startNetwork({
    chains: [
      {
        kind: 'evm',
        config: mergeConfig(mergeConfig(TEST_PORTS as never, FAST_CONSENSUS as never), {
          routing: { rateLimitBurst: 10_000, rateLimitPerSecond: 10_000 },
        } as never),
      },
      { kind: 'svm', rpc: '127.0.0.1:0', ws: '127.0.0.1:0', slotMs: 0 },
    ],
  });
  svm = network.chains.find((c): c is SvmChain => c.kind === 'svm')!;
  url = network.urls.routing!;
});

afterAll(async () => {
  await network?.stop();
});

const signed = (signer: KeyPairSigner, ixs: Instruction[]) => signedWire(signer, ixs, svm.ledger.latestBlockhash());

const post = async (path: string, body: unknown) => {
  const r = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as any };
};

async function statusUntil(txHash: string, done: (s: string) => boolean): Promise<any> {
  for (let i = 0; i < 100; i++) {
    const r = await fetch(`${url}/v2/tx/status?chain_id=solana-devnet&tx_hash=${txHash}`);
    const body = (await r.json()) as any;
    if (done(body.state)) return body;
    await new Promise((res) => setTimeout(res, 20));
  }
  throw new Error('status did not settle');
}

describe('the routing API over the SVM chain', () => {
  it('lists the svm chain and answers its balances in SOL and in the SPL mint', async () => {
    const chains = (await (await fetch(`${url}/v2/info/chains?include_svm=true`)).json()) as { chains: { chain_id: string; chain_type: string }[] };
    expect(chains.chains.find((c) => c.chain_id === 'solana-devnet')?.chain_type).toBe('svm');
    const without = (await (await fetch(`${url}/v2/info/chains`)).json()) as { chains: { chain_type: string }[] };
    expect(without.chains.some((c) => c.chain_type === 'svm')).toBe(false);
    const owner = svm.ledger.devAccounts[1]!.address;
    const b = await post('/v2/info/balances', { chains: { 'solana-devnet': { address: owner, denoms: ['sol', svm.ledger.mint, 'nope'] } } });
    expect(b.status).toBe(200);
    const d = b.body.chains['solana-devnet'].denoms;
    expect(d.sol).toMatchObject({ amount: '1000000000000', decimals: 9, formatted_amount: '1000.000000000' });
    expect(d[svm.ledger.mint]).toMatchObject({ amount: '1000000000000', decimals: 6, formatted_amount: '1000000.000000' });
    expect(d.nope.error.message).toMatch(/unknown denom "nope"/);
    const bad = await post('/v2/info/balances', { chains: { 'solana-devnet': { address: '0xabc', denoms: [] } } });
    expect(bad.status).toBe(400);
  });

  it('submits a signed transfer, answers its signature and follows it to success', async () => {
    const payer = await createKeyPairSignerFromBytes(svm.ledger.devAccounts[2]!.secretKey);
    const to = await generateKeyPairSigner();
    const tx = await signed(payer, [getTransferSolInstruction({ source: payer, destination: to.address, amount: lamports(2_000_000n) })]);
    const r = await post('/v2/tx/submit', { chain_id: 'solana-devnet', tx });
    expect(r.status).toBe(200);
    expect(r.body.tx_hash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/);
    expect(r.body.explorer_link).toContain(r.body.tx_hash);
    const s = await statusUntil(r.body.tx_hash, (x) => x === 'STATE_COMPLETED_SUCCESS');
    expect(s.status).toBe('STATE_COMPLETED');
    expect(svm.ledger.balance(to.address)).toBe(2_000_000n);
  });

  it('a transfer that fails on chain ends in STATE_COMPLETED_ERROR with the program error', async () => {
    const poor = await generateKeyPairSigner();
    svm.ledger.airdrop(poor.address, 1_000_000n);
    const tx = await signed(poor, [
      getTransferSolInstruction({ source: poor, destination: svm.ledger.devAccounts[0]!.address as never, amount: lamports(9_000_000n) }),
    ]);
    const r = await post('/v2/tx/submit', { chain_id: 'solana-devnet', tx });
    expect(r.status).toBe(200);
    const s = await statusUntil(r.body.tx_hash, (x) => x === 'STATE_COMPLETED_ERROR');
    expect(JSON.stringify(s.error)).toContain('Custom');
  });
});
