/**
 * The IBC handler's 02-client and packet checks on a bare IBC store: updates of a 07-tendermint
 * client with real signed headers of a kvstore chain (and of its twin: the same chain id and
 * validator keys, other blocks, so a conflicting header that verifies), the time checks, freezing
 * on misbehaviour, and the counterparty checks of acknowledgements and timeouts.
 */
import { Any } from 'cosmjs-types/google/protobuf/any';
import { Channel, Order, State as ChanState, type Packet } from 'cosmjs-types/ibc/core/channel/v1/channel';
import { ConnectionEnd, State as ConnState } from 'cosmjs-types/ibc/core/connection/v1/connection';
import { ClientState } from 'cosmjs-types/ibc/lightclients/tendermint/v1/tendermint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKvStoreChain, type KvStoreChain } from '../chains/kvstore/start.js';
import type { Header } from '../types/block.js';
import { timestampToNs } from '../types/time.js';
import { ValidatorSet } from '../types/validator-set.js';
import { MultiDenomBank } from './bank.js';
import type { IbcExecContext } from './exec-context.js';
import { runIbcMsg } from './handler.js';
import { IbcStore } from './ibc-store.js';
import { encodePacketData, hostKeys, packetCommitment, successAck } from './keys.js';
import { clientStateOf, consensusStateOf } from './tm-client-state.js';
import { tmHeaderAny, tmHeaderOf } from './tm-header-codec.js';
import type { IbcMsg } from './msgs.js';

const CP_CHAIN = 'twin-1';
const SIGNER = 'cosmos1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnrql8a';
const DAY_NS = 86_400n * 1_000_000_000n;

let a: KvStoreChain;
let b: KvStoreChain;
let vals: ValidatorSet;

beforeAll(async () => {
  const spec = { kind: 'kvstore' as const, chainId: CP_CHAIN, config: { rpc: { laddr: '' }, consensus: { mode: 'manual' as const } } };
  a = await startKvStoreChain(spec);
  b = await startKvStoreChain(spec);
  await a.mine(6);
  await b.broadcastTx(new TextEncoder().encode('fork=1'));
  await b.mine(6);
  vals = ValidatorSet.fromUpdates(a.genesis.validators.map((v) => ({ pubKey: v.pubKey, power: v.power })));
});

afterAll(async () => {
  await a?.stop();
  await b?.stop();
});

async function headerAt(chain: KvStoreChain, h: number): Promise<Header> {
  return (await chain.parts.blockStore.loadBlockMeta(h))!.header;
}

/** A header message of `chain` at `h`, trusting height `trusted`. */
async function update(chain: KvStoreChain, h: number, trusted: number): Promise<IbcMsg> {
  const header = await headerAt(chain, h);
  const commit = (await chain.parts.blockStore.loadBlockCommit(h))!;
  const msg = tmHeaderOf({ header, commit, validators: vals, trustedHeight: { revisionNumber: 1n, revisionHeight: BigInt(trusted) }, trustedValidators: vals });
  return { kind: 'updateClient', m: { clientId: '07-tendermint-0', clientMessage: tmHeaderAny(msg), signer: SIGNER } };
}

function context(nowNs: bigint): IbcExecContext {
  const store = new IbcStore();
  const native = new Map<string, bigint>();
  const hex = (x: Uint8Array) => Buffer.from(x).toString('hex');
  const bank = new MultiDenomBank(
    store,
    { getBalance: async (x) => native.get(hex(x)) ?? 0n, setBalance: async (x, v) => void native.set(hex(x), v) },
    'stake',
    'cosmos',
  );
  const none = async () => undefined;
  return {
    store,
    bank,
    chainId: 'host-1',
    bech32Prefix: 'cosmos',
    height: 100,
    timeNs: nowNs,
    gas: () => undefined,
    cache: { checkpoint: none, commit: none, revert: none },
  };
}

/** A client of the twin chain trusting A's header at `h` (or a consensus state given). */
async function withClient(ctx: IbcExecContext, h = 2, consensus?: Parameters<typeof consensusStateOf>[0]): Promise<void> {
  await runIbcMsg(
    {
      kind: 'createClient',
      m: { clientState: clientStateOf(CP_CHAIN, BigInt(h)), consensusState: consensusStateOf(consensus ?? (await headerAt(a, h))), signer: SIGNER },
    },
    ctx,
  );
}

async function failure(p: Promise<unknown>): Promise<{ code: number; codespace: string; log: string }> {
  const e = (await p.then(
    () => undefined,
    (x: unknown) => x,
  )) as { code: number; codespace: string; log: string } | undefined;
  expect(e, 'expected the message to fail').toBeDefined();
  return { code: e!.code, codespace: e!.codespace, log: e!.log };
}

const clientState = (ctx: IbcExecContext) => ClientState.decode(Any.decode(ctx.store.get(hostKeys.clientState('07-tendermint-0'))!).value);
const timeOf = async (h: number) => timestampToNs((await headerAt(a, h)).time);

describe('MsgUpdateClient on a 07-tendermint client', () => {
  it('the same header at a height that has its consensus state changes nothing', async () => {
    const ctx = context((await timeOf(6)) + 1_000_000_000n);
    await withClient(ctx);
    const first = await runIbcMsg(await update(a, 4, 2), ctx);
    expect(first.events.map((e) => e.type)).toContain('update_client');
    const key = hostKeys.consensusState('07-tendermint-0', 1n, 4n);
    const stored = ctx.store.get(key);
    const again = await runIbcMsg(await update(a, 4, 2), ctx);
    expect(again.events.map((e) => e.type)).not.toContain('client_misbehaviour');
    expect(ctx.store.get(key)).toEqual(stored);
    expect(clientState(ctx).frozenHeight).toEqual({ revisionNumber: 0n, revisionHeight: 0n });
  });

  it('a conflicting valid header at that height is misbehaviour: the client freezes and refuses updates and packets', async () => {
    const ctx = context((await timeOf(6)) + 1_000_000_000n);
    await withClient(ctx);
    await runIbcMsg(await update(a, 4, 2), ctx);
    const before = ctx.store.get(hostKeys.consensusState('07-tendermint-0', 1n, 4n));
    const r = await runIbcMsg(await update(b, 4, 2), ctx);
    expect(r.events.find((e) => e.type === 'client_misbehaviour')?.attributes.map((x) => [x.key, x.value])).toEqual([
      ['client_id', '07-tendermint-0'],
      ['client_type', '07-tendermint'],
    ]);
    expect(r.events.map((e) => e.type)).not.toContain('update_client');
    expect(ctx.store.get(hostKeys.consensusState('07-tendermint-0', 1n, 4n))).toEqual(before);
    expect(clientState(ctx).frozenHeight).toEqual({ revisionNumber: 0n, revisionHeight: 1n });
    expect(await failure(runIbcMsg(await update(a, 5, 4), ctx))).toEqual({
      code: 29,
      codespace: 'client',
      log: 'cannot update client (07-tendermint-0) with status Frozen: client state is not active',
    });
    openChannel(ctx);
    const p = packet();
    ctx.store.set(hostKeys.commitment(p.sourcePort, p.sourceChannel, p.sequence), packetCommitment(p.timeoutTimestamp, 0n, 0n, p.data));
    expect(await failure(runIbcMsg(ackMsg(p), ctx))).toEqual({
      code: 29,
      codespace: 'client',
      log: 'client (07-tendermint-0) status is Frozen: client state is not active',
    });
  });

  it('refuses an update once the latest consensus state is older than the trusting period (expired)', async () => {
    const ctx = context((await timeOf(2)) + 14n * DAY_NS);
    await withClient(ctx);
    expect(await failure(runIbcMsg(await update(a, 4, 2), ctx))).toEqual({
      code: 29,
      codespace: 'client',
      log: 'cannot update client (07-tendermint-0) with status Expired: client state is not active',
    });
    ctx.timeNs -= 1n;
    expect((await runIbcMsg(await update(a, 4, 2), ctx)).events.map((e) => e.type)).toContain('update_client');
  });

  it('refuses a header from the future (beyond the block time plus the max clock drift of 10 s)', async () => {
    const ctx = context((await timeOf(4)) - 10_000_000_000n);
    await withClient(ctx);
    const e = await failure(runIbcMsg(await update(a, 4, 2), ctx));
    expect(e.codespace).toBe('client');
    expect(e.log).toMatch(/^failed to verify header: new header has a time from the future .* \(now: .*; max clock drift: 10000ms\): invalid client header$/);
    ctx.timeNs += 1n;
    expect((await runIbcMsg(await update(a, 4, 2), ctx)).events.map((e) => e.type)).toContain('update_client');
  });

  it('refuses a header whose time is not after the trusted consensus state', async () => {
    const ctx = context((await timeOf(6)) + 1_000_000_000n);
    const h2 = await headerAt(a, 2);
    const h4 = await headerAt(a, 4);
    await withClient(ctx, 2, { ...h2, time: h4.time });
    const e = await failure(runIbcMsg(await update(a, 4, 2), ctx));
    expect(e.log).toMatch(/^failed to verify header: expected new header time .* to be after old header time .*: invalid client header$/);
  });
});

// ---------------------------------------------------------------- packets

function openChannel(ctx: IbcExecContext): void {
  ctx.store.set(
    hostKeys.connection('connection-0'),
    ConnectionEnd.encode({
      clientId: '07-tendermint-0',
      versions: [],
      state: ConnState.STATE_OPEN,
      counterparty: { clientId: '07-tendermint-3', connectionId: 'connection-3', prefix: { keyPrefix: new Uint8Array() } },
      delayPeriod: 0n,
    }).finish(),
  );
  ctx.store.set(
    hostKeys.channel('transfer', 'channel-0'),
    Channel.encode({
      state: ChanState.STATE_OPEN,
      ordering: Order.ORDER_UNORDERED,
      counterparty: { portId: 'transfer', channelId: 'channel-7' },
      connectionHops: ['connection-0'],
      version: 'ics20-1',
    }).finish(),
  );
}

function packet(over: Partial<Packet> = {}): Packet {
  const data = encodePacketData({ denom: 'stake', amount: '5', sender: SIGNER, receiver: 'them', memo: '' });
  return {
    sequence: 1n,
    sourcePort: 'transfer',
    sourceChannel: 'channel-0',
    destinationPort: 'transfer',
    destinationChannel: 'channel-7',
    data,
    timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
    timeoutTimestamp: 1n,
    ...over,
  };
}

const ackMsg = (p: Packet): IbcMsg => ({
  kind: 'acknowledgement',
  m: { packet: p, acknowledgement: successAck(), proofAcked: new Uint8Array(), proofHeight: { revisionNumber: 1n, revisionHeight: 2n }, signer: SIGNER },
});
const timeoutMsg = (p: Packet): IbcMsg => ({
  kind: 'timeout',
  m: { packet: p, proofUnreceived: new Uint8Array(), proofHeight: { revisionNumber: 1n, revisionHeight: 2n }, nextSequenceRecv: 0n, signer: SIGNER },
});

describe('acknowledgements and timeouts check the channel counterparty', () => {
  for (const [name, msg] of [
    ['MsgAcknowledgement', ackMsg],
    ['MsgTimeout', timeoutMsg],
  ] as const) {
    it(`${name} of a packet sent to another port or channel than the counterparty's is refused`, async () => {
      const ctx = context((await timeOf(2)) + 1_000_000_000n);
      await withClient(ctx);
      openChannel(ctx);
      for (const [over, log] of [
        [{ destinationChannel: 'channel-8' }, "packet destination channel doesn't match the counterparty's channel (channel-8 ≠ channel-7): invalid packet"],
        [{ destinationPort: 'other' }, "packet destination port doesn't match the counterparty's port (other ≠ transfer): invalid packet"],
      ] as const) {
        const p = packet(over);
        ctx.store.set(hostKeys.commitment(p.sourcePort, p.sourceChannel, p.sequence), packetCommitment(p.timeoutTimestamp, 0n, 0n, p.data));
        expect(await failure(runIbcMsg(msg(p), ctx))).toEqual({ code: 13, codespace: 'channel', log });
      }
      // The counterparty's own packet passes the check (and the rest of the message).
      const ok = await runIbcMsg(msg(packet()), ctx).catch((e: { log: string }) => e.log);
      expect(ok).not.toEqual(expect.stringMatching(/counterparty/));
    });
  }
});
