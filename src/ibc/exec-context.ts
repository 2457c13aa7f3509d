/**
 * What every IBC message handler runs against: the execution context (store, bank, block, gas,
 * cache), ibc-go's error constructors, and the gas-metered store reads and writes.
 */
import type { AbciEvent } from '../abci/types.js';
import { CosmosTxError } from '../sdk/errors.js';
import type { MultiDenomBank } from './bank.js';
import type { IbcStore } from './ibc-store.js';
import { decodeSeq, encodeSeq } from './keys.js';

export interface IbcExecContext {
  store: IbcStore;
  bank: MultiDenomBank;
  chainId: string;
  bech32Prefix: string;
  height: number;
  /** Block time, ns since the epoch. */
  timeNs: bigint;
  /** Charges gas (the SDK's KV costs). */
  gas(amount: bigint, what: string): void;
  /** Nested cache over the IBC store and the native balances (an app callback that fails is undone). */
  cache: { checkpoint(): Promise<void>; commit(): Promise<void>; revert(): Promise<void> };
}

export interface IbcMsgResult {
  events: AbciEvent[];
  response: { typeUrl: string; value: Uint8Array };
}

/** ibc-go's error codespaces and codes (core/errors, 02-client, 03-connection, 04-channel, transfer). */
export const err = {
  invalidAddress: (m: string) => new CosmosTxError(5, `${m}: invalid address`, 'ibc'),
  invalidCoins: (m: string) => new CosmosTxError(6, `${m}: invalid coins`, 'ibc'),
  invalidRequest: (m: string) => new CosmosTxError(8, `${m}: invalid request`, 'ibc'),
  clientNotFound: (id: string) => new CosmosTxError(5, `client not found: ${id}: light client not found`, 'client'),
  clientNotActive: (m: string) => new CosmosTxError(29, `${m}: client state is not active`, 'client'),
  invalidHeader: (m: string) => new CosmosTxError(21, `${m}: invalid client header`, 'client'),
  consensusNotFound: (id: string, h: string) =>
    new CosmosTxError(7, `consensus state not found for client ${id} at height ${h}: consensus state not found`, 'client'),
  connectionNotFound: (id: string) => new CosmosTxError(3, `${id}: connection not found`, 'connection'),
  connectionState: (m: string) => new CosmosTxError(5, `${m}: invalid connection state`, 'connection'),
  channelNotFound: (port: string, ch: string) => new CosmosTxError(3, `port ID (${port}) channel ID (${ch}): channel not found`, 'channel'),
  channelState: (m: string) => new CosmosTxError(5, `${m}: invalid channel state`, 'channel'),
  invalidPacket: (m: string) => new CosmosTxError(13, `${m}: invalid packet`, 'channel'),
  timeoutElapsed: (m: string) => new CosmosTxError(12, `${m}: packet timeout elapsed`, 'channel'),
  timeoutNotReached: (m: string) => new CosmosTxError(22, `${m}: timeout not reached`, 'channel'),
  invalidVersion: (m: string) => new CosmosTxError(3, `${m}: invalid ICS20 version`, 'transfer'),
};

const KV_READ = 1000n;
const KV_WRITE = 2000n;
const PER_BYTE_WRITE = 30n;

export function nextId(ctx: IbcExecContext, key: string, prefix: string): string {
  const n = getSeq(ctx, key) ?? 0n;
  setSeq(ctx, key, n + 1n);
  return `${prefix}-${n}`;
}

export function getSeq(ctx: IbcExecContext, key: string): bigint | undefined {
  const v = read(ctx, key);
  return v === undefined ? undefined : decodeSeq(v);
}

export function setSeq(ctx: IbcExecContext, key: string, n: bigint): void {
  write(ctx, key, encodeSeq(n));
}

export function read(ctx: IbcExecContext, key: string): Uint8Array | undefined {
  const v = ctx.store.get(key);
  ctx.gas(KV_READ + 3n * BigInt(v?.length ?? 0), 'ReadFlat');
  return v;
}

export function write(ctx: IbcExecContext, key: string, value: Uint8Array): void {
  ctx.gas(KV_WRITE + PER_BYTE_WRITE * BigInt(value.length), 'WriteFlat');
  ctx.store.set(key, value);
}

export function del(ctx: IbcExecContext, key: string): void {
  ctx.gas(1000n, 'Delete');
  ctx.store.delete(key);
}
