/**
 * The `txpool` namespace in geth's shapes, from the mempool's per-sender nonce queues:
 * `pending` = executable now (contiguous nonces from the sender's state nonce), `queued` = held
 * behind a nonce gap. Senders are checksummed addresses, nonces decimal strings, as geth writes
 * them; a tx is the RPC transaction object of a pending tx (block fields null, gasPrice = fee cap).
 *
 * The mempool is read through `env.txpool.content()` (EthTxPool gains `content` when this
 * namespace is wired: `content: () => node.internals.mempool.content()` in src/node/rpc-eth.ts).
 */
import { Capability, createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { Address, toChecksumAddress } from '@ethereumjs/util';
import { TX_DECODE_OPTS } from '../../../app/chain-common.js';
import type { MempoolContent, MempoolTx } from '../../../mempool/types.js';
import type { EthEnv } from '../env.js';
import { formatTx, type Json } from '../format.js';
import { quantity } from '../hex.js';
import { addressOf, required } from '../params.js';
import { route } from '../route.js';

/** What the txpool handlers need of the mempool. */
export interface TxpoolSource {
  content(): MempoolContent;
}

export class TxpoolNotWiredError extends Error {
  override name = 'TxpoolNotWiredError';
  constructor() {
    super('txpool: the eth environment does not expose the mempool (EthTxPool.content is missing)');
  }
}

function sourceOf(env: EthEnv): TxpoolSource {
  const pool = env.txpool as EthEnv['txpool'] & Partial<TxpoolSource>;
  if (typeof pool.content !== 'function') throw new TxpoolNotWiredError();
  return pool as TxpoolSource;
}

type ByNonce<T> = Record<string, T>;
type BySender<T> = Record<string, ByNonce<T>>;

interface Decoded {
  tx: TypedTransaction;
  sender: Address;
  hash: Uint8Array;
}

function decode(env: EthEnv, t: MempoolTx): Decoded {
  const tx = createTxFromRLP(t.tx, { common: env.view.common, ...TX_DECODE_OPTS });
  return { tx, sender: new Address(Buffer.from(t.sender.slice(2), 'hex')), hash: t.ethHash ?? tx.hash() };
}

function group<T>(env: EthEnv, queues: Map<string, MempoolTx[]>, show: (d: Decoded) => T): BySender<T> {
  const out: BySender<T> = {};
  for (const [sender, txs] of queues) {
    const byNonce: ByNonce<T> = {};
    for (const t of txs) byNonce[t.nonce.toString()] = show(decode(env, t));
    out[toChecksumAddress(sender)] = byNonce;
  }
  return out;
}

const full = (d: Decoded): Json => formatTx(d.tx, d.sender, d.hash);

/** geth's one-line summary: `0xTo: 1 wei + 21000 gas × 1000000000 wei`. */
function summary(d: Decoded): string {
  const { tx } = d;
  const price = tx.supports(Capability.EIP1559FeeMarket) ? (tx as { maxFeePerGas: bigint }).maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice;
  const to = tx.to === undefined ? 'contract creation' : toChecksumAddress(tx.to.toString());
  return `${to}: ${tx.value} wei + ${tx.gasLimit} gas × ${price} wei`;
}

/** Handler for `txpool_content`. */
export function content(env: EthEnv): { pending: BySender<Json>; queued: BySender<Json> } {
  const c = sourceOf(env).content();
  return { pending: group(env, c.pending, full), queued: group(env, c.queued, full) };
}

/** Handler for `txpool_contentFrom`: one sender's txs. */
export function contentFrom(env: EthEnv, [address]: [Address]): { pending: ByNonce<Json>; queued: ByNonce<Json> } {
  const c = sourceOf(env).content();
  const key = address.toString();
  const one = (queues: Map<string, MempoolTx[]>) => {
    const txs = queues.get(key);
    return txs === undefined ? {} : (group(env, new Map([[key, txs]]), full)[toChecksumAddress(key)] ?? {});
  };
  return { pending: one(c.pending), queued: one(c.queued) };
}

/** Handler for `txpool_inspect`. */
export function inspect(env: EthEnv): { pending: BySender<string>; queued: BySender<string> } {
  const c = sourceOf(env).content();
  return { pending: group(env, c.pending, summary), queued: group(env, c.queued, summary) };
}

/** Handler for `txpool_status`. */
export function status(env: EthEnv): { pending: string; queued: string } {
  const c = sourceOf(env).content();
  let pending = 0;
  let queued = 0;
  for (const txs of c.pending.values()) pending += txs.length;
  for (const txs of c.queued.values()) queued += txs.length;
  return { pending: quantity(pending), queued: quantity(queued) };
}

export const TXPOOL_ROUTES = [
  route('txpool_content', { params: [], handler: content, doc: 'Pending and queued mempool txs per sender and nonce (geth shape).' }),
  route('txpool_contentFrom', {
    params: [required('address', 'Address', addressOf())],
    handler: contentFrom,
    doc: 'Pending and queued txs of one sender, by nonce.',
  }),
  route('txpool_inspect', { params: [], handler: inspect, doc: 'As txpool_content, each tx as `to: value wei + gas gas × price wei`.' }),
  route('txpool_status', { params: [], handler: status, doc: 'Numbers of pending and queued txs.' }),
] as const;
