/**
 * The `/v2/tx/status` fields of the ICS-20 transfers a tx initiated, as a pure function of each
 * packet's lifecycle on its two chains (REFERENCE-COSMOS §5.3):
 *
 *   send ──> TRANSFER_PENDING ──(recv, success ack)──> TRANSFER_RECEIVED ──(ack)──> TRANSFER_SUCCESS
 *    │        (STATE_PENDING)   └─(recv, error ack)──> TRANSFER_RECEIVED ──(ack)──> TRANSFER_FAILURE
 *    │                                                  (STATE_PENDING_ERROR)        (STATE_COMPLETED_ERROR)
 *    └─(timeout elapsed)─> TRANSFER_PENDING (STATE_PENDING_ERROR) ──(MsgTimeout)──> TRANSFER_FAILURE
 *
 * Funds are "released" once the receiver holds them on the destination, or once the refund on the
 * source executed (error ack or timeout acknowledged there). Tracking timeouts (STATE_ABANDONED)
 * stay with the tx-level machine of tx-status.ts.
 */
import type { StatusError } from './tx-status.js';

/** A tx of the packet's lifecycle, as the network layer observed it. */
export interface PacketChainTx {
  chainId: string;
  /** Display form: Cosmos upper hex, EVM 0x… */
  txHash: string;
  height: number;
  /** RFC3339 block time. */
  time: string;
  explorerLink: string;
}

/** One IBC packet a tx sent, with what each chain shows of it so far. */
export interface PacketLifecycle {
  srcChainId: string;
  dstChainId: string;
  srcPort: string;
  srcChannel: string;
  dstPort: string;
  dstChannel: string;
  sequence: bigint;
  /** ICS-20 packet data */
  denom: string;
  amount: string;
  sender: string;
  receiver: string;
  send: PacketChainTx;
  /** the destination's MsgRecvPacket tx; `ackError` set when the destination wrote an error acknowledgement */
  receive?: PacketChainTx & { ackError?: string };
  /** the source's MsgAcknowledgement tx (with the ack's error string when it was an error ack) */
  acknowledge?: PacketChainTx & { ackError?: string };
  /** the source's MsgTimeout tx */
  timeout?: PacketChainTx;
  /** the destination has passed the packet's timeout height/timestamp without receiving it */
  timeoutElapsed?: boolean;
  /** what the receiver gets on the destination (voucher `ibc/…` or the unescrowed native denom) and the refund denom on the source */
  dstDenom: string;
  srcDenom: string;
}

/** The states a transfer (and a tx with transfers) can be in, per the swagger's TransactionState. */
export type TransferTxState = 'STATE_PENDING' | 'STATE_PENDING_ERROR' | 'STATE_COMPLETED_SUCCESS' | 'STATE_COMPLETED_ERROR';

/** `ibc_transfer.state` (swagger TransferState). */
export type TransferState = 'TRANSFER_UNKNOWN' | 'TRANSFER_PENDING' | 'TRANSFER_RECEIVED' | 'TRANSFER_SUCCESS' | 'TRANSFER_FAILURE';

export type PacketErrorType = 'PACKET_ERROR_UNKNOWN' | 'PACKET_ERROR_ACKNOWLEDGEMENT' | 'PACKET_ERROR_TIMEOUT';

export interface ChainTransactionJson {
  chain_id: string;
  tx_hash: string;
  explorer_link: string;
  on_chain_at: string;
}

export interface PacketErrorJson {
  type: PacketErrorType;
  message: string;
  details: { code: number; message: string } | null;
}

export interface PacketTxsJson {
  send_tx: ChainTransactionJson | null;
  receive_tx: ChainTransactionJson | null;
  acknowledge_tx: ChainTransactionJson | null;
  timeout_tx: ChainTransactionJson | null;
  error: PacketErrorJson | null;
}

export interface IbcTransferInfoJson {
  from_chain_id: string;
  to_chain_id: string;
  /** Duplicates of from/to, as in the official client's fixtures. */
  src_chain_id: string;
  dst_chain_id: string;
  state: TransferState;
  packet_txs: PacketTxsJson;
}

export interface TransferEventJson {
  ibc_transfer: IbcTransferInfoJson;
}

export interface NextBlockingTransferJson {
  transfer_sequence_index: number;
}

export interface TransferAssetReleaseJson {
  chain_id: string;
  denom: string;
  amount: string | null;
  released: boolean;
}

export interface TransferStatusJson {
  state: TransferTxState;
  transfer_sequence: TransferEventJson[];
  next_blocking_transfer: NextBlockingTransferJson | null;
  transfer_asset_release: TransferAssetReleaseJson | null;
  error: StatusError | null;
}

/** The top-level StatusTxResponse fields derived from all transfers of a tx. */
export interface CombinedTransfersJson {
  state: TransferTxState;
  transfers: TransferStatusJson[];
  /** Deprecated flat concatenation of every transfer's sequence. */
  transfer_sequence: TransferEventJson[];
  next_blocking_transfer: NextBlockingTransferJson | null;
  transfer_asset_release: TransferAssetReleaseJson | null;
  error: StatusError | null;
}

const ACK_ERROR = /^ABCI code: (\d+): ([\s\S]*)$/;

/** Splits ibc-go's ack error text `ABCI code: <code>: <message>`; null when it has another form. */
export function parseAckError(ack: string): { code: number; message: string } | null {
  const m = ACK_ERROR.exec(ack);
  return m ? { code: Number(m[1]), message: m[2]! } : null;
}

function chainTx(t: PacketChainTx | undefined): ChainTransactionJson | null {
  return t ? { chain_id: t.chainId, tx_hash: t.txHash, explorer_link: t.explorerLink, on_chain_at: t.time } : null;
}

function packetName(p: PacketLifecycle): string {
  return `packet ${p.srcPort}/${p.srcChannel}/${p.sequence} from ${p.srcChainId} to ${p.dstChainId}`;
}

/** The `TransferStatus` of one packet. */
export function transferStatusOf(p: PacketLifecycle): TransferStatusJson {
  const ackError = p.acknowledge?.ackError ?? p.receive?.ackError;
  const atDst = (released: boolean): TransferAssetReleaseJson => ({ chain_id: p.dstChainId, denom: p.dstDenom, amount: p.amount, released });
  const atSrc = (released: boolean): TransferAssetReleaseJson => ({ chain_id: p.srcChainId, denom: p.srcDenom, amount: p.amount, released });

  let state: TransferTxState;
  let transferState: TransferState;
  let release: TransferAssetReleaseJson | null;
  let packetError: PacketErrorJson | null = null;
  let error: StatusError | null = null;

  if (p.timeout) {
    state = 'STATE_COMPLETED_ERROR';
    transferState = 'TRANSFER_FAILURE';
    release = atSrc(true);
    const message = `${packetName(p)} timed out`;
    packetError = { type: 'PACKET_ERROR_TIMEOUT', message, details: null };
    error = { type: 'STATUS_ERROR_TRANSFER', message };
  } else if (p.acknowledge && ackError !== undefined) {
    state = 'STATE_COMPLETED_ERROR';
    transferState = 'TRANSFER_FAILURE';
    release = atSrc(true);
    const details = parseAckError(ackError);
    packetError = { type: 'PACKET_ERROR_ACKNOWLEDGEMENT', message: ackError, details };
    const message = `${packetName(p)} failed: ${ackError}`;
    error = details ? { type: 'STATUS_ERROR_TRANSFER', message, details } : { type: 'STATUS_ERROR_TRANSFER', message };
  } else if (p.acknowledge) {
    state = 'STATE_COMPLETED_SUCCESS';
    transferState = 'TRANSFER_SUCCESS';
    release = atDst(true);
  } else if (p.receive && ackError !== undefined) {
    state = 'STATE_PENDING_ERROR';
    transferState = 'TRANSFER_RECEIVED';
    release = atSrc(false);
  } else if (p.receive) {
    state = 'STATE_PENDING';
    transferState = 'TRANSFER_RECEIVED';
    release = atDst(true);
  } else if (p.timeoutElapsed) {
    state = 'STATE_PENDING_ERROR';
    transferState = 'TRANSFER_PENDING';
    release = atSrc(false);
  } else {
    state = 'STATE_PENDING';
    transferState = 'TRANSFER_PENDING';
    release = null;
  }

  const done = state === 'STATE_COMPLETED_SUCCESS' || state === 'STATE_COMPLETED_ERROR';
  return {
    state,
    transfer_sequence: [
      {
        ibc_transfer: {
          from_chain_id: p.srcChainId,
          to_chain_id: p.dstChainId,
          src_chain_id: p.srcChainId,
          dst_chain_id: p.dstChainId,
          state: transferState,
          packet_txs: {
            send_tx: chainTx(p.send),
            receive_tx: chainTx(p.receive),
            acknowledge_tx: chainTx(p.acknowledge),
            timeout_tx: chainTx(p.timeout),
            error: packetError,
          },
        },
      },
    ],
    next_blocking_transfer: done ? null : { transfer_sequence_index: 0 },
    transfer_asset_release: release,
    error,
  };
}

function isError(s: TransferTxState): boolean {
  return s === 'STATE_PENDING_ERROR' || s === 'STATE_COMPLETED_ERROR';
}

/**
 * The top-level fields over the transfers of a tx, in the order they were sent:
 * - state: any error → COMPLETED_ERROR once every transfer is done, else PENDING_ERROR; otherwise
 *   PENDING while any transfer is pending, else COMPLETED_SUCCESS (also for no transfers, so the
 *   tx's own state decides);
 * - next_blocking_transfer: the first blocked transfer, as an index into the flat `transfer_sequence`;
 * - transfer_asset_release: that of the first failing transfer, else of the last transfer;
 * - error: the first transfer error.
 */
export function combineTransfers(transfers: TransferStatusJson[]): CombinedTransfersJson {
  const failing = transfers.find((t) => isError(t.state));
  const allDone = transfers.every((t) => t.state === 'STATE_COMPLETED_SUCCESS' || t.state === 'STATE_COMPLETED_ERROR');
  const state: TransferTxState = failing ? (allDone ? 'STATE_COMPLETED_ERROR' : 'STATE_PENDING_ERROR') : allDone ? 'STATE_COMPLETED_SUCCESS' : 'STATE_PENDING';

  let nextBlocking: NextBlockingTransferJson | null = null;
  let offset = 0;
  for (const t of transfers) {
    if (t.next_blocking_transfer) {
      nextBlocking = { transfer_sequence_index: offset + t.next_blocking_transfer.transfer_sequence_index };
      break;
    }
    offset += t.transfer_sequence.length;
  }

  return {
    state,
    transfers,
    transfer_sequence: transfers.flatMap((t) => t.transfer_sequence),
    next_blocking_transfer: nextBlocking,
    transfer_asset_release: (failing ?? transfers.at(-1))?.transfer_asset_release ?? null,
    error: transfers.find((t) => t.error)?.error ?? null,
  };
}
