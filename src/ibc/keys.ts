/**
 * ibc-go's store keys (24-host), the ICS-20 escrow and module addresses, voucher denoms and the
 * packet and acknowledgement commitments, as ibc-go v10 computes them (REFERENCE-COSMOS §4).
 */
import { createHash } from 'node:crypto';

export const TRANSFER_PORT = 'transfer';
export const ICS20_VERSION = 'ics20-1';
export const CLIENT_TYPE = '07-tendermint';
/** The IBC store's key in the multistore: the prefix of every ICS-24 path a counterparty proves. */
export const IBC_STORE_KEY = 'ibc';
export const COMMITMENT_PREFIX = new TextEncoder().encode(IBC_STORE_KEY);

const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

export const hostKeys = {
  nextClientSequence: 'nextClientSequence',
  nextConnectionSequence: 'nextConnectionSequence',
  nextChannelSequence: 'nextChannelSequence',
  clientState: (clientId: string) => `clients/${clientId}/clientState`,
  consensusState: (clientId: string, revision: bigint, height: bigint) => `clients/${clientId}/consensusStates/${revision}-${height}`,
  connection: (connectionId: string) => `connections/${connectionId}`,
  clientConnections: (clientId: string) => `clients/${clientId}/connections`,
  channel: (port: string, channel: string) => `channelEnds/ports/${port}/channels/${channel}`,
  nextSequenceSend: (port: string, channel: string) => `nextSequenceSend/ports/${port}/channels/${channel}`,
  nextSequenceRecv: (port: string, channel: string) => `nextSequenceRecv/ports/${port}/channels/${channel}`,
  nextSequenceAck: (port: string, channel: string) => `nextSequenceAck/ports/${port}/channels/${channel}`,
  commitmentPrefix: (port: string, channel: string) => `commitments/ports/${port}/channels/${channel}/sequences/`,
  commitment: (port: string, channel: string, seq: bigint) => `commitments/ports/${port}/channels/${channel}/sequences/${seq}`,
  receipt: (port: string, channel: string, seq: bigint) => `receipts/ports/${port}/channels/${channel}/sequences/${seq}`,
  ackPrefix: (port: string, channel: string) => `acks/ports/${port}/channels/${channel}/sequences/`,
  ack: (port: string, channel: string, seq: bigint) => `acks/ports/${port}/channels/${channel}/sequences/${seq}`,
  /** The transfer app's stores. */
  denom: (hashHex: string) => `transfer/denoms/${hashHex}`,
  totalEscrow: (denom: string) => `transfer/totalEscrow/${denom}`,
  /** bank balances of non-native denoms: `bank/balances/<address hex>/<denom>`. */
  balancePrefix: (addressHex: string) => `bank/balances/${addressHex}/`,
  balance: (addressHex: string, denom: string) => `bank/balances/${addressHex}/${denom}`,
  supply: (denom: string) => `bank/supply/${denom}`,
} as const;

/** A sequence as ibc-go stores it (`sdk.Uint64ToBigEndian`): 8 bytes, big-endian. */
export function encodeSeq(n: bigint): Uint8Array {
  return be64(n);
}

export function decodeSeq(v: Uint8Array): bigint {
  return v.length === 8 ? Buffer.from(v.buffer, v.byteOffset, 8).readBigUInt64BE(0) : 0n;
}

/** ICS-20 escrow account of a channel: sha256("ics20-1" ‖ 0x00 ‖ "<port>/<channel>")[:20]. */
export function escrowAddress(port: string, channel: string): Uint8Array {
  return sha256(Buffer.concat([Buffer.from(ICS20_VERSION), Buffer.from([0]), Buffer.from(`${port}/${channel}`)])).subarray(0, 20);
}

/** The transfer module account: sha256("transfer")[:20]. */
export const TRANSFER_MODULE_ADDRESS = sha256('transfer').subarray(0, 20);

export interface Hop {
  portId: string;
  channelId: string;
}

export interface Denom {
  base: string;
  trace: Hop[];
}

/** `Denom.Path()`: hops as `port/channel/`, then the base; a native denom's path is its base. */
export function denomPath(d: Denom): string {
  return [...d.trace.map((h) => `${h.portId}/${h.channelId}`), d.base].join('/');
}

/**
 * What a denom (its full trace on the sending chain) is on the receiving chain of one ICS-20 hop:
 * the hop is peeled off when the token goes back the way it came (`home`), else the receiving end
 * is prepended (a voucher).
 */
export function denomAfterHop(d: Denom, from: Hop, to: Hop): { denom: Denom; home: boolean } {
  const first = d.trace[0];
  const home = first !== undefined && first.portId === from.portId && first.channelId === from.channelId;
  return { denom: home ? { base: d.base, trace: d.trace.slice(1) } : { base: d.base, trace: [to, ...d.trace] }, home };
}

/** An `ibc/<hash>` denom as the chain stores it: the hash in upper case (clients may send any case). */
export function canonicalIbcDenom(denom: string): string {
  return `ibc/${denom.slice(4).toUpperCase()}`;
}

/** `ibc/<UPPER HEX sha256(path)>` for a traced denom, the base itself for a native one. */
export function ibcDenom(d: Denom): string {
  return d.trace.length === 0 ? d.base : `ibc/${denomHashHex(denomPath(d))}`;
}

export function denomHashHex(path: string): string {
  return sha256(path).toString('hex').toUpperCase();
}

const CHANNEL_ID = /^channel-\d+$/;
const CLIENT_ID = /^[a-z0-9-]+-\d+$/;

/** Parses a packet's full denom path: `port/channel` pairs are peeled while the channel is a channel or client id. */
export function parseDenomPath(path: string): Denom {
  const parts = path.split('/');
  const trace: Hop[] = [];
  let i = 0;
  while (i + 1 < parts.length - 1 && (CHANNEL_ID.test(parts[i + 1]!) || (CLIENT_ID.test(parts[i + 1]!) && parts[i + 1]!.includes('-')))) {
    trace.push({ portId: parts[i]!, channelId: parts[i + 1]! });
    i += 2;
  }
  return { base: parts.slice(i).join('/'), trace };
}

/** Go's BigEndian uint64. */
function be64(n: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt.asUintN(64, n));
  return b;
}

/** sha256(BE64(timeout ts) ‖ BE64(timeout revision) ‖ BE64(timeout height) ‖ sha256(data)). */
export function packetCommitment(timeoutTimestamp: bigint, timeoutRevision: bigint, timeoutHeight: bigint, data: Uint8Array): Uint8Array {
  return sha256(Buffer.concat([be64(timeoutTimestamp), be64(timeoutRevision), be64(timeoutHeight), sha256(data)]));
}

export function ackCommitment(ack: Uint8Array): Uint8Array {
  return sha256(ack);
}

/** ICS-20 acknowledgement bytes: the proto-JSON of `Acknowledgement`. */
export function successAck(): Uint8Array {
  return new TextEncoder().encode('{"result":"AQ=="}');
}

export function errorAck(code: number): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ error: `ABCI code: ${code}: error handling packet: see events for details` }));
}

export type ParsedAck = { ok: true; result: Uint8Array } | { ok: false; error: string };

export function parseAck(bytes: Uint8Array): ParsedAck | undefined {
  try {
    const j = JSON.parse(new TextDecoder().decode(bytes)) as { result?: string; error?: string };
    if (typeof j.result === 'string') return { ok: true, result: Uint8Array.from(Buffer.from(j.result, 'base64')) };
    if (typeof j.error === 'string') return { ok: false, error: j.error };
  } catch {
    return undefined;
  }
  return undefined;
}

/** ICS-20 packet data bytes: Go's encoding/json of FungibleTokenPacketData (field order, omitempty). */
export interface PacketData {
  denom: string;
  amount: string;
  sender: string;
  receiver: string;
  memo?: string;
}

export function encodePacketData(d: PacketData): Uint8Array {
  const o: Record<string, string> = {};
  if (d.denom) o['denom'] = d.denom;
  if (d.amount) o['amount'] = d.amount;
  if (d.sender) o['sender'] = d.sender;
  if (d.receiver) o['receiver'] = d.receiver;
  if (d.memo) o['memo'] = d.memo;
  // Go escapes <, > and & in JSON strings.
  return new TextEncoder().encode(JSON.stringify(o).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026'));
}

export function decodePacketData(bytes: Uint8Array): PacketData | undefined {
  try {
    const j = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
    if (typeof j['denom'] !== 'string' || typeof j['amount'] !== 'string') return undefined;
    return {
      denom: j['denom'],
      amount: j['amount'],
      sender: String(j['sender'] ?? ''),
      receiver: String(j['receiver'] ?? ''),
      memo: typeof j['memo'] === 'string' ? j['memo'] : undefined,
    };
  } catch {
    return undefined;
  }
}

/** `channel-7` → 7n. */
export function idNumber(id: string): bigint {
  const m = /-(\d+)$/.exec(id);
  return m ? BigInt(m[1]!) : 0n;
}

/** ibc-go's ParseChainID: the revision number of `name-<n>`, else 0. */
export function revisionOf(chainId: string): bigint {
  const m = /^.+[^-]-{1}([1-9][0-9]*)$/.exec(chainId);
  return m ? BigInt(m[1]!) : 0n;
}
