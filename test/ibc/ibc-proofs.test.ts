/**
 * IBC on provable stores: `abci_query` with `prove: true` over the CometBFT RPC answers ICS-23
 * proofs that `@confio/ics23` verifies against the next header's app hash (existence,
 * non-existence, a past height), and the chains verify the proofs relay messages carry: a forged
 * or empty proof is refused with ibc-go's error from any account, an honest relay by an account
 * that is not the network's relayer succeeds, and a timeout of a received packet is refused.
 */
import { calculateExistenceRoot, iavlSpec, ics23, tendermintSpec, verifyMembership, verifyNonMembership } from '@confio/ics23';
import { stringToPath } from '@cosmjs/crypto';
import { DirectEthSecp256k1HdWallet, DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient, type DeliverTxResponse } from '@cosmjs/stargate';
import { Any } from 'cosmjs-types/google/protobuf/any';
import type { Packet } from 'cosmjs-types/ibc/core/channel/v1/channel';
import { ClientState } from 'cosmjs-types/ibc/lightclients/tendermint/v1/tendermint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubChain } from '../../src/chains/hub/start.js';
import { toBech32 } from '../../src/crypto/bech32.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { packetOfEvent } from '../../src/ibc/ibc-events.js';
import { hostKeys, packetCommitment } from '../../src/ibc/keys.js';
import { tmHeaderAny, tmHeaderOf } from '../../src/ibc/tm-header-codec.js';
import { encodeMerkleProof } from '../../src/ibc/proofs.js';
import type { Network } from '../../src/network/network.js';
import type { ChainletNode } from '../../src/node/node.js';
import { startEvmHubNetwork } from '../helpers/ibc-network.js';

let network: Network;
let hub: HubChain;
let evm: ChainletNode;

beforeAll(async () => {
  ({ network, hub } = await startEvmHubNetwork());
  evm = network.evm!;
});
afterAll(async () => {
  await network?.stop();
});

interface QueryAnswer {
  code: number;
  log: string;
  key: string | null;
  value: string | null;
  proofOps: { ops: { type: string; key: string; data: string }[] } | null;
  height: string;
}

async function rpc<T>(url: string, method: string, params: Record<string, unknown>): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const j = (await res.json()) as { result?: T; error?: unknown };
  if (j.result === undefined) throw new Error(`${method}: ${JSON.stringify(j.error)}`);
  return j.result;
}

/** `abci_query` of an IBC store key with `prove: true`, over the chain's CometBFT RPC. */
async function queryIbc(url: string, key: string, height: number): Promise<QueryAnswer> {
  const data = Buffer.from(key).toString('hex');
  return (await rpc<{ response: QueryAnswer }>(url, 'abci_query', { path: '/store/ibc/key', data, height: String(height), prove: true })).response;
}

/** The app hash in the header of `height` (the state after `height - 1`). */
async function appHashAt(url: string, height: number): Promise<Uint8Array> {
  const r = await rpc<{ block: { header: { app_hash: string } } }>(url, 'block', { height: String(height) });
  return Uint8Array.from(Buffer.from(r.block.header.app_hash, 'hex'));
}

const proofsOf = (a: QueryAnswer) => a.proofOps!.ops.map((o) => ics23.CommitmentProof.decode(Buffer.from(o.data, 'base64')));

/** The chained check ibc-go makes: the key in the IBC store, the store's root in the app hash. */
function verifyChained(a: QueryAnswer, key: string, appHash: Uint8Array): boolean {
  const [inStore, inApp] = proofsOf(a);
  const k = new TextEncoder().encode(key);
  let subroot: Uint8Array;
  if (a.value === null) {
    const n = inStore!.nonexist!;
    subroot = calculateExistenceRoot((n.left ?? n.right)!);
    if (!verifyNonMembership(inStore!, iavlSpec, subroot, k)) return false;
  } else {
    subroot = calculateExistenceRoot(inStore!.exist!);
    if (!verifyMembership(inStore!, iavlSpec, subroot, k, Buffer.from(a.value, 'base64'))) return false;
  }
  return verifyMembership(inApp!, tendermintSpec, appHash, new TextEncoder().encode('ibc'), subroot);
}

async function hubAccount(index: number) {
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub', hdPaths: [hdPath(118, index)] });
  const [acc] = await wallet.getAccounts();
  const client = await SigningStargateClient.connectWithSigner(hub.urls.rpc!, wallet, { gasPrice: GasPrice.fromString('0uhub'), broadcastPollIntervalMs: 50 });
  return { client, from: acc!.address };
}

const hdPath = (coin: number, index: number) => stringToPath(`m/44'/${coin}'/0'/0/${index}`);

/** A transfer from the EVM chain's first dev account to a hub address; returns the packet. */
async function sendFromEvm(receiver: string, timeoutHeight?: { revisionNumber: bigint; revisionHeight: bigint }): Promise<Packet> {
  const prefix = evm.internals.app.evm.bech32Prefix;
  const denom = evm.internals.app.evm.denom;
  const wallet = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix });
  const [acc] = await wallet.getAccounts();
  const client = await SigningStargateClient.connectWithSigner(evm.urls.rpc!, wallet, {
    gasPrice: GasPrice.fromString(`2000000000${denom}`),
    broadcastPollIntervalMs: 50,
  });
  const r = await client.sendIbcTokens(
    acc!.address,
    receiver,
    { denom, amount: '1000' },
    'transfer',
    'channel-0',
    timeoutHeight,
    timeoutHeight ? undefined : Math.floor(Date.now() / 1000) + 600,
    { amount: [{ denom, amount: (2_000_000_000n * 400_000n).toString() }], gas: '400000' },
  );
  client.disconnect();
  expect(r.code).toBe(0);
  const e = r.events.find((x) => x.type === 'send_packet')!;
  return packetOfEvent({ type: e.type, attributes: e.attributes.map((a) => ({ key: a.key, value: a.value, index: true })) });
}

/** MsgUpdateClient of the hub's client of the EVM chain to the EVM chain's latest header (after one more block). */
async function hubClientUpdate(signer: string): Promise<{ msg: { typeUrl: string; value: unknown }; proofHeight: bigint }> {
  await evm.mine(1);
  const h = evm.height;
  const meta = (await evm.internals.blockStore.loadBlockMeta(h))!;
  const commit = (await evm.internals.blockStore.loadSeenCommit(h))!;
  const vals = evm.internals.consensus.state.lastValidators ?? evm.internals.consensus.state.validators;
  const cs = ClientState.decode(Any.decode(hub.app.ibcStore().get(hostKeys.clientState('07-tendermint-0'))!).value);
  const header = tmHeaderAny(tmHeaderOf({ header: meta.header, commit, validators: vals, trustedHeight: cs.latestHeight, trustedValidators: vals }));
  return {
    msg: { typeUrl: '/ibc.core.client.v1.MsgUpdateClient', value: { clientId: '07-tendermint-0', clientMessage: header, signer } },
    proofHeight: BigInt(h),
  };
}

function recvMsg(packet: Packet, proof: Uint8Array, proofHeight: bigint, signer: string) {
  return {
    typeUrl: '/ibc.core.channel.v1.MsgRecvPacket',
    value: { packet, proofCommitment: proof, proofHeight: { revisionNumber: 1n, revisionHeight: proofHeight }, signer },
  };
}

async function merkleProofOf(url: string, key: string, height: number): Promise<Uint8Array> {
  const a = await queryIbc(url, key, height);
  return encodeMerkleProof(a.proofOps!.ops.map((o) => Uint8Array.from(Buffer.from(o.data, 'base64'))));
}

const fee = { amount: [], gas: '2000000' };

describe('abci_query with prove: true', () => {
  it('answers ics23:iavl then ics23:simple proofs that verify against the next header, for present and absent keys', async () => {
    await evm.mine(1);
    const h = evm.height - 1;
    const appHash = await appHashAt(evm.urls.rpc!, h + 1);
    const present = await queryIbc(evm.urls.rpc!, hostKeys.connection('connection-0'), h);
    expect(present.code).toBe(0);
    expect(present.height).toBe(String(h));
    expect(Buffer.from(present.key!, 'base64').toString()).toBe('connections/connection-0');
    expect(present.proofOps!.ops.map((o) => [o.type, Buffer.from(o.key, 'base64').toString()])).toEqual([
      ['ics23:iavl', 'connections/connection-0'],
      ['ics23:simple', 'ibc'],
    ]);
    expect(verifyChained(present, 'connections/connection-0', appHash)).toBe(true);
    // A wrong app hash does not verify.
    expect(
      verifyChained(
        present,
        'connections/connection-0',
        Uint8Array.from(appHash, (b, i) => (i === 0 ? b ^ 1 : b)),
      ),
    ).toBe(false);

    const absentKey = hostKeys.receipt('transfer', 'channel-0', 999_999n);
    const absent = await queryIbc(evm.urls.rpc!, absentKey, h);
    expect(absent.code).toBe(0);
    expect(absent.value).toBeNull();
    expect(verifyChained(absent, absentKey, appHash)).toBe(true);

    // The hub too (its multistore: acc, bank, ibc).
    await hub.mine(1);
    const hh = hub.height - 1;
    const hubPresent = await queryIbc(hub.urls.rpc!, hostKeys.channel('transfer', 'channel-0'), hh);
    expect(verifyChained(hubPresent, hostKeys.channel('transfer', 'channel-0'), await appHashAt(hub.urls.rpc!, hh + 1))).toBe(true);
  });

  it("answers a past height's state, with and without a proof", async () => {
    const key = hostKeys.nextSequenceSend('transfer', 'channel-0');
    await evm.mine(1);
    const before = evm.height;
    const old = await queryIbc(evm.urls.rpc!, key, before);
    const { from } = await hubAccount(1);
    await network.relayer!.idle();
    await sendFromEvm(from);
    await network.relayer!.idle();
    await evm.mine(1);
    const now = await queryIbc(evm.urls.rpc!, key, evm.height - 1);
    expect(Buffer.from(now.value!, 'base64').readBigUInt64BE(0)).toBe(Buffer.from(old.value!, 'base64').readBigUInt64BE(0) + 1n);
    // The old height still answers its own value, and its proof still verifies against its next header.
    const again = await queryIbc(evm.urls.rpc!, key, before);
    expect(again.value).toBe(old.value);
    expect(again.height).toBe(String(before));
    expect(verifyChained(again, key, await appHashAt(evm.urls.rpc!, before + 1))).toBe(true);
    const plain = (
      await rpc<{ response: QueryAnswer }>(evm.urls.rpc!, 'abci_query', {
        path: '/store/ibc/key',
        data: Buffer.from(key).toString('hex'),
        height: String(before),
      })
    ).response;
    expect(plain.value).toBe(old.value);
    expect(plain.proofOps).toBeNull();
  });

  it('refuses a proof at a height the chain has not reached, and an unknown store', async () => {
    const future = await queryIbc(evm.urls.rpc!, 'connections/connection-0', evm.height + 10);
    expect(future.code).toBe(26);
    const unknown = (await rpc<{ response: QueryAnswer }>(evm.urls.rpc!, 'abci_query', { path: '/store/nope/key', data: '00', prove: true })).response;
    expect(unknown.code).toBe(6);
    expect(unknown.log).toMatch(/no such store: nope/);
  });
});

describe('relay messages are verified; anyone may relay', () => {
  it('refuses a forged or empty receive proof from any account, and takes an honest relay by an account that is not the relayer', async () => {
    network.relayer!.pause();
    try {
      const user = await hubAccount(2);
      const packet = await sendFromEvm(user.from);
      const { msg: update, proofHeight } = await hubClientUpdate(user.from);
      const at = Number(proofHeight) - 1;
      const commitmentKey = hostKeys.commitment(packet.sourcePort, packet.sourceChannel, packet.sequence);

      // A proof of another key (the packet's own channel end) for the commitment: refused.
      const wrong = await merkleProofOf(evm.urls.rpc!, hostKeys.channel('transfer', 'channel-0'), at);
      const forged: DeliverTxResponse = await user.client.signAndBroadcast(user.from, [update, recvMsg(packet, wrong, proofHeight, user.from)], fee);
      expect(forged.code).toBe(2);
      expect(forged.rawLog).toMatch(/failed packet commitment verification for client \(07-tendermint-0\): .*invalid proof/);
      // An empty proof: ibc-go's "proof cannot be empty".
      const empty = await user.client.signAndBroadcast(user.from, [update, recvMsg(packet, new Uint8Array(0), proofHeight, user.from)], fee);
      expect(empty.code).toBe(4);
      expect(empty.rawLog).toMatch(/failed packet commitment verification for client \(07-tendermint-0\): proof cannot be empty: invalid merkle proof/);
      // A data change the commitment does not cover: the real proof, another packet.
      const proof = await merkleProofOf(evm.urls.rpc!, commitmentKey, at);
      const altered = { ...packet, data: new TextEncoder().encode(new TextDecoder().decode(packet.data).replace('"1000"', '"9000"')) };
      expect(packetCommitment(altered.timeoutTimestamp, 0n, 0n, altered.data)).not.toEqual(packetCommitment(packet.timeoutTimestamp, 0n, 0n, packet.data));
      const inflated = await user.client.signAndBroadcast(user.from, [update, recvMsg(altered, proof, proofHeight, user.from)], fee);
      expect(inflated.code).toBe(2);
      expect(hub.app.ibcStore().has(hostKeys.receipt(packet.destinationPort, packet.destinationChannel, packet.sequence))).toBe(false);

      // The honest relay, by the same (non-relayer) account: received.
      const honest = await user.client.signAndBroadcast(user.from, [update, recvMsg(packet, proof, proofHeight, user.from)], fee);
      expect(honest.code).toBe(0);
      expect(honest.events.map((e) => e.type)).toEqual(expect.arrayContaining(['update_client', 'recv_packet', 'write_acknowledgement']));
      expect(hub.app.ibcStore().has(hostKeys.receipt(packet.destinationPort, packet.destinationChannel, packet.sequence))).toBe(true);
      user.client.disconnect();
    } finally {
      network.relayer!.resume();
    }
    await network.relayer!.idle();
  });

  it('refuses a timeout of a packet the destination received (no non-membership proof exists)', async () => {
    network.relayer!.pause();
    try {
      const user = await hubAccount(3);
      // A packet that times out at a hub height a few blocks ahead; received before that.
      const timeoutAt = BigInt(hub.height + 4);
      const packet = await sendFromEvm(user.from, { revisionNumber: 1n, revisionHeight: timeoutAt });
      const { msg: update, proofHeight } = await hubClientUpdate(user.from);
      const proof = await merkleProofOf(evm.urls.rpc!, hostKeys.commitment(packet.sourcePort, packet.sourceChannel, packet.sequence), Number(proofHeight) - 1);
      const recv = await user.client.signAndBroadcast(user.from, [update, recvMsg(packet, proof, proofHeight, user.from)], fee);
      expect(recv.code).toBe(0);
      // The hub moves past the timeout; a timeout on the EVM chain proven at such a height.
      while (BigInt(hub.height) < timeoutAt + 1n) await hub.mine(1);
      await hub.mine(1);
      const dstHeight = hub.height;
      const evmWallet = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: evm.internals.app.evm.bech32Prefix, hdPaths: [hdPath(60, 2)] });
      const [acc] = await evmWallet.getAccounts();
      const denom = evm.internals.app.evm.denom;
      const client = await SigningStargateClient.connectWithSigner(evm.urls.rpc!, evmWallet, { broadcastPollIntervalMs: 50 });
      const meta = (await hub.parts.blockStore.loadBlockMeta(dstHeight))!;
      const commit = (await hub.parts.blockStore.loadSeenCommit(dstHeight))!;
      const vals = hub.validatorSet();
      const cs = ClientState.decode(Any.decode(evm.internals.app.ibcStore().get(hostKeys.clientState('07-tendermint-0'))!).value);
      const header = tmHeaderAny(tmHeaderOf({ header: meta.header, commit, validators: vals, trustedHeight: cs.latestHeight, trustedValidators: vals }));
      const updateEvm = { typeUrl: '/ibc.core.client.v1.MsgUpdateClient', value: { clientId: '07-tendermint-0', clientMessage: header, signer: acc!.address } };
      const timeout = (proofUnreceived: Uint8Array) => ({
        typeUrl: '/ibc.core.channel.v1.MsgTimeout',
        value: { packet, proofUnreceived, proofHeight: { revisionNumber: 1n, revisionHeight: BigInt(dstHeight) }, nextSequenceRecv: 0n, signer: acc!.address },
      });
      const evmFee = { amount: [{ denom, amount: (2_000_000_000n * 2_000_000n).toString() }], gas: '2000000' };
      const receiptKey = hostKeys.receipt(packet.destinationPort, packet.destinationChannel, packet.sequence);
      // The chain's answer for the receipt is an existence proof: not a proof of absence.
      const exists = await client.signAndBroadcast(acc!.address, [updateEvm, timeout(await merkleProofOf(hub.urls.rpc!, receiptKey, dstHeight - 1))], evmFee);
      expect(exists.code).toBe(2);
      expect(exists.rawLog).toMatch(/failed packet receipt absence verification for client \(07-tendermint-0\): got ExistenceProof in VerifyNonMembership/);
      // The absence of another sequence's receipt proves nothing about this one.
      const other = hostKeys.receipt(packet.destinationPort, packet.destinationChannel, 999_999n);
      const elsewhere = await client.signAndBroadcast(acc!.address, [updateEvm, timeout(await merkleProofOf(hub.urls.rpc!, other, dstHeight - 1))], evmFee);
      expect(elsewhere.code).toBe(2);
      expect(elsewhere.rawLog).toMatch(/failed packet receipt absence verification/);
      // The packet is still committed on the EVM chain: no refund.
      expect(evm.internals.app.ibcStore().has(hostKeys.commitment(packet.sourcePort, packet.sourceChannel, packet.sequence))).toBe(true);
      client.disconnect();
      user.client.disconnect();
    } finally {
      network.relayer!.resume();
    }
    await network.relayer!.idle();
  });
});
