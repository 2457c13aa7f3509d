/**
 * Impersonated senders (anvil_impersonateAccount / hardhat_impersonateAccount): a tx "from" an
 * address nobody holds the key of. It travels like any tx (mempool, blocks, receipts) with a
 * marker signature that names its sender:
 *
 *   r = keccak256("chainlet:impersonated-sender")      s = the sender address (160 bits)
 *   yParity 0 (typed txs) · v = 2·chainId + 35 (legacy, EIP-155)
 *
 * Such a tx is accepted (CheckTx, PrepareProposal, FinalizeBlock) only while its sender is in the
 * node's impersonation set: the app's decoded-tx cache swaps in a view of the tx whose
 * `getSenderAddress()` returns that sender. With any other sender the marker is an invalid
 * signature and the tx is refused as usual. Its hash is the keccak of its bytes, as for any tx.
 */
import type { Common } from '@ethereumjs/common';
import { createTx, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx';
import { Address, bytesToBigInt } from '@ethereumjs/util';
import type { DecodedTx } from './tx-decode.js';

/** keccak256("chainlet:impersonated-sender") (a test derives it; written out so a start hashes nothing). */
export const IMPERSONATION_R = 0xa3642e1a8b7da161cc84642f7be47aa19c4bcc5881b91bb87477766101e39734n;
const MAX_ADDRESS = (1n << 160n) - 1n;

/** The addresses whose txs are accepted without a key; `auto` accepts every sender (anvil_autoImpersonateAccount). */
export class ImpersonationSet {
  private readonly addresses = new Set<string>();
  auto = false;

  add(address: string): void {
    this.addresses.add(address.toLowerCase());
  }

  remove(address: string): boolean {
    return this.addresses.delete(address.toLowerCase());
  }

  has(address: string): boolean {
    return this.auto || this.addresses.has(address.toLowerCase());
  }

  list(): string[] {
    return [...this.addresses];
  }

  clear(): void {
    this.addresses.clear();
    this.auto = false;
  }
}

/** The sender a marker signature names, or undefined when the tx carries a real signature. */
export function impersonatedSender(tx: TypedTransaction): Address | undefined {
  if (tx.r !== IMPERSONATION_R || tx.s === undefined || tx.s > MAX_ADDRESS) return undefined;
  return new Address(Uint8Array.from(Buffer.from(tx.s.toString(16).padStart(40, '0'), 'hex')));
}

/** A tx carrying the marker signature for `from` (unsigned fields as for `createTx`). */
export function impersonatedTx(data: TypedTxData, from: Address, common: Common): TypedTransaction {
  const type = Number(data.type ?? 0);
  const v = type === 0 ? common.chainId() * 2n + 35n : 0n;
  return createTx({ ...data, v, r: IMPERSONATION_R, s: bytesToBigInt(from.bytes) } as TypedTxData, { common });
}

/** The decoded-tx cache transform: marker-signed txs of impersonated senders get their sender. */
export function impersonationTransform(set: ImpersonationSet): (d: DecodedTx) => DecodedTx {
  return (d) => {
    if (d.kind !== 'eth') return d;
    const sender = impersonatedSender(d.tx);
    if (sender === undefined || !set.has(sender.toString())) return d;
    if (d.senderHex === sender.toString()) return d; // already this sender's view
    const tx = Object.create(d.tx, {
      getSenderAddress: { value: () => sender },
      isSigned: { value: () => true },
      verifySignature: { value: () => true },
    }) as TypedTransaction;
    return { ...d, tx, sender, senderHex: sender.toString() };
  };
}
