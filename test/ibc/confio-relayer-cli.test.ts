/**
 * The docs walk-through (docs/ibc-relayer.md) with `@confio/relayer`'s own commands: a relayer home
 * holding a `registry.yaml` for the EVM chain and the hub and an `app.yaml` (the dev mnemonic, key
 * m/44'/118'/0'/0/9 on both chains), `ibc-setup ics20` creating clients, a connection and a
 * `transfer` channel, then `ibc-relayer start --once` relaying a hub → EVM transfer and its
 * acknowledgement. The chains make blocks while idle (interval mode), as the walk-through starts them.
 */
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, QueryClient, setupIbcExtension, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeConfig } from '../../src/config/defaults.js';
import { toBech32 } from '../../src/crypto/bech32.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { denomHashHex } from '../../src/ibc/keys.js';
import { startNetwork, type Network, type NetworkChain } from '../../src/network/network.js';
import { killAll, spawnCli } from '../helpers/cli.js';
import { FAST_CONSENSUS, TEST_PORTS } from '../helpers/node.js';

const BIN = (name: string) => fileURLToPath(new URL(`../../node_modules/@confio/relayer/build/binary/${name}/index.js`, import.meta.url));
/** The walk-through's relayer key: the dev mnemonic on the Cosmos path 9, on both chains (its EVM-face address is funded by the test). */
const HD_PATH = "m/44'/118'/0'/0/9";
const RELAYER_EVM_HEX = '0x49eb85445797dad8251a9d485ab15a7b28469ecb';
const BLOCK_MS = 200;

let network: Network;
let hub: Extract<NetworkChain, { kind: 'hub' }>;
let home: string;

beforeAll(async () => {
  const interval = { consensus: { mode: 'interval', timeoutCommitMs: BLOCK_MS } };
  network = await startNetwork({
    chains: [
      { kind: 'evm', config: mergeConfig(mergeConfig(TEST_PORTS as never, FAST_CONSENSUS as never), interval as never) as never },
      { kind: 'hub', config: { rpc: { laddr: 'tcp://127.0.0.1:0' } }, consensus: { mode: 'interval', timeoutCommitMs: BLOCK_MS } },
    ],
  });
  hub = network.chains.find((c): c is typeof hub => c.kind === 'hub')!;
  home = mkdtempSync(join(tmpdir(), 'chainlet-ibc-setup-'));
}, 60_000);
afterAll(async () => {
  await killAll();
  await network?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

async function evmRpc<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch(network.evm!.urls.jsonRpc!, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** Runs one of the relayer's commands to its end; resolves with its stdout, rejects with its output on a non-zero exit. */
async function run(bin: string, args: string[]): Promise<string> {
  const p = spawnCli(args, { bin });
  const code = await new Promise<number | null>((resolve) => p.child.once('exit', resolve));
  if (code !== 0) throw new Error(`${bin} ${args.join(' ')} exited ${code}\n${p.err()}\n${p.out()}`);
  return p.out();
}

describe('@confio/relayer commands (ibc-setup, ibc-relayer) with a registry for the EVM chain and the hub', () => {
  let evmChannel = '';
  let hubChannel = '';

  it('ibc-setup ics20 creates clients, a connection and a transfer channel', async () => {
    const evm = network.evm!;
    const evmDenom = evm.internals.app.evm.denom;
    const evmPrefix = evm.internals.app.evm.bech32Prefix;
    writeFileSync(
      join(home, 'registry.yaml'),
      [
        'version: 1',
        'chains:',
        '  chainlet:',
        `    chain_id: ${evm.chainId}`,
        `    prefix: ${evmPrefix}`,
        `    gas_price: 2000000000${evmDenom}`,
        `    hd_path: "${HD_PATH}"`,
        `    rpc: ["${evm.urls.rpc!}"]`,
        `    estimated_block_time: ${BLOCK_MS}`,
        `    estimated_indexer_time: ${BLOCK_MS / 2}`,
        '  chainlethub:',
        '    chain_id: chainlethub-1',
        '    prefix: hub',
        '    gas_price: 0uhub',
        `    hd_path: "${HD_PATH}"`,
        `    rpc: ["${hub.urls.rpc!}"]`,
        `    estimated_block_time: ${BLOCK_MS}`,
        `    estimated_indexer_time: ${BLOCK_MS / 2}`,
        '',
      ].join('\n'),
    );
    writeFileSync(join(home, 'app.yaml'), `src: chainlet\ndest: chainlethub\nmnemonic: ${DEV_MNEMONIC}\n`);

    // Fund the key's EVM-face address from the first dev account, as the walk-through does (the hub
    // funds m/44'/118'/0'/0/9 at genesis).
    const hash = await evmRpc<string>('eth_sendTransaction', [{ from: evm.accounts[0]!.address, to: RELAYER_EVM_HEX, value: '0x8ac7230489e80000' }]);
    while ((await evmRpc<unknown>('eth_getTransactionReceipt', [hash])) === null) await new Promise((r) => setTimeout(r, BLOCK_MS / 2));
    const balances = await run(BIN('ibc-setup'), ['balances', '--home', home]);
    expect(balances).toContain('10000000000000000000achainlet');
    expect(balances).toMatch(/chainlethub\s+\d+uhub/);

    const out = await run(BIN('ibc-setup'), ['ics20', '--home', home]);
    // Created channel:
    //   chainlet_9000-1: transfer/channel-1 (connection-1)
    //   chainlethub-1: transfer/channel-1 (connection-1)
    const m = [...out.matchAll(/^\s+(\S+): transfer\/(channel-\d+) \((connection-\d+)\)$/gm)];
    expect(m).toHaveLength(2);
    evmChannel = m[0]![2]!;
    hubChannel = m[1]![2]!;
    // The network's own relayer holds channel-0 and connection-0: the walk-through's output.
    expect(m.map((x) => [x[1], x[2], x[3]])).toEqual([
      [network.evm!.chainId, 'channel-1', 'connection-1'],
      ['chainlethub-1', 'channel-1', 'connection-1'],
    ]);
  }, 240_000);

  it('ibc-relayer start --once relays a hub → EVM transfer and its acknowledgement', async () => {
    expect(hubChannel, 'the channel was not created').not.toBe('');
    const evmPrefix = network.evm!.internals.app.evm.bech32Prefix;
    const receiver = toBech32(evmPrefix, Buffer.from(network.evm!.accounts[4]!.address.slice(2), 'hex'));
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
    const [from] = await wallet.getAccounts();
    const h = await SigningStargateClient.connectWithSigner(hub.urls.rpc!, wallet, { gasPrice: GasPrice.fromString('0uhub'), broadcastPollIntervalMs: 50 });
    const sent = await h.sendIbcTokens(
      from!.address,
      receiver,
      { denom: 'uhub', amount: '4321' },
      'transfer',
      hubChannel,
      undefined,
      Math.floor(Date.now() / 1000) + 600,
      'auto',
    );
    expect(sent.code).toBe(0);
    h.disconnect();

    await run(BIN('ibc-relayer'), ['start', '--home', home, '--once', '--scan-from-src', '1', '--scan-from-dest', '1']);
    const q = await StargateClient.connect(network.evm!.urls.rpc!);
    expect((await q.getBalance(receiver, `ibc/${denomHashHex(`transfer/${evmChannel}/uhub`)}`)).amount).toBe('4321');
    q.disconnect();
    // The acknowledgement went back: the hub's packet commitment is gone.
    const tm = await Comet38Client.connect(hub.urls.rpc!);
    const ibc = QueryClient.withExtensions(tm, setupIbcExtension);
    expect((await ibc.ibc.channel.packetCommitments('transfer', hubChannel)).commitments).toHaveLength(0);
    tm.disconnect();
  }, 240_000);
});
