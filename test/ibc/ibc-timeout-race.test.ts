/**
 * A transfer with a short timeout whose receive is still pending when its timeout comes: the relayer
 * sent the receive, gave it up after its inclusion timeout, and the receive waits in the EVM chain's
 * mempool (automine off). Whatever lands first, exactly one of the refund on the hub or the voucher
 * mint on the EVM chain happens, never both: the hub's escrow always equals the voucher's supply.
 */
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { QueryClient, setupBankExtension, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBech32 } from '../../src/crypto/bech32.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { denomHashHex, escrowAddress } from '../../src/ibc/keys.js';
import type { HubChain } from '../../src/chains/hub/start.js';
import type { Network } from '../../src/network/network.js';
import { timestampToNs } from '../../src/types/time.js';
import { startEvmHubNetwork } from '../helpers/ibc-network.js';

const VOUCHER = `ibc/${denomHashHex('transfer/channel-0/uhub')}`;
let net: Network;
let hub: HubChain;

beforeAll(async () => {
  ({ network: net, hub } = await startEvmHubNetwork([], { inclusionTimeoutMs: 300 }));
});
afterAll(async () => {
  await net?.stop();
});

const rpc = async (method: string, params: unknown[] = []) =>
  (await (
    await fetch(net.evm!.urls.jsonRpc!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
  ).json()) as { result?: unknown; error?: unknown };

async function state(sender: string, receiver: string) {
  const h = await StargateClient.connect(hub.urls.rpc!);
  const tm = await Comet38Client.connect(net.evm!.urls.rpc!);
  const bank = QueryClient.withExtensions(tm, setupBankExtension).bank;
  const out = {
    sender: BigInt((await h.getBalance(sender, 'uhub')).amount),
    escrow: BigInt((await h.getBalance(toBech32('hub', escrowAddress('transfer', 'channel-0')), 'uhub')).amount),
    voucher: BigInt((await bank.balance(receiver, VOUCHER)).amount),
    supply: BigInt((await bank.supplyOf(VOUCHER)).amount),
  };
  h.disconnect();
  tm.disconnect();
  return out;
}

/** Sends `amount` uhub to the EVM chain with the relayer paused, then has the relayer try the receive: it waits in the mempool. */
async function sendWithPendingReceive(amount: bigint, timeout: { height?: bigint; timestampNs?: bigint }): Promise<{ sender: string; receiver: string }> {
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
  const [from] = await wallet.getAccounts();
  const client = await SigningStargateClient.connectWithSigner(hub.urls.rpc!, wallet, { broadcastPollIntervalMs: 50 });
  const receiver = toBech32(net.evm!.internals.app.evm.bech32Prefix, Buffer.from(net.evm!.accounts[4]!.address.slice(2), 'hex'));
  expect((await rpc('evm_setAutomine', [false])).error).toBeUndefined();
  net.relayer!.pause();
  const timeoutHeight = timeout.height !== undefined ? { revisionNumber: 9000n, revisionHeight: timeout.height } : undefined;
  const timeoutSeconds = timeout.timestampNs !== undefined ? Number(timeout.timestampNs / 1_000_000_000n) : undefined;
  const r = await client.sendIbcTokens(
    from!.address,
    receiver,
    { denom: 'uhub', amount: amount.toString() },
    'transfer',
    'channel-0',
    timeoutHeight,
    timeoutSeconds,
    { amount: [], gas: '300000' },
  );
  expect(r.code).toBe(0);
  client.disconnect();
  const mempool = net.evm!.internals.mempool;
  const before = mempool.size();
  await net.relayer!.flush(); // the receive is sent, not in a block after 300 ms: given up (logged), still pending
  expect(mempool.size()).toBe(before + 1);
  expect(net.relayer!.status().pending).toEqual([expect.objectContaining({ fromChainId: hub.chainId, stage: 'receive' })]);
  return { sender: from!.address, receiver };
}

async function relayToTheEnd(): Promise<void> {
  expect((await rpc('evm_setAutomine', [true])).error).toBeUndefined();
  net.relayer!.resume();
  await net.evm!.mine(1);
  await net.relayer!.idle();
  await net.relayer!.flush();
  await net.relayer!.idle();
  expect(net.relayer!.status().pending).toEqual([]);
}

describe('a receive pending in the mempool past the packet timeout', () => {
  it('lands before the timeout height: minted once, never refunded', async () => {
    const t0 = await state(hub.devAddresses[0]!, toBech32(net.evm!.internals.app.evm.bech32Prefix, Buffer.from(net.evm!.accounts[4]!.address.slice(2), 'hex')));
    const { sender, receiver } = await sendWithPendingReceive(1000n, { height: BigInt(net.evm!.height + 3) });
    const sent = await state(sender, receiver);
    expect(sent.sender).toBe(t0.sender - 1000n);
    await net.evm!.mine(4); // the pending receive lands in the first of them, below the timeout height; then past it
    await relayToTheEnd();
    const end = await state(sender, receiver);
    expect(end.voucher - sent.voucher).toBe(1000n);
    expect(end.sender).toBe(sent.sender);
    expect(end.escrow).toBe(end.supply);
  });

  it('lands past the timeout timestamp: refused there, refunded once on the hub, never minted', async () => {
    const latest = (await net.evm!.internals.blockStore.loadBlockMeta(net.evm!.height))!.header.time;
    // cosmjs takes the timeout in whole seconds: one to two seconds after the EVM chain's latest block.
    const timeoutNs = (timestampToNs(latest) / 1_000_000_000n + 2n) * 1_000_000_000n;
    const { sender, receiver } = await sendWithPendingReceive(2000n, { timestampNs: timeoutNs });
    const sent = await state(sender, receiver);
    // Until the clock passes the timeout (the chains share it): the EVM chain's next block is then past it.
    while (BigInt(Date.now()) * 1_000_000n <= timeoutNs) await new Promise((res) => setTimeout(res, 50));
    const [h] = await net.evm!.mine(1); // the pending receive lands here and fails: timeout elapsed
    expect(timestampToNs((await net.evm!.internals.blockStore.loadBlockMeta(h!))!.header.time)).toBeGreaterThanOrEqual(timeoutNs);
    await relayToTheEnd();
    const end = await state(sender, receiver);
    expect(end.voucher).toBe(sent.voucher);
    expect(end.sender).toBe(sent.sender + 2000n);
    // Never both: the escrow on the hub is the voucher supply on the EVM chain (the first transfer's).
    expect(end.escrow).toBe(end.supply);
    expect(end.supply).toBe(1000n);
  });
});
