/**
 * The hub and the kvstore chain on a home (in process): each keeps its genesis, keys and LevelDB in
 * `<home>/<kind>/` and resumes at its height with its state after a stop; the hub app writes each
 * commit (accounts, IBC store, auth entries, meta) as one batch of its database. Started from code,
 * each reads its home's `config.toml` as `chainlet start --home` does, the spec's typed options over it.
 */
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { afterAll, describe, expect, it } from 'vitest';
import { HubApp } from '../../src/apps/hub/hub-app.js';
import { initChainConfig } from '../../src/chains/chain-home.js';
import { hubKind } from '../../src/chains/hub/kind.js';
import { HUB_CONFIG_TOML } from '../../src/chains/hub/settings.js';
import { startHubChain, type HubChain } from '../../src/chains/hub/start.js';
import { kvstoreKind } from '../../src/chains/kvstore/kind.js';
import { startKvStoreChain } from '../../src/chains/kvstore/start.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { BTreeLevel } from '../../src/store/btree-level.js';

const homes: string[] = [];
const newHome = () => {
  const h = mkdtempSync(join(tmpdir(), 'chainlet-hub-home-'));
  homes.push(h);
  return h;
};
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

const PORT0 = { rpc: { laddr: 'tcp://127.0.0.1:0' } };

describe('the hub on a home', () => {
  it('resumes at its height with its balances, sequences, public keys and app hash', async () => {
    const home = newHome();
    let hub: HubChain = await startHubChain({ kind: 'hub', home, config: PORT0 });
    expect(existsSync(join(home, 'hub', 'config', 'genesis.json'))).toBe(true);
    expect(existsSync(join(home, 'hub', 'data', 'chainlet.db'))).toBe(true);
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
    const [from] = await wallet.getAccounts();
    const to = hub.devAddresses[3]!;
    const client = await SigningStargateClient.connectWithSigner(hub.urls.rpc!, wallet, { broadcastPollIntervalMs: 50 });
    const sent = await client.sendTokens(from!.address, to, [{ denom: 'uhub', amount: '4242' }], { amount: [], gas: '200000' });
    expect(sent.code).toBe(0);
    client.disconnect();
    const height = hub.height;
    const INFO = { version: '', blockVersion: 11, p2pVersion: 8, abciVersion: '2.0.0' };
    const appHash = Buffer.from((await hub.app.info(INFO)).lastBlockAppHash).toString('hex');
    const genesisTime = hub.genesis.genesisTime;
    await hub.stop();

    hub = await startHubChain({ kind: 'hub', home, config: PORT0 });
    try {
      expect(hub.height).toBe(height);
      expect(hub.genesis.genesisTime).toEqual(genesisTime);
      const info = await hub.app.info(INFO);
      expect(Buffer.from(info.lastBlockAppHash).toString('hex')).toBe(appHash);
      const q = await StargateClient.connect(hub.urls.rpc!);
      expect(await q.getBalance(to, 'uhub')).toEqual({ denom: 'uhub', amount: (1_000_000_000_000n + 4242n).toString() });
      // The sender's sequence and public key (auth) came back with the accounts.
      expect(await q.getAccount(from!.address)).toMatchObject({ sequence: 1, pubkey: { type: 'tendermint/PubKeySecp256k1' } });
      expect((await q.getTx(sent.transactionHash))?.code).toBe(0);
      q.disconnect();
    } finally {
      await hub.stop();
    }
  });

  it('writes a commit as one batch of its database', async () => {
    const db = new BTreeLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' });
    await db.open();
    const app = await HubApp.open(db.sublevel('app', { keyEncoding: 'utf8', valueEncoding: 'view' }) as never);
    const writes: number[] = [];
    db.on('write', (ops: unknown[]) => writes.push(ops.length));
    const hub = {
      denom: 'uhub',
      displayDenom: 'HUB',
      decimals: 6,
      bech32Prefix: 'hub',
      minGasPrice: '0',
      accounts: [{ address: 'hub1a53udazy8ayufvy0s434pfwjcedzqv34tv0y8f', amount: '5' }],
    };
    await app.initChain({
      time: { seconds: 0, nanos: 0 },
      chainId: 'hub-test-1',
      consensusParams: undefined as never,
      validators: [],
      appStateBytes: new TextEncoder().encode(JSON.stringify({ hub })),
      initialHeight: 1,
    });
    expect(writes).toHaveLength(1);
    await app.finalizeBlock({ txs: [], height: 1, time: { seconds: 1, nanos: 0 } } as never);
    await app.commit();
    // Accounts, IBC, auth and meta of a block: one write, not one per store.
    expect(writes).toHaveLength(2);
    await db.close();
  });
});

describe('the kvstore chain on a home', () => {
  it('resumes at its height with its keys', async () => {
    const home = newHome();
    let kv = await startKvStoreChain({ kind: 'kvstore', home, config: { ...PORT0, consensus: { mode: 'manual' } } });
    expect((await kv.broadcastTx(new TextEncoder().encode('colour=blue'))).code).toBe(0);
    await kv.mine(1);
    const height = kv.height;
    await kv.stop();
    kv = await startKvStoreChain({ kind: 'kvstore', home, config: { ...PORT0, consensus: { mode: 'manual' } } });
    try {
      expect(kv.height).toBe(height);
      const res = await kv.app.query({ data: new TextEncoder().encode('colour'), path: '', height: 0, prove: false });
      expect(new TextDecoder().decode(res.value ?? new Uint8Array())).toBe('blue');
    } finally {
      await kv.stop();
    }
  });
});

/** The moniker a chain's CometBFT RPC reports (`[moniker]` of its config). */
async function moniker(rpc: string): Promise<string> {
  const res = (await (await fetch(`${rpc}/status`)).json()) as { result: { node_info: { moniker: string } } };
  return res.result.node_info.moniker;
}

describe("a chain's config.toml on a home, started from code", () => {
  it("the hub reads <home>/hub/config/config.toml; the spec's config wins over it", async () => {
    const home = newHome();
    initChainConfig(
      home,
      'hub',
      HUB_CONFIG_TOML.replace('moniker = "chainlet"', 'moniker = "hub-from-file"')
        // Port 1 (refused by browsers): the spec's address must win, or the start fails.
        .replace('tcp://127.0.0.1:26757', 'tcp://127.0.0.1:1')
        .replace('mode = "automine"', 'mode = "interval"')
        .replace('timeout_commit = "1s"', 'timeout_commit = "20ms"')
        .concat('\n[instrumentation]\nprometheus = true\nprometheus_listen_addr = "127.0.0.1:0"\n'),
    );
    // The network's metrics are on when a chain's config (its home's file included) turns them on.
    expect(hubKind.instrumentation!({ kind: 'hub', home })).toMatchObject({ prometheus: true, prometheusListenAddr: '127.0.0.1:0' });
    expect(hubKind.instrumentation!({ kind: 'hub', home, config: { instrumentation: { prometheus: false } } })).toBeUndefined();

    let hub = await startHubChain({ kind: 'hub', home, config: PORT0 });
    try {
      expect(new URL(hub.urls.rpc!).port).not.toBe('1');
      expect(await moniker(hub.urls.rpc!)).toBe('hub-from-file');
      // The file's interval mode: blocks come with no tx sent (automine, the default, makes none).
      const from = hub.height;
      while (hub.height < from + 3) await new Promise((r) => setTimeout(r, 10));
      // Its own Prometheus endpoint (a standalone chain), from the file's [instrumentation].
      expect(hub.urls.metrics).toBeDefined();
    } finally {
      await hub.stop();
    }

    hub = await startHubChain({ kind: 'hub', home, config: { ...PORT0, moniker: 'hub-from-code', instrumentation: { prometheus: false } } });
    try {
      expect(await moniker(hub.urls.rpc!)).toBe('hub-from-code');
      expect(hub.urls.metrics).toBeUndefined();
    } finally {
      await hub.stop();
    }
  });

  it('the kvstore reads <home>/kvstore/config/config.toml; the spec config wins over it', async () => {
    const home = newHome();
    initChainConfig(home, 'kvstore', 'moniker = "kv-from-file"\n[rpc]\nladdr = "tcp://127.0.0.1:1"\n[instrumentation]\nprometheus = true\n');
    expect(kvstoreKind.instrumentation!({ kind: 'kvstore', home })).toMatchObject({ prometheus: true });
    const kv = await startKvStoreChain({ kind: 'kvstore', home, config: { ...PORT0, consensus: { mode: 'manual' }, instrumentation: { prometheus: false } } });
    try {
      expect(new URL(kv.urls.rpc!).port).not.toBe('1');
      expect(await moniker(kv.urls.rpc!)).toBe('kv-from-file');
      expect(kv.urls.metrics).toBeUndefined();
    } finally {
      await kv.stop();
    }
  });
});
