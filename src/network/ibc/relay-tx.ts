/**
 * The relayer's txs on one chain: signed and broadcast, waited for until their block (or a
 * timeout), with the counterparty client updated first when the proofs need a newer header, and
 * each packet message's ICS-23 proof read through the chain's ABCI Query.
 */
import type { Logger } from 'pino';
import { Any } from 'cosmjs-types/google/protobuf/any';
import type { Height } from 'cosmjs-types/ibc/core/client/v1/client';
import { ClientState as TmClientState } from 'cosmjs-types/ibc/lightclients/tendermint/v1/tendermint';
import type { AbciEvent } from '../../abci/types.js';
import { toBech32 } from '../../crypto/bech32.js';
import { toHexUpper } from '../../crypto/encoding.js';
import { sha256 } from '../../crypto/hash.js';
import type { Subscription } from '../../events/subscription.js';
import { hostKeys, IBC_STORE_KEY } from '../../ibc/keys.js';
import { tmHeaderAny, tmHeaderOf } from '../../ibc/tm-header-codec.js';
import { encodeIbcMsg, type IbcMsg } from '../../ibc/msgs.js';
import { encodeMerkleProof } from '../../ibc/proofs.js';
import { signRelayTx } from './relayer-key.js';
import type { End, RelayChain } from './relay-types.js';

export class RelayTxSender {
  /** The subscriptions of txs waiting for their block: cancelled at stop (a halted chain never answers). */
  private readonly waiting = new Set<Subscription>();
  private stopped = false;
  private signalStop: () => void = () => undefined;
  /** Resolves at stop(): a block the relayer asked a halted chain for is not waited for past it. */
  private readonly stopSignal = new Promise<void>((resolve) => (this.signalStop = resolve));

  constructor(
    private readonly gasLimit: bigint,
    private readonly inclusionTimeoutMs: number,
    private readonly logger?: Logger,
  ) {}

  /** Refuses new txs, stops waiting for blocks. */
  stop(): void {
    this.stopped = true;
    this.signalStop();
    for (const s of this.waiting) s.cancel('relayer stopped');
  }

  /**
   * A tx on `self`: its client of `other` updated when needed, then the messages, built with the
   * proof height and the height whose state their proofs show (proof height − 1: a header commits
   * to the app hash of the block before it). The proven state must be at least `other`'s committed
   * height now (or `state`): when the client knows no header after it, `other` is updated to its
   * latest header, after one more block of `other` if it has none yet (an idle automine chain).
   */
  async withUpdate(self: End, other: End, msgs: (proofHeight: Height, queryHeight: number) => Promise<IbcMsg[]>, state?: number): Promise<AbciEvent[]> {
    const cs = TmClientState.decode(Any.decode(self.chain.ibcStore().get(hostKeys.clientState(self.clientId))!).value);
    const trusted = Number(cs.latestHeight.revisionHeight);
    const need = (state ?? other.chain.height()) + 1;
    const update: IbcMsg[] = [];
    let proofHeight = cs.latestHeight;
    if (trusted < need) {
      if (other.chain.height() < need) {
        await Promise.race([other.chain.mine(), this.stopSignal]);
        if (this.stopped) throw new Error('relayer stopped');
      }
      const latest = other.chain.height();
      const target = await other.chain.signedHeader(latest);
      const base = await other.chain.signedHeader(trusted);
      if (!target || !base) throw new Error(`relayer: no signed header of ${other.chain.chainId} at ${latest} or ${trusted}`);
      const header = tmHeaderOf({
        header: target.header,
        commit: target.commit,
        validators: target.validators,
        trustedHeight: cs.latestHeight,
        trustedValidators: base.validators,
      });
      update.push({ kind: 'updateClient', m: { clientId: self.clientId, clientMessage: tmHeaderAny(header), signer: this.signer(self) } });
      proofHeight = { revisionNumber: cs.latestHeight.revisionNumber, revisionHeight: BigInt(latest) };
    }
    return this.submit(self, [...update, ...(await msgs(proofHeight, Number(proofHeight.revisionHeight) - 1))]);
  }

  /** The ICS-23 proof (MerkleProof bytes) of `key` in `end`'s IBC store at `height`, through its ABCI Query as any relayer asks it. */
  async prove(end: End, key: string, height: number): Promise<Uint8Array> {
    const r = await end.chain.query({ path: `/store/${IBC_STORE_KEY}/key`, data: new TextEncoder().encode(key), height, prove: true });
    if (r.code !== 0 || !r.proofOps) throw new Error(`relayer: no proof of ${key} at height ${height} of ${end.chain.chainId}: ${r.log}`);
    return encodeMerkleProof(r.proofOps.map((op) => op.data));
  }

  /** A packet message with its proof height and its proof from `from` (the commitment, ack or absent receipt). */
  async withProof(m: IbcMsg, h: Height, from: End, at: number): Promise<IbcMsg> {
    switch (m.kind) {
      case 'recvPacket': {
        const p = m.m.packet;
        return {
          kind: m.kind,
          m: { ...m.m, proofHeight: h, proofCommitment: await this.prove(from, hostKeys.commitment(p.sourcePort, p.sourceChannel, p.sequence), at) },
        };
      }
      case 'acknowledgement': {
        const p = m.m.packet;
        return {
          kind: m.kind,
          m: { ...m.m, proofHeight: h, proofAcked: await this.prove(from, hostKeys.ack(p.destinationPort, p.destinationChannel, p.sequence), at) },
        };
      }
      case 'timeout': {
        const p = m.m.packet;
        return {
          kind: m.kind,
          m: { ...m.m, proofHeight: h, proofUnreceived: await this.prove(from, hostKeys.receipt(p.destinationPort, p.destinationChannel, p.sequence), at) },
        };
      }
      default:
        return m;
    }
  }

  signer(end: End): string {
    return toBech32(end.chain.bech32Prefix, end.chain.key.address);
  }

  async latestSigned(chain: RelayChain) {
    const sh = await chain.signedHeader(chain.height());
    if (!sh) throw new Error(`relayer: chain ${chain.chainId} has no signed block yet`);
    return sh;
  }

  /** Signs, broadcasts and waits for the tx's block; resolves with its events, throws on a failed tx. */
  async submit(end: End, msgs: IbcMsg[]): Promise<AbciEvent[]> {
    const c = end.chain;
    for (let attempt = 0; ; attempt++) {
      const tx = signRelayTx({
        key: c.key,
        chainId: c.chainId,
        accountNumber: end.accountNumber,
        sequence: end.sequence,
        msgs: msgs.map(encodeIbcMsg),
        gasLimit: this.gasLimit,
        fee: { denom: c.feeDenom, amount: c.gasPrice() * this.gasLimit },
        memo: 'chainlet-relayer',
      });
      const hash = toHexUpper(sha256(tx));
      if (this.stopped) throw new Error('relayer stopped');
      const sub = c.subscribe(`tm.event = 'Tx' AND tx.hash = '${hash}'`, `relayer-wait-${hash}`);
      this.waiting.add(sub);
      try {
        const check = await c.broadcastTx(tx);
        if (check.code !== 0) {
          const m = /expected (\d+), got/.exec(check.log);
          if (m && attempt === 0) {
            end.sequence = BigInt(m[1]!);
            continue;
          }
          throw new Error(`relayer tx refused on ${c.chainId}: ${check.log}`);
        }
        end.sequence += 1n;
        this.logger?.debug({ chainId: c.chainId, hash, msgs: msgs.map((m) => m.kind) }, 'relay tx sent');
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<'timeout'>((res) => {
          timer = setTimeout(() => res('timeout'), this.inclusionTimeoutMs);
        });
        const msg = await Promise.race([sub.next(), timedOut]).finally(() => clearTimeout(timer));
        if (msg === 'timeout') {
          end.sequence = await c.accountSequence(c.key.address);
          throw new Error(
            `relayer: tx ${hash} was not in a block of ${c.chainId} after ${this.inclusionTimeoutMs} ms; the sequence is read again and the packets retried`,
          );
        }
        if (!msg || msg.data.type !== 'Tx') throw new Error(`relayer: no result for tx ${hash} on ${c.chainId}`);
        const r = msg.data.value.txResult.result;
        if (r.code !== 0) throw new Error(`relayer tx failed on ${c.chainId} (code ${r.code}): ${r.log}`);
        return r.events;
      } finally {
        this.waiting.delete(sub);
        sub.cancel('done');
      }
    }
  }
}
