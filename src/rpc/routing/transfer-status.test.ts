import { describe, expect, it } from 'vitest';
import {
  combineTransfers,
  parseAckError,
  transferStatusOf,
  type ChainTransactionJson,
  type PacketChainTx,
  type PacketLifecycle,
  type TransferStatusJson,
} from './transfer-status.js';

const SRC = 'chainlet-1';
const DST = 'chainlet-2';
const VOUCHER = 'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2';
const ACK_ERR = 'ABCI code: 5: error handling packet: see events for details';

function tx(chainId: string, txHash: string, height: number, time: string): PacketChainTx {
  return { chainId, txHash, height, time, explorerLink: `http://x/explorer/tx/${txHash}` };
}

const sendTx = tx(SRC, 'AA01', 10, '2024-05-01T00:00:01Z');
const recvTx = tx(DST, 'BB02', 20, '2024-05-01T00:00:05Z');
const ackTx = tx(SRC, 'CC03', 12, '2024-05-01T00:00:09Z');
const timeoutTx = tx(SRC, 'DD04', 30, '2024-05-01T00:10:00Z');

function json(t: PacketChainTx): ChainTransactionJson {
  return { chain_id: t.chainId, tx_hash: t.txHash, explorer_link: t.explorerLink, on_chain_at: t.time };
}

function packet(extra: Partial<PacketLifecycle> = {}): PacketLifecycle {
  return {
    srcChainId: SRC,
    dstChainId: DST,
    srcPort: 'transfer',
    srcChannel: 'channel-0',
    dstPort: 'transfer',
    dstChannel: 'channel-7',
    sequence: 3n,
    denom: 'ustake',
    amount: '1000',
    sender: 'cosmos1sender',
    receiver: 'cosmos1receiver',
    send: sendTx,
    dstDenom: VOUCHER,
    srcDenom: 'ustake',
    ...extra,
  };
}

/** The single ibc_transfer event of a transfer. */
function event(state: string, txs: Record<string, unknown>): unknown {
  return {
    ibc_transfer: {
      from_chain_id: SRC,
      to_chain_id: DST,
      src_chain_id: SRC,
      dst_chain_id: DST,
      state,
      packet_txs: { send_tx: json(sendTx), receive_tx: null, acknowledge_tx: null, timeout_tx: null, error: null, ...txs },
    },
  };
}

const srcRelease = (released: boolean) => ({ chain_id: SRC, denom: 'ustake', amount: '1000', released });
const dstRelease = { chain_id: DST, denom: VOUCHER, amount: '1000', released: true };

describe('transferStatusOf (§5.3 rows)', () => {
  it('send seen: pending on transfer 0', () => {
    expect(transferStatusOf(packet())).toEqual({
      state: 'STATE_PENDING',
      transfer_sequence: [event('TRANSFER_PENDING', {})],
      next_blocking_transfer: { transfer_sequence_index: 0 },
      transfer_asset_release: null,
      error: null,
    });
  });

  it('received with a success ack: TRANSFER_RECEIVED, funds released on the destination', () => {
    expect(transferStatusOf(packet({ receive: recvTx }))).toEqual({
      state: 'STATE_PENDING',
      transfer_sequence: [event('TRANSFER_RECEIVED', { receive_tx: json(recvTx) })],
      next_blocking_transfer: { transfer_sequence_index: 0 },
      transfer_asset_release: dstRelease,
      error: null,
    });
  });

  it('success ack acknowledged on the source: completed', () => {
    expect(transferStatusOf(packet({ receive: recvTx, acknowledge: ackTx }))).toEqual({
      state: 'STATE_COMPLETED_SUCCESS',
      transfer_sequence: [event('TRANSFER_SUCCESS', { receive_tx: json(recvTx), acknowledge_tx: json(ackTx) })],
      next_blocking_transfer: null,
      transfer_asset_release: dstRelease,
      error: null,
    });
  });

  it('error ack written on the destination: pending error, refund not yet released', () => {
    expect(transferStatusOf(packet({ receive: { ...recvTx, ackError: ACK_ERR } }))).toEqual({
      state: 'STATE_PENDING_ERROR',
      transfer_sequence: [event('TRANSFER_RECEIVED', { receive_tx: json(recvTx) })],
      next_blocking_transfer: { transfer_sequence_index: 0 },
      transfer_asset_release: srcRelease(false),
      error: null,
    });
  });

  it('error ack acknowledged on the source: failure with the parsed ack error, refund released', () => {
    const p = packet({ receive: { ...recvTx, ackError: ACK_ERR }, acknowledge: { ...ackTx, ackError: ACK_ERR } });
    const details = { code: 5, message: 'error handling packet: see events for details' };
    expect(transferStatusOf(p)).toEqual({
      state: 'STATE_COMPLETED_ERROR',
      transfer_sequence: [
        event('TRANSFER_FAILURE', {
          receive_tx: json(recvTx),
          acknowledge_tx: json(ackTx),
          error: { type: 'PACKET_ERROR_ACKNOWLEDGEMENT', message: ACK_ERR, details },
        }),
      ],
      next_blocking_transfer: null,
      transfer_asset_release: srcRelease(true),
      error: {
        type: 'STATUS_ERROR_TRANSFER',
        message: `packet transfer/channel-0/3 from ${SRC} to ${DST} failed: ${ACK_ERR}`,
        details,
      },
    });
  });

  it('timeout elapsed, not relayed: pending error, refund not yet released', () => {
    expect(transferStatusOf(packet({ timeoutElapsed: true }))).toEqual({
      state: 'STATE_PENDING_ERROR',
      transfer_sequence: [event('TRANSFER_PENDING', {})],
      next_blocking_transfer: { transfer_sequence_index: 0 },
      transfer_asset_release: srcRelease(false),
      error: null,
    });
  });

  it('MsgTimeout on the source: failure with a timeout packet error, refund released', () => {
    const message = `packet transfer/channel-0/3 from ${SRC} to ${DST} timed out`;
    expect(transferStatusOf(packet({ timeoutElapsed: true, timeout: timeoutTx }))).toEqual({
      state: 'STATE_COMPLETED_ERROR',
      transfer_sequence: [event('TRANSFER_FAILURE', { timeout_tx: json(timeoutTx), error: { type: 'PACKET_ERROR_TIMEOUT', message, details: null } })],
      next_blocking_transfer: null,
      transfer_asset_release: srcRelease(true),
      error: { type: 'STATUS_ERROR_TRANSFER', message },
    });
  });

  it('parses ibc-go ack errors and leaves other texts without details', () => {
    expect(parseAckError(ACK_ERR)).toEqual({ code: 5, message: 'error handling packet: see events for details' });
    expect(parseAckError('something else')).toBeNull();
  });
});

describe('combineTransfers', () => {
  it('one done and one pending: pending, blocked on the second entry', () => {
    const done = transferStatusOf(packet({ receive: recvTx, acknowledge: ackTx }));
    const pending = transferStatusOf(packet({ sequence: 4n }));
    const transfers: TransferStatusJson[] = [done, pending];
    expect(combineTransfers(transfers)).toEqual({
      state: 'STATE_PENDING',
      transfers,
      transfer_sequence: [...done.transfer_sequence, ...pending.transfer_sequence],
      next_blocking_transfer: { transfer_sequence_index: 1 },
      transfer_asset_release: null,
      error: null,
    });
  });

  it('no transfers: neutral (success, empty), so the tx state decides', () => {
    expect(combineTransfers([])).toEqual({
      state: 'STATE_COMPLETED_SUCCESS',
      transfers: [],
      transfer_sequence: [],
      next_blocking_transfer: null,
      transfer_asset_release: null,
      error: null,
    });
  });
});
