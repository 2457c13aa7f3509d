/**
 * `/v2/tx/status` follows an IBC transfer over HTTP: a MsgTransfer signed with cosmjs and submitted
 * through the routing API moves STATE_PENDING (send_tx) → TRANSFER_RECEIVED (receive_tx on the EVM
 * chain, the voucher released) → STATE_COMPLETED_SUCCESS (acknowledge_tx), the relayer driven by
 * hand; a timeout ends in STATE_COMPLETED_ERROR with a timeout_tx and the refund released.
 */
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { SigningStargateClient } from '@cosmjs/stargate';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBech32 } from '../../src/crypto/bech32.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { transferMsg } from '../helpers/cosmos-signing.js';
import { denomHashHex } from '../../src/ibc/keys.js';
import type { HubChain } from '../../src/chains/hub/start.js';
import type { Network } from '../../src/network/network.js';
import { startEvmHubNetwork } from '../helpers/ibc-network.js';

let network: Network;
let hub: HubChain;
let url: string;

beforeAll(async () => {
  ({ network, hub } = await startEvmHubNetwork());
  url = network.urls.routing!;
});
afterAll(async () => {
  await network?.stop();
});

type Status = {
  state: string;
  status: string;
  transfers: any[];
  transfer_sequence: any[];
  next_blocking_transfer: unknown;
  transfer_asset_release: any;
  error: any;
};

async function status(txHash: string): Promise<Status> {
  return (await (await fetch(`${url}/v2/tx/status?chain_id=${hub.chainId}&tx_hash=${txHash}`)).json()) as Status;
}

async function until(txHash: string, pred: (s: Status) => boolean): Promise<Status> {
  for (let i = 0; i < 300; i++) {
    const s = await status(txHash);
    if (pred(s)) return s;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`status never matched: ${JSON.stringify(await status(txHash))}`);
}

async function submitTransfer(receiver: string, amount: string, timeout: { height?: bigint; timestampNs?: bigint }): Promise<string> {
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
  const [from] = await wallet.getAccounts();
  const client = await SigningStargateClient.connectWithSigner(hub.urls.rpc!, wallet);
  const msg = transferMsg({
    sender: from!.address,
    receiver,
    amount,
    timeoutHeight: { revisionNumber: 9000n, revisionHeight: timeout.height ?? 0n },
    timeoutTimestampNs: timeout.timestampNs ?? 0n,
  });
  const signed = await client.sign(from!.address, [msg], { amount: [], gas: '300000' }, '');
  client.disconnect();
  const res = await fetch(`${url}/v2/tx/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chain_id: hub.chainId, tx: Buffer.from(TxRaw.encode(signed).finish()).toString('base64') }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { tx_hash: string }).tx_hash;
}

describe('/v2/tx/status of an IBC transfer', () => {
  it('follows send → receive → acknowledge', async () => {
    const evm = network.evm!;
    const receiver = toBech32(evm.internals.app.evm.bech32Prefix, Buffer.from(evm.accounts[5]!.address.slice(2), 'hex'));
    network.relayer!.pause();
    try {
      const hash = await submitTransfer(receiver, '31415', { timestampNs: BigInt(Date.now() + 600_000) * 1_000_000n });
      const pending = await until(hash, (s) => s.state === 'STATE_PENDING');
      expect(pending.transfers).toHaveLength(1);
      const t0 = pending.transfers[0].transfer_sequence[0].ibc_transfer;
      expect(t0).toMatchObject({
        from_chain_id: hub.chainId,
        to_chain_id: evm.chainId,
        src_chain_id: hub.chainId,
        dst_chain_id: evm.chainId,
        state: 'TRANSFER_PENDING',
      });
      expect(t0.packet_txs).toMatchObject({
        send_tx: { chain_id: hub.chainId, tx_hash: hash, explorer_link: `${url}/explorer/tx/${hash}` },
        receive_tx: null,
        acknowledge_tx: null,
        timeout_tx: null,
        error: null,
      });
      expect(t0.packet_txs.send_tx.on_chain_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(pending.next_blocking_transfer).toEqual({ transfer_sequence_index: 0 });
      expect(pending.transfer_sequence).toEqual(pending.transfers[0].transfer_sequence);

      await network.relayer!.flush(); // the receive on the EVM chain
      const received = await until(hash, (s) => s.transfers[0]?.transfer_sequence[0].ibc_transfer.state === 'TRANSFER_RECEIVED');
      expect(received.state).toBe('STATE_PENDING');
      expect(received.transfers[0].transfer_sequence[0].ibc_transfer.packet_txs.receive_tx).toMatchObject({ chain_id: evm.chainId });
      expect(received.transfer_asset_release).toMatchObject({ chain_id: evm.chainId, denom: `ibc/${denomHashHex('transfer/channel-0/uhub')}`, released: true });

      await network.relayer!.flush(); // the acknowledgement back on the hub
      // Still paused: chainlet_relayerStatus no longer lists the packet whose ack was delivered.
      const rpc = await fetch(evm.urls.jsonRpc!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'chainlet_relayerStatus', params: [] }),
      });
      expect(((await rpc.json()) as { result: unknown }).result).toMatchObject({ paused: true, pending: [] });
      const done = await until(hash, (s) => s.state === 'STATE_COMPLETED_SUCCESS');
      expect(done.status).toBe('STATE_COMPLETED');
      expect(done.transfers[0].transfer_sequence[0].ibc_transfer.state).toBe('TRANSFER_SUCCESS');
      expect(done.transfers[0].transfer_sequence[0].ibc_transfer.packet_txs.acknowledge_tx).toMatchObject({ chain_id: hub.chainId });
      expect(done.next_blocking_transfer).toBeNull();
      expect(done.error).toBeNull();
      // The voucher in /v2/info/balances, with its origin's 6 decimals.
      const voucher = `ibc/${denomHashHex('transfer/channel-0/uhub')}`;
      const bal = (await (
        await fetch(`${url}/v2/info/balances`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            chains: { [evm.chainId]: { address: receiver, denoms: [voucher, 'ibc/0000000000000000000000000000000000000000000000000000000000000000'] } },
          }),
        })
      ).json()) as any;
      expect(bal.chains[evm.chainId].denoms[voucher]).toMatchObject({ amount: '31415', decimals: 6, formatted_amount: '0.031415' });
      expect(bal.chains[evm.chainId].denoms['ibc/0000000000000000000000000000000000000000000000000000000000000000'].error.message).toMatch(/unknown IBC denom/);
    } finally {
      network.relayer!.resume();
    }
  });

  it('ends a timed-out transfer in STATE_COMPLETED_ERROR with the refund released', async () => {
    const evm = network.evm!;
    const receiver = toBech32(evm.internals.app.evm.bech32Prefix, Buffer.from(evm.accounts[6]!.address.slice(2), 'hex'));
    network.relayer!.pause();
    let hash = '';
    try {
      hash = await submitTransfer(receiver, '999', { height: BigInt(evm.height + 2) });
      await until(hash, (s) => s.state === 'STATE_PENDING');
      await evm.mine(3);
      const elapsed = await until(hash, (s) => s.state === 'STATE_PENDING_ERROR');
      expect(elapsed.transfer_asset_release).toMatchObject({ chain_id: hub.chainId, denom: 'uhub', released: false });
    } finally {
      network.relayer!.resume();
    }
    const done = await until(hash, (s) => s.state === 'STATE_COMPLETED_ERROR');
    const t = done.transfers[0].transfer_sequence[0].ibc_transfer;
    expect(t.state).toBe('TRANSFER_FAILURE');
    expect(t.packet_txs.timeout_tx).toMatchObject({ chain_id: hub.chainId });
    expect(t.packet_txs.error).toMatchObject({ type: 'PACKET_ERROR_TIMEOUT' });
    expect(done.error).toMatchObject({ type: 'STATUS_ERROR_TRANSFER' });
    expect(done.transfer_asset_release).toMatchObject({ chain_id: hub.chainId, denom: 'uhub', released: true });
  });

  it("reaches STATE_COMPLETED_SUCCESS through @skip-go/client's waitForTransaction", async () => {
    const { setApiOptions, waitForTransaction } = await import('@skip-go/client');
    setApiOptions({ apiUrl: url });
    const evm = network.evm!;
    const receiver = toBech32(evm.internals.app.evm.bech32Prefix, Buffer.from(evm.accounts[7]!.address.slice(2), 'hex'));
    const hash = await submitTransfer(receiver, '2718', { timestampNs: BigInt(Date.now() + 600_000) * 1_000_000n });
    const seen: string[] = [];
    const final = await waitForTransaction({ chainId: hub.chainId, txHash: hash, onStatusUpdated: (s) => seen.push(String(s.state)) });
    expect(final.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(final.transferSequence?.[0]?.ibcTransfer?.state).toBe('TRANSFER_SUCCESS');
    expect(final.transferSequence?.[0]?.ibcTransfer?.packetTxs.acknowledgeTx?.chainId).toBe(hub.chainId);
  });
});
