/**
 * Every chain of the network on a home, with the built CLI: `chainlet init --home` writes the EVM
 * chain and the hub (its genesis and keys in <home>/hub), `chainlet start --home` brings both back
 * at their heights with their balances, blocks and IBC channel after SIGTERM, and the relayer
 * relays a packet left pending at the stop and times out (refunds) another. After `kill -9` under
 * load, twice (hub sends, EVM transfers, SVM airdrops, IBC transfers both ways), every tx that was
 * answered as committed is there, and once the restarted relayer has nothing pending, per denom
 * the escrow on one side equals the voucher supply on the other.
 */
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCosmoshubPath } from '@cosmjs/amino';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, QueryClient, setupBankExtension, setupIbcExtension, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { createSolanaRpc, generateKeyPairSigner, lamports, type Signature } from '@solana/kit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createWalletClient, createPublicClient, http, parseEther, TransactionReceiptNotFoundError } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { toBech32 } from '../../src/crypto/bech32.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { denomHashHex } from '../../src/ibc/keys.js';
import { killAll, PORTS0, spawnCli, type CliProcess } from '../helpers/cli.js';
import { EVM_DENOM, evmCosmosClient } from '../helpers/cosmos-signing.js';

const homes: string[] = [];
afterEach(killAll);
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

const HUB_ESCROW = 'hub1a53udazy8ayufvy0s434pfwjcedzqv34tv0y8f';
/** A plain hub account the bank sends go to. */
const HUB_OTHER = toBech32('hub', new Uint8Array(20).fill(0x11));
const EVM_ESCROW = 'chainlet1a53udazy8ayufvy0s434pfwjcedzqv349thmza';
const UHUB_ON_EVM = `ibc/${denomHashHex('transfer/channel-0/uhub')}`;
const CHAINLET_ON_HUB = `ibc/${denomHashHex(`transfer/channel-0/${EVM_DENOM}`)}`;
const inTenMinutes = () => Math.floor(Date.now() / 1000) + 600;

interface Running {
  cli: CliProcess;
  hubRpc: string;
  evmRpc: string;
  /** The SVM chain's Solana JSON-RPC, when it runs. */
  svmRpc?: string;
  jsonRpc: string;
}

async function initHome(): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'chainlet-net-home-'));
  homes.push(home);
  const init = spawnCli(['init', '--home', home]);
  await new Promise<void>((resolve, reject) => init.child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(init.err())))));
  return home;
}

async function start(home: string, chains = 'evm,hub'): Promise<Running> {
  const cli = spawnCli(['start', '--home', home, ...PORTS0, '--output', 'json', '--evm.devnet', 'true', '--chains', chains]);
  const out = await cli.waitFor((o) => o.includes('"event":"ready"'), { timeoutMs: 60_000 });
  const ready = JSON.parse(out.split('\n').find((l) => l.includes('"event":"ready"'))!) as {
    chains: { kind: string; urls: Record<string, string> }[];
    endpoints: { name: string; url: string }[];
    ibc?: { channelA?: string; off?: string };
  };
  expect(ready.ibc?.channelA).toBe('channel-0');
  const endpoint = (name: string) => ready.endpoints.find((e) => e.name === name)!.url;
  const svm = ready.chains.find((c) => c.kind === 'svm')?.urls['rpc'];
  return {
    cli,
    hubRpc: ready.chains.find((c) => c.kind === 'hub')!.urls['rpc']!,
    evmRpc: endpoint('CometBFT RPC'),
    jsonRpc: endpoint('Ethereum JSON-RPC'),
    ...(svm ? { svmRpc: svm } : {}),
  };
}

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = (await (
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  ).json()) as {
    result: T;
    error?: { message: string };
  };
  if (res.error) throw new Error(res.error.message);
  return res.result;
}

async function stopWith(r: Running, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  const exited = new Promise((resolve) => r.cli.child.once('exit', resolve));
  r.cli.child.kill(signal);
  await exited;
}

/** Polls `check` until it is true, at most `ms` (the relayer works after each block: no fixed sleep). */
async function until(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const pendingOf = async (r: Running) => (await rpc<{ pending: unknown[] }>(r.jsonRpc, 'chainlet_relayerStatus')).pending.length;

/** A signing client of the hub's dev account `index` (one client per sender: each keeps its own sequence). */
async function hubClient(r: Running, index = 0) {
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub', hdPaths: [makeCosmoshubPath(index)] });
  const accounts = await wallet.getAccounts();
  const client = await SigningStargateClient.connectWithSigner(r.hubRpc, wallet, { gasPrice: GasPrice.fromString('0uhub'), broadcastPollIntervalMs: 50 });
  return { client, from: accounts[0]!.address };
}

const evmFee = { amount: [{ denom: EVM_DENOM, amount: (2_000_000_000n * 400_000n).toString() }], gas: '400000' };

/** What must survive a restart: heights, block hashes, balances, the IBC channel on both chains. */
async function snapshot(r: Running, hubAddr: string, evmAddr: string) {
  const out: Record<string, unknown> = {};
  for (const [name, url] of [
    ['hub', r.hubRpc],
    ['evm', r.evmRpc],
  ] as const) {
    const comet = await Comet38Client.connect(url);
    const q = QueryClient.withExtensions(comet, setupIbcExtension, setupBankExtension);
    const height = (await comet.status()).syncInfo.latestBlockHeight;
    const block = await comet.block(height);
    out[name] = {
      height,
      blockHash: Buffer.from(block.blockId.hash).toString('hex'),
      appHash: Buffer.from(block.block.header.appHash).toString('hex'),
      channel: (await q.ibc.channel.channel('transfer', 'channel-0')).channel,
      balances: await q.bank.allBalances(name === 'hub' ? hubAddr : evmAddr),
    };
    comet.disconnect();
  }
  return out as Record<'hub' | 'evm', { height: number; blockHash: string; appHash: string; channel: unknown; balances: unknown }>;
}

/** The block hash and app hash at `height` (unchanged by a restart). */
async function blockAt(url: string, height: number): Promise<{ blockHash: string; appHash: string }> {
  const comet = await Comet38Client.connect(url);
  try {
    const b = await comet.block(height);
    return { blockHash: Buffer.from(b.blockId.hash).toString('hex'), appHash: Buffer.from(b.block.header.appHash).toString('hex') };
  } finally {
    comet.disconnect();
  }
}

async function heightOf(url: string): Promise<number> {
  const comet = await Comet38Client.connect(url);
  try {
    return (await comet.status()).syncInfo.latestBlockHeight;
  } finally {
    comet.disconnect();
  }
}

async function balanceOf(url: string, address: string, denom: string): Promise<bigint> {
  const c = await StargateClient.connect(url);
  try {
    return BigInt((await c.getBalance(address, denom)).amount);
  } finally {
    c.disconnect();
  }
}

async function supplyOf(url: string, denom: string): Promise<bigint> {
  const comet = await Comet38Client.connect(url);
  try {
    return BigInt((await QueryClient.withExtensions(comet, setupBankExtension).bank.supplyOf(denom)).amount);
  } finally {
    comet.disconnect();
  }
}

interface Committed {
  hub: string[];
  evm: `0x${string}`[];
  ibc: string[];
  /** Signatures of SVM airdrops answered. */
  svm: string[];
}

/**
 * Loops of hub sends, EVM transfers and IBC transfers both ways (each from its own account), every
 * tx answered as committed recorded; kill -9 once each loop has `atLeast` (IBC: twice that) in all.
 */
async function loadThenKill(r: Running, committed: Committed, atLeast: number): Promise<void> {
  const hub = await hubClient(r);
  const hubIbc = await hubClient(r, 1);
  const evm = await evmCosmosClient(r.evmRpc);
  const wallet = createWalletClient({ account: mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 1 }), transport: http(r.jsonRpc) });
  const pub = createPublicClient({ transport: http(r.jsonRpc) });
  let killed = false;
  const loop = async (step: () => Promise<void>) => {
    while (!killed) {
      try {
        await step();
      } catch (err) {
        if (killed) return;
        throw err;
      }
    }
  };
  const ibcFee = { amount: [], gas: '300000' };
  const solana = createSolanaRpc(r.svmRpc!);
  const svmReceiver = (await generateKeyPairSigner()).address;
  const loops = [
    loop(async () => {
      committed.svm.push(await solana.requestAirdrop(svmReceiver, lamports(1_000n)).send());
    }),
    loop(async () => {
      const res = await hub.client.sendTokens(hub.from, HUB_OTHER, [{ denom: 'uhub', amount: '1' }], { amount: [], gas: '200000' });
      if (res.code === 0) committed.hub.push(res.transactionHash);
    }),
    loop(async () => {
      const hash = await wallet.sendTransaction({ chain: null, to: '0x000000000000000000000000000000000000dEaD', value: parseEther('0.001') });
      // Polled until the receipt comes or the node is killed (viem's own wait would poll on for its timeout).
      while (!killed) {
        const receipt = await pub.getTransactionReceipt({ hash }).catch((err: unknown) => {
          if (err instanceof TransactionReceiptNotFoundError) return undefined;
          throw err;
        });
        if (receipt) {
          if (receipt.status === 'success') committed.evm.push(hash);
          return;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }),
    loop(async () => {
      const res = await hubIbc.client.sendIbcTokens(
        hubIbc.from,
        evm.from,
        { denom: 'uhub', amount: '11' },
        'transfer',
        'channel-0',
        undefined,
        inTenMinutes(),
        ibcFee,
      );
      if (res.code === 0) committed.ibc.push(res.transactionHash);
    }),
    loop(async () => {
      const res = await evm.client.sendIbcTokens(
        evm.from,
        hub.from,
        { denom: EVM_DENOM, amount: '13' },
        'transfer',
        'channel-0',
        undefined,
        inTenMinutes(),
        evmFee,
      );
      if (res.code === 0) committed.ibc.push(res.transactionHash);
    }),
  ].map((p) => p.catch((err: unknown) => err));
  // Killed by count of committed txs, not by time.
  await until(
    'txs committed on every loop',
    async () => committed.hub.length >= atLeast && committed.evm.length >= atLeast && committed.ibc.length >= 2 * atLeast && committed.svm.length >= atLeast,
    120_000,
  );
  killed = true;
  await stopWith(r, 'SIGKILL');
  const errors = (await Promise.all(loops)).filter((e) => e !== undefined);
  expect(errors).toEqual([]);
  hub.client.disconnect();
  hubIbc.client.disconnect();
  evm.client.disconnect();
}

describe('a network on a home (built CLI)', () => {
  it('init writes the hub beside the EVM chain; start brings both back after SIGTERM, relays a packet pending at the stop and times out another', async () => {
    const home = await initHome();
    expect(existsSync(join(home, 'config', 'genesis.json'))).toBe(true);
    expect(existsSync(join(home, 'hub', 'config', 'genesis.json'))).toBe(true);
    expect(existsSync(join(home, 'hub', 'config', 'priv_validator_key.json'))).toBe(true);

    let r = await start(home);
    const hub = await hubClient(r);
    const evm = await evmCosmosClient(r.evmRpc);
    const evmReceiver = evm.from;
    // A hub bank send, and a transfer each way.
    expect((await hub.client.sendTokens(hub.from, HUB_OTHER, [{ denom: 'uhub', amount: '5' }], { amount: [], gas: '200000' })).code).toBe(0);
    const toEvm = await hub.client.sendIbcTokens(hub.from, evmReceiver, { denom: 'uhub', amount: '1000' }, 'transfer', 'channel-0', undefined, inTenMinutes(), {
      amount: [],
      gas: '300000',
    });
    expect(toEvm.code).toBe(0);
    const toHub = await evm.client.sendIbcTokens(
      evm.from,
      hub.from,
      { denom: EVM_DENOM, amount: '7000' },
      'transfer',
      'channel-0',
      undefined,
      inTenMinutes(),
      evmFee,
    );
    expect(toHub.code).toBe(0);
    await until('both transfers relayed', async () => (await pendingOf(r)) === 0 && (await balanceOf(r.evmRpc, evmReceiver, UHUB_ON_EVM)) === 1000n);
    expect(await balanceOf(r.hubRpc, hub.from, CHAINLET_ON_HUB)).toBe(7000n);

    // Two packets left pending at the stop: one to receive, one whose timeout height is the EVM chain's next.
    await rpc(r.jsonRpc, 'chainlet_pauseRelayer');
    const pending = await hub.client.sendIbcTokens(
      hub.from,
      evmReceiver,
      { denom: 'uhub', amount: '300' },
      'transfer',
      'channel-0',
      undefined,
      inTenMinutes(),
      {
        amount: [],
        gas: '300000',
      },
    );
    expect(pending.code).toBe(0);
    const evmHeight = await heightOf(r.evmRpc);
    const timingOut = await hub.client.sendIbcTokens(
      hub.from,
      evmReceiver,
      { denom: 'uhub', amount: '200' },
      'transfer',
      'channel-0',
      { revisionNumber: 1n, revisionHeight: BigInt(evmHeight + 1) },
      undefined,
      { amount: [], gas: '300000' },
    );
    expect(timingOut.code).toBe(0);
    expect(await pendingOf(r)).toBe(2);
    const before = await snapshot(r, hub.from, evmReceiver);
    hub.client.disconnect();
    evm.client.disconnect();
    await stopWith(r, 'SIGTERM');

    r = await start(home);
    // The same history (block and app hashes at the old heights), the same IBC channel.
    expect(await blockAt(r.hubRpc, before.hub.height)).toEqual({ blockHash: before.hub.blockHash, appHash: before.hub.appHash });
    expect(await blockAt(r.evmRpc, before.evm.height)).toEqual({ blockHash: before.evm.blockHash, appHash: before.evm.appHash });
    // The restarted relayer relays the first (the voucher arrives) and times out the second once the
    // EVM chain is past its height (the receive's block takes it there): refunded, nothing pending.
    await until(
      'the pending packets relayed or timed out after the restart',
      async () => (await balanceOf(r.evmRpc, evmReceiver, UHUB_ON_EVM)) === 1300n && (await pendingOf(r)) === 0,
    );
    const after = await snapshot(r, hub.from, evmReceiver);
    expect(after.hub.height).toBeGreaterThan(before.hub.height);
    expect(after.hub.channel).toEqual(before.hub.channel);
    expect(after.evm.channel).toEqual(before.evm.channel);
    const uhub = (b: unknown) => BigInt((b as { denom: string; amount: string }[]).find((c) => c.denom === 'uhub')!.amount);
    expect(uhub(after.hub.balances)).toBe(uhub(before.hub.balances) + 200n);
    expect((after.hub.balances as { denom: string }[]).filter((c) => c.denom !== 'uhub')).toEqual(
      (before.hub.balances as { denom: string }[]).filter((c) => c.denom !== 'uhub'),
    );
    expect(await balanceOf(r.hubRpc, HUB_ESCROW, 'uhub')).toBe(1300n);
    // Escrow and vouchers match per denom.
    expect(await balanceOf(r.hubRpc, HUB_ESCROW, 'uhub')).toBe(await supplyOf(r.evmRpc, UHUB_ON_EVM));
    expect(await balanceOf(r.evmRpc, EVM_ESCROW, EVM_DENOM)).toBe(await supplyOf(r.hubRpc, CHAINLET_ON_HUB));
    await stopWith(r, 'SIGTERM');
  }, 180_000);

  it('kill -9 under load, twice, loses no committed tx on any chain and no IBC tokens', async () => {
    const home = await initHome();
    const committed: Committed = { hub: [], evm: [], ibc: [], svm: [] };
    // Each round: load on every chain and IBC both ways, kill -9 once every loop has more txs committed.
    for (let round = 1; round <= 2; round++) await loadThenKill(await start(home, 'evm,hub,svm'), committed, 3 * round);

    const r = await start(home, 'evm,hub,svm');
    const statuses = (
      await createSolanaRpc(r.svmRpc!)
        .getSignatureStatuses(committed.svm as Signature[])
        .send()
    ).value;
    expect(statuses.every((st) => st !== null && st.err === null)).toBe(true);
    const hubQ = await StargateClient.connect(r.hubRpc);
    const evmQ = await StargateClient.connect(r.evmRpc);
    for (const h of committed.hub) expect((await hubQ.getTx(h))?.code).toBe(0);
    const pub = createPublicClient({ transport: http(r.jsonRpc) });
    for (const h of committed.evm) expect((await pub.getTransactionReceipt({ hash: h })).status).toBe('success');
    for (const h of committed.ibc) expect(((await hubQ.getTx(h)) ?? (await evmQ.getTx(h)))?.code).toBe(0);
    hubQ.disconnect();
    evmQ.disconnect();
    // The restarted relayer finishes every packet in flight; then escrow = vouchers per denom.
    await until('no packet pending after the restart', async () => (await pendingOf(r)) === 0, 90_000);
    expect(await balanceOf(r.hubRpc, HUB_ESCROW, 'uhub')).toBe(await supplyOf(r.evmRpc, UHUB_ON_EVM));
    expect(await balanceOf(r.evmRpc, EVM_ESCROW, EVM_DENOM)).toBe(await supplyOf(r.hubRpc, CHAINLET_ON_HUB));
    expect(await supplyOf(r.evmRpc, UHUB_ON_EVM)).toBeGreaterThan(0n);
    await stopWith(r, 'SIGTERM');
  }, 300_000);
});
