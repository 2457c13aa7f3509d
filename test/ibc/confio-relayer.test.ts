/**
 * A real relayer relays it: `@confio/relayer` 0.12 (ts-relayer, from npm, unchanged, on its own
 * cosmjs 0.32) creates new clients, a connection and an ICS-20 channel between the EVM chain and
 * the hub, relays a transfer each way with its acknowledgement, and times a packet out (a refund).
 * Its keys are plain `secp256k1` on both chains; fee "auto" is its simulated gas × 1.4 (cosmjs'
 * default). Both chains make blocks while idle (interval mode, as a CometBFT node with
 * `create_empty_blocks`): the relayer's `waitOneBlock` polls the height until it moves.
 *
 * The handshake and packet steps carry ICS-23 proofs the relayer reads with `abci_query` on
 * `/store/ibc/key` (`prove: true`), checks against the next header's app hash before sending, and
 * the chains verify (the provable stores of issue 38 points 1–2): this test fails at the first
 * proof if either side is wrong.
 */
// The relayer's own cosmjs 0.32 (nested under it) signs for it; its library is imported file by file:
// the package index also loads its test helpers, which need sinon (not one of its dependencies).
import { DirectSecp256k1HdWallet as DirectSecp256k1HdWallet032 } from '@confio/relayer/node_modules/@cosmjs/proto-signing/build/index.js';
import { GasPrice as GasPrice032 } from '@confio/relayer/node_modules/@cosmjs/stargate/build/index.js';
import { buildCreateClientArgs, IbcClient } from '@confio/relayer/build/lib/ibcclient.js';
import { Link } from '@confio/relayer/build/lib/link.js';
import type { Logger } from '@confio/relayer/build/lib/logger.js';
import { DirectEthSecp256k1HdWallet, DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { QueryChannelRequest, QueryChannelResponse } from 'cosmjs-types/ibc/core/channel/v1/query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeConfig } from '../../src/config/defaults.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { denomHashHex } from '../../src/ibc/keys.js';
import { startNetwork, type Network, type NetworkChain } from '../../src/network/network.js';
import { FAST_CONSENSUS, TEST_PORTS } from '../helpers/node.js';

/** The relayer's own key: not a dev account of either chain (funded by the test). */
const RELAYER_MNEMONIC =
  'bottom loan skill merry east cradle onion journey palm apology verb edit desert impose absurd oil bubble sweet glove shallow size build burst effort';
/** Interval blocks on both chains (ms): idle chains still make blocks, so `waitOneBlock` returns. */
const BLOCK_MS = 100;
const ORDER_UNORDERED = 1;

let network: Network;
let hub: Extract<NetworkChain, { kind: 'hub' }>;
let evmDenom: string;
let evmPrefix: string;
const log: string[] = [];

/** The relayer's log, kept for the failure message (its warnings name the step that failed). */
const logger: Logger = (() => {
  const at =
    (level: string) =>
    (message: string, meta?: Record<string, unknown>): Logger => {
      log.push(`${level} ${message}${meta ? ` ${JSON.stringify(meta, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}` : ''}`);
      return logger;
    };
  return { error: at('error'), warn: at('warn'), info: at('info'), verbose: at('verbose'), debug: at('debug') };
})();

beforeAll(async () => {
  const interval = { consensus: { mode: 'interval', timeoutCommitMs: BLOCK_MS } };
  network = await startNetwork({
    chains: [
      { kind: 'evm', config: mergeConfig(mergeConfig(TEST_PORTS as never, FAST_CONSENSUS as never), interval as never) as never },
      { kind: 'hub', config: { rpc: { laddr: 'tcp://127.0.0.1:0' } }, consensus: { mode: 'interval', timeoutCommitMs: BLOCK_MS } },
    ],
  });
  hub = network.chains.find((c): c is typeof hub => c.kind === 'hub')!;
  evmDenom = network.evm!.internals.app.evm.denom;
  evmPrefix = network.evm!.internals.app.evm.bech32Prefix;
}, 60_000);
afterAll(async () => {
  await network?.stop();
});

async function relayerOn(rpc: string, prefix: string, gasPrice: string): Promise<IbcClient> {
  const wallet = await DirectSecp256k1HdWallet032.fromMnemonic(RELAYER_MNEMONIC, { prefix });
  const [account] = await wallet.getAccounts();
  return IbcClient.connectWithSigner(rpc, wallet, account!.address, {
    gasPrice: GasPrice032.fromString(gasPrice),
    estimatedBlockTime: BLOCK_MS,
    estimatedIndexerTime: BLOCK_MS / 2,
    // cosmjs polls for a broadcast tx's inclusion every 3 s by default: one block here is 100 ms.
    broadcastPollIntervalMs: BLOCK_MS,
    logger,
  });
}

/** Funds the relayer's address on both chains from the dev accounts (stock cosmjs 0.39). */
async function fund(evmRelayer: string, hubRelayer: string): Promise<void> {
  const evmWallet = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: evmPrefix });
  const [evmFrom] = await evmWallet.getAccounts();
  const evm = await SigningStargateClient.connectWithSigner(network.evm!.urls.rpc!, evmWallet, {
    gasPrice: GasPrice.fromString(`2000000000${evmDenom}`),
    broadcastPollIntervalMs: 50,
  });
  expect((await evm.sendTokens(evmFrom!.address, evmRelayer, [{ denom: evmDenom, amount: (10n ** 19n).toString() }], 'auto')).code).toBe(0);
  evm.disconnect();
  const hubWallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
  const [hubFrom] = await hubWallet.getAccounts();
  const h = await SigningStargateClient.connectWithSigner(hub.urls.rpc!, hubWallet, { gasPrice: GasPrice.fromString('0uhub'), broadcastPollIntervalMs: 50 });
  expect((await h.sendTokens(hubFrom!.address, hubRelayer, [{ denom: 'uhub', amount: '10000000000' }], 'auto')).code).toBe(0);
  h.disconnect();
}

async function balance(rpc: string, address: string, denom: string): Promise<bigint> {
  const c = await StargateClient.connect(rpc);
  try {
    return BigInt((await c.getBalance(address, denom)).amount);
  } finally {
    c.disconnect();
  }
}

describe('@confio/relayer 0.12 between the EVM chain and the hub', () => {
  let evm: IbcClient;
  let hubClient: IbcClient;
  let link: Link;
  let channel: { evm: string; hub: string };

  it('signs with plain secp256k1 keys on both chains: funded, its accounts answer cosmjs 0.32', async () => {
    evm = await relayerOn(network.evm!.urls.rpc!, evmPrefix, `2000000000${evmDenom}`);
    hubClient = await relayerOn(hub.urls.rpc!, 'hub', '0uhub');
    await fund(evm.senderAddress, hubClient.senderAddress);
    // cosmjs 0.32 parses the account (BaseAccount) and sends with fee "auto" (simulate × 1.4): a plain
    // secp256k1 signer on the EVM chain, whose address is ripemd160(sha256(key)).
    const r = await evm.sendTokens(evm.senderAddress, [{ denom: evmDenom, amount: '1' }]);
    expect(r.transactionHash).toMatch(/^[0-9A-F]{64}$/);
    const acc = await evm.query.auth.account(evm.senderAddress);
    expect(acc?.typeUrl).toBe('/cosmos.auth.v1beta1.BaseAccount');
    expect(await evm.sign.getSequence(evm.senderAddress)).toMatchObject({ sequence: 1 });
  }, 60_000);

  it('creates a client of the hub on the EVM chain and updates it with fee "auto" (Simulate runs at the last block’s time)', async () => {
    const args = await buildCreateClientArgs(hubClient, 3600);
    const { clientId } = await evm.createTendermintClient(args.clientState, args.consensusState);
    await hubClient.waitOneBlock();
    // Simulated at time 0 before, the header was "from the future" and the update failed.
    const h = await evm.doUpdateClient(clientId, hubClient);
    expect(h.revisionHeight).toBeGreaterThan(args.clientState.latestHeight!.revisionHeight);
    expect((await evm.query.ibc.client.stateTm(clientId)).latestHeight?.revisionHeight).toBe(h.revisionHeight);
  }, 60_000);

  it('creates new clients, a connection and an ICS-20 channel, every step proven', async () => {
    try {
      link = await Link.createWithNewConnections(evm, hubClient, logger);
      const pair = await link.createChannel('A', 'transfer', 'transfer', ORDER_UNORDERED, 'ics20-1');
      channel = { evm: pair.src.channelId, hub: pair.dest.channelId };
    } catch (e) {
      throw new Error(`${(e as Error).message}\n--- relayer log (last 30) ---\n${log.slice(-30).join('\n')}`);
    }
    expect(channel.evm).toMatch(/^channel-\d+$/);
    expect((await evm.query.ibc.channel.channel('transfer', channel.evm)).channel?.state).toBe(3);
    expect((await hubClient.query.ibc.channel.channel('transfer', channel.hub)).channel?.state).toBe(3);
  }, 120_000);

  it('answers the IBC queries at the height asked: the channel is not found before its ChannelOpenTry, found at it', async () => {
    expect(link, 'the channel was not opened').toBeDefined();
    const [tryTx] = await hubClient.sign.searchTx(`channel_open_try.channel_id='${channel.hub}'`);
    const at = async (height: number) =>
      hubClient.tm.abciQuery({
        path: '/ibc.core.channel.v1.Query/Channel',
        data: QueryChannelRequest.encode({ portId: 'transfer', channelId: channel.hub }).finish(),
        height,
      });
    const before = await at(tryTx!.height - 1);
    expect(before.code).toBe(22);
    expect(before.log).toContain('channel not found');
    const then = await at(tryTx!.height);
    expect(then.code).toBe(0);
    const r = QueryChannelResponse.decode(then.value);
    expect(r.channel?.state).toBe(2); // TRYOPEN at that height (OPEN now)
    expect(r.proofHeight).toEqual({ revisionNumber: 1n, revisionHeight: BigInt(tryTx!.height) });
  }, 60_000);

  it('relays a transfer hub → EVM chain and its acknowledgement back', async () => {
    expect(link, 'the channel was not opened').toBeDefined();
    const before = await balance(network.evm!.urls.rpc!, evm.senderAddress, `ibc/${denomHashHex(`transfer/${channel.evm}/uhub`)}`);
    const timeout = Math.floor(Date.now() / 1000) + 600;
    await hubClient.transferTokens('transfer', channel.hub, { denom: 'uhub', amount: '1234' }, evm.senderAddress, undefined, timeout);
    const info = await link.relayAll();
    expect(info.packetsFromB).toBe(1);
    expect(info.acksFromA).toHaveLength(1);
    const voucher = `ibc/${denomHashHex(`transfer/${channel.evm}/uhub`)}`;
    expect(await balance(network.evm!.urls.rpc!, evm.senderAddress, voucher)).toBe(before + 1234n);
    // The ack went back: no commitment left on the hub.
    expect((await hubClient.query.ibc.channel.packetCommitments('transfer', channel.hub)).commitments).toHaveLength(0);
  }, 120_000);

  it('relays a transfer EVM chain → hub and its acknowledgement back', async () => {
    expect(link, 'the channel was not opened').toBeDefined();
    const voucher = `ibc/${denomHashHex(`transfer/${channel.hub}/${evmDenom}`)}`;
    const before = await balance(hub.urls.rpc!, hubClient.senderAddress, voucher);
    await evm.transferTokens(
      'transfer',
      channel.evm,
      { denom: evmDenom, amount: '5000' },
      hubClient.senderAddress,
      undefined,
      Math.floor(Date.now() / 1000) + 600,
    );
    const info = await link.relayAll();
    expect(info.packetsFromA).toBe(1);
    expect(info.acksFromB).toHaveLength(1);
    expect(await balance(hub.urls.rpc!, hubClient.senderAddress, voucher)).toBe(before + 5000n);
    expect((await evm.query.ibc.channel.packetCommitments('transfer', channel.evm)).commitments).toHaveLength(0);
  }, 120_000);

  it('times a packet out: the hub refunds the sender, the EVM chain never receives it', async () => {
    expect(link, 'the channel was not opened').toBeDefined();
    const start = await balance(hub.urls.rpc!, hubClient.senderAddress, 'uhub');
    // A timeout height just above the EVM chain's current height: passed once it makes two more blocks.
    const timeoutHeight = await evm.timeoutHeight(2);
    const sent = await hubClient.transferTokens('transfer', channel.hub, { denom: 'uhub', amount: '777' }, evm.senderAddress, timeoutHeight);
    const feeAndAmount = start - (await balance(hub.urls.rpc!, hubClient.senderAddress, 'uhub'));
    expect(feeAndAmount).toBeGreaterThanOrEqual(777n);
    while ((await evm.currentHeight()) <= Number(timeoutHeight.revisionHeight)) await evm.waitOneBlock();
    await link.updateClient('A');
    await link.relayAll();
    // Refunded: back to what it had before the transfer (the hub's fee is 0uhub).
    expect(await balance(hub.urls.rpc!, hubClient.senderAddress, 'uhub')).toBe(start);
    expect((await hubClient.query.ibc.channel.packetCommitments('transfer', channel.hub)).commitments).toHaveLength(0);
    const seq = sent.events.find((e) => e.type === 'send_packet')!.attributes.find((a) => a.key === 'packet_sequence')!.value;
    expect((await evm.query.ibc.channel.packetReceipt('transfer', channel.evm, Number(seq))).received).toBe(false);
  }, 120_000);

  it('every relayer tx ran within its simulated gas (fee "auto" is simulated × 1.4: × 1.0 is enough)', async () => {
    for (const c of [evm, hubClient]) {
      const txs = await c.sign.searchTx(`message.sender='${c.senderAddress}'`);
      expect(txs.length).toBeGreaterThan(0);
      for (const tx of txs) {
        expect(tx.code, tx.rawLog).toBe(0);
        // gasWanted = round(simulated × 1.4), so simulated ≥ gasWanted / 1.4 − 1.
        expect(BigInt(tx.gasUsed) * 14n).toBeLessThanOrEqual((BigInt(tx.gasWanted) + 1n) * 10n);
      }
    }
  }, 60_000);
});
