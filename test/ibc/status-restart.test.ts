/**
 * `/v2/tx/status` across a restart of a home (built CLI, evm + hub with IBC): a transfer submitted
 * through the routing API and completed, and one tracked and left in flight (the relayer paused),
 * then SIGTERM and `chainlet start --home` again. The status of the completed one, asked without
 * tracking it again, is the one it had before the stop (its packet txs read back from the chains'
 * tx indexes); `/v2/tx/track` of it works; the one in flight completes after the restart (the
 * resumed relayer's receive and acknowledgement found); the explorer's IBC list shows both.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCosmoshubPath } from '@cosmjs/amino';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { SigningStargateClient } from '@cosmjs/stargate';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { killAll, PORTS0, spawnCli, type CliProcess } from '../helpers/cli.js';
import { EVM_DENOM, evmCosmosClient, transferMsg } from '../helpers/cosmos-signing.js';

const homes: string[] = [];
afterEach(killAll);
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

const EVM_COSMOS_ID = 'chainlet_9000-1';
const HUB_ID = 'chainlethub-1';

interface Running {
  cli: CliProcess;
  hubRpc: string;
  evmRpc: string;
  jsonRpc: string;
  routing: string;
}

async function initHome(): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'chainlet-status-home-'));
  homes.push(home);
  const init = spawnCli(['init', '--home', home, '--chains', 'evm,hub']);
  await new Promise<void>((resolve, reject) => init.child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(init.err())))));
  return home;
}

async function start(home: string): Promise<Running> {
  const cli = spawnCli(['start', '--home', home, ...PORTS0, '--output', 'json', '--evm.devnet', 'true', '--chains', 'evm,hub']);
  const out = await cli.waitFor((o) => o.includes('"event":"ready"'), { timeoutMs: 60_000 });
  const ready = JSON.parse(out.split('\n').find((l) => l.includes('"event":"ready"'))!) as {
    chains: { kind: string; urls: Record<string, string> }[];
    endpoints: { name: string; url: string }[];
  };
  const endpoint = (name: string) => ready.endpoints.find((e) => e.name === name)!.url;
  return {
    cli,
    hubRpc: ready.chains.find((c) => c.kind === 'hub')!.urls['rpc']!,
    evmRpc: endpoint('CometBFT RPC'),
    jsonRpc: endpoint('Ethereum JSON-RPC'),
    routing: endpoint('Routing API'),
  };
}

async function stop(r: Running): Promise<void> {
  const exited = new Promise((resolve) => r.cli.child.once('exit', resolve));
  r.cli.child.kill('SIGTERM');
  await exited;
}

async function rpc(url: string, method: string): Promise<unknown> {
  const res = (await (
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }) })
  ).json()) as {
    result: unknown;
    error?: { message: string };
  };
  if (res.error) throw new Error(res.error.message);
  return res.result;
}

type Status = { state: string; transfers: { transfer_sequence: { ibc_transfer: { state: string; packet_txs: Record<string, unknown> } }[] }[] } & Record<
  string,
  unknown
>;

async function status(r: Running, chainId: string, hash: string): Promise<{ code: number; body: Status }> {
  const res = await fetch(`${r.routing}/v2/tx/status?chain_id=${chainId}&tx_hash=${hash}`);
  return { code: res.status, body: (await res.json()) as Status };
}

/** Polls the status until `pred` holds (the relayer works after each block: no fixed sleep). */
async function statusUntil(r: Running, chainId: string, hash: string, pred: (s: Status) => boolean): Promise<Status> {
  const end = Date.now() + 60_000;
  for (;;) {
    const s = await status(r, chainId, hash);
    if (s.code === 200 && pred(s.body)) return s.body;
    if (Date.now() > end) throw new Error(`status never matched: ${s.code} ${JSON.stringify(s.body)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** A status with this run's base URL taken out of its explorer links (port 0: each start has its own). */
function portable(s: Status, r: Running): unknown {
  return JSON.parse(JSON.stringify(s).split(r.routing).join('<routing>'));
}

async function post(r: Running, path: string, body: unknown): Promise<{ code: number; body: { tx_hash?: string } }> {
  const res = await fetch(`${r.routing}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { code: res.status, body: (await res.json()) as { tx_hash?: string } };
}

/** A hub → EVM chain transfer signed with cosmjs and submitted through the routing API. */
async function submitFromHub(r: Running, receiver: string, amount: string): Promise<string> {
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub', hdPaths: [makeCosmoshubPath(0)] });
  const [from] = await wallet.getAccounts();
  const client = await SigningStargateClient.connectWithSigner(r.hubRpc, wallet);
  const msg = transferMsg({ sender: from!.address, receiver, amount });
  const signed = await client.sign(from!.address, [msg], { amount: [], gas: '300000' }, '');
  client.disconnect();
  const res = await post(r, '/v2/tx/submit', { chain_id: HUB_ID, tx: Buffer.from(TxRaw.encode(signed).finish()).toString('base64') });
  expect(res.code).toBe(200);
  return res.body.tx_hash!;
}

const ibcState = (s: Status) => s.transfers[0]?.transfer_sequence[0]?.ibc_transfer.state;

describe('/v2/tx/status of transfers across a restart of a home (built CLI)', () => {
  it('answers a completed transfer as before, tracks it again, and completes one left in flight', async () => {
    const home = await initHome();
    let r = await start(home);
    const evm = await evmCosmosClient(r.evmRpc);
    const hubWallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub', hdPaths: [makeCosmoshubPath(0)] });
    const hubAddr = (await hubWallet.getAccounts())[0]!.address;

    // Completed before the stop: submitted through the routing API, relayed both ways.
    const done = await submitFromHub(r, evm.from, '4242');
    const doneBefore = await statusUntil(r, HUB_ID, done, (s) => s.state === 'STATE_COMPLETED_SUCCESS');
    expect(ibcState(doneBefore)).toBe('TRANSFER_SUCCESS');

    // In flight at the stop: sent from the EVM chain's Cosmos face, tracked, the relayer paused.
    await rpc(r.jsonRpc, 'chainlet_pauseRelayer');
    const fee = { amount: [{ denom: EVM_DENOM, amount: (2_000_000_000n * 400_000n).toString() }], gas: '400000' };
    const sent = await evm.client.sendIbcTokens(
      evm.from,
      hubAddr,
      { denom: EVM_DENOM, amount: '777' },
      'transfer',
      'channel-0',
      undefined,
      Math.floor(Date.now() / 1000) + 600,
      fee,
    );
    expect(sent.code).toBe(0);
    evm.client.disconnect();
    const flying = sent.transactionHash;
    expect((await post(r, '/v2/tx/track', { chain_id: EVM_COSMOS_ID, tx_hash: flying })).code).toBe(200);
    const flyingBefore = await statusUntil(r, EVM_COSMOS_ID, flying, (s) => s.transfers.length === 1);
    expect(flyingBefore.state).toBe('STATE_PENDING');
    expect(ibcState(flyingBefore)).toBe('TRANSFER_PENDING');
    const first = r;
    await stop(r);

    r = await start(home);
    // Asked without tracking it again: the same answer as before the stop (but for the links' base URL).
    const doneAfter = await status(r, HUB_ID, done);
    expect(doneAfter.code).toBe(200);
    expect(portable(doneAfter.body, r)).toEqual(portable(doneBefore, first));
    // Tracking it again works too, under the same hash.
    const tracked = await post(r, '/v2/tx/track', { chain_id: HUB_ID, tx_hash: done });
    expect(tracked).toMatchObject({ code: 200, body: { tx_hash: done } });

    // The resumed relayer receives and acknowledges the packet left in flight: the status follows.
    const flyingAfter = await statusUntil(r, EVM_COSMOS_ID, flying, (s) => s.state === 'STATE_COMPLETED_SUCCESS');
    expect(ibcState(flyingAfter)).toBe('TRANSFER_SUCCESS');
    const packetTxs = (s: Status, run: Running) => (portable(s, run) as Status).transfers[0]!.transfer_sequence[0]!.ibc_transfer.packet_txs;
    const txs = packetTxs(flyingAfter, r);
    expect(txs['send_tx']).toEqual(packetTxs(flyingBefore, first)['send_tx']);
    expect(txs['receive_tx']).toMatchObject({ chain_id: HUB_ID });
    expect(txs['acknowledge_tx']).toMatchObject({ chain_id: EVM_COSMOS_ID });

    // The explorer's IBC list shows both packets sent before the restart.
    const list = (await (await fetch(`${r.routing}/explorer/api/ibc`)).json()) as { packets: { src_chain_id: string; amount: string; state: string }[] };
    expect(list.packets.map((p) => [p.src_chain_id, p.amount, p.state]).sort()).toEqual(
      [
        [EVM_COSMOS_ID, '777', 'TRANSFER_SUCCESS'],
        [HUB_ID, '4242', 'TRANSFER_SUCCESS'],
      ].sort(),
    );
    await stop(r);
  }, 180_000);
});
