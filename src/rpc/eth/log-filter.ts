/**
 * Log filter criteria (eth_getLogs, eth_newFilter, `logs` subscriptions) and the log query over
 * a block range. Blocks whose logs bloom cannot match are skipped without reading receipts; the
 * bloom bits of each criterion are computed once per query. `block-range-cap` and `logs-cap`
 * answer with Cosmos EVM's texts.
 */
import { keccak256 } from '../../crypto/keccak.js';
import type { EvmBlock, EvmLog, EvmReceipt, EvmView } from '../../app/views/evm-view.js';
import { blockNumberOf, type BlockRef } from './block-param.js';
import { GethText, InvalidParamsError, ServerError } from './errors.js';
import { formatLog, type Json } from './format.js';
import { addressOf, hashOf, jsonKind, objectOf, ParamDecodeError, type Decoder } from './params.js';

export interface LogCriteria {
  blockHash?: Uint8Array;
  fromBlock?: BlockRef;
  toBlock?: BlockRef;
  /** Empty: any address. */
  addresses: Uint8Array[];
  /** Per position: null = any, else one of the listed topics. */
  topics: (Uint8Array[] | null)[];
}

const MAX_TOPICS = 4;

export const logCriteriaOf: Decoder<LogCriteria> = (raw) => {
  const o = objectOf(raw, 'filters.FilterCriteria');
  const present = (k: string) => o[k] !== undefined && o[k] !== null;
  if (present('blockHash') && (present('fromBlock') || present('toBlock'))) {
    throw new ParamDecodeError('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
  }
  const c: LogCriteria = { addresses: [], topics: [] };
  if (present('blockHash')) c.blockHash = hashOf('FilterCriteria.blockHash')(o['blockHash']);
  if (present('fromBlock')) c.fromBlock = blockNumberOf(o['fromBlock']);
  if (present('toBlock')) c.toBlock = blockNumberOf(o['toBlock']);
  const addr = o['address'];
  if (typeof addr === 'string') c.addresses = [addressOf()(addr).bytes];
  else if (Array.isArray(addr)) c.addresses = addr.map((a) => addressOf()(a).bytes);
  else if (addr !== undefined && addr !== null) throw new ParamDecodeError('invalid addresses in query');
  const topics = o['topics'];
  if (topics !== undefined && topics !== null) {
    if (!Array.isArray(topics)) throw new ParamDecodeError(`json: cannot unmarshal ${jsonKind(topics)} into Go value of type []interface {}`);
    if (topics.length > MAX_TOPICS) throw new InvalidParamsError('exceed max topics');
    c.topics = topics.map((t): Uint8Array[] | null => {
      if (t === null) return null;
      if (typeof t === 'string') return [hashOf()(t)];
      if (Array.isArray(t)) {
        if (t.some((x) => x === null)) return null;
        return t.map((x) => hashOf()(x));
      }
      throw new ParamDecodeError('invalid topic(s)');
    });
  }
  return c;
};

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

export function matchLog(log: EvmLog, c: LogCriteria): boolean {
  if (c.addresses.length > 0 && !c.addresses.some((a) => equal(a, log.address.bytes))) return false;
  if (c.topics.length > log.topics.length) return false;
  for (let i = 0; i < c.topics.length; i++) {
    const want = c.topics[i];
    if (want && !want.some((t) => equal(t, log.topics[i]!))) return false;
  }
  return true;
}

/** The three (byte, mask) pairs a value sets in a logs bloom. */
type BloomBits = [number, number, number, number, number, number];

function bloomBits(v: Uint8Array): BloomBits {
  const h = keccak256(v);
  const out: number[] = [];
  for (let i = 0; i < 6; i += 2) {
    const bit = ((h[i]! << 8) | h[i + 1]!) & 2047;
    out.push(255 - (bit >> 3), 1 << (bit & 7));
  }
  return out as BloomBits;
}

function has(bloom: Uint8Array, b: BloomBits): boolean {
  return (bloom[b[0]]! & b[1]) !== 0 && (bloom[b[2]]! & b[3]) !== 0 && (bloom[b[4]]! & b[5]) !== 0;
}

/** A bloom test for a whole criteria: false means no log of the block can match. */
export function bloomTester(c: LogCriteria): (bloom: Uint8Array) => boolean {
  const groups: BloomBits[][] = [];
  if (c.addresses.length > 0) groups.push(c.addresses.map(bloomBits));
  for (const t of c.topics) if (t) groups.push(t.map(bloomBits));
  return (bloom) => !isEmptyBloom(bloom) && groups.every((g) => g.some((b) => has(bloom, b)));
}

/** A block without logs has an all-zero bloom. */
function isEmptyBloom(bloom: Uint8Array): boolean {
  for (let i = 0; i < bloom.length; i++) if (bloom[i] !== 0) return false;
  return true;
}

export interface LogLimits {
  logsCap: number;
  blockRangeCap: number;
}

/** Matching logs of one block, formatted. */
export function blockLogs(block: EvmBlock, receipts: EvmReceipt[], c: LogCriteria, out: Json[]): void {
  for (const r of receipts) for (const l of r.logs) if (matchLog(l, c)) out.push(formatLog(l, r, block.timestamp));
}

/** Resolves a filter bound: tags to the latest height (earliest to 1); undefined = latest. */
export function boundHeight(ref: BlockRef | undefined, latest: number): number {
  if (ref === undefined) return latest;
  if (ref.kind === 'number') return ref.number;
  if (ref.kind === 'tag') return ref.tag === 'earliest' ? 1 : latest;
  throw new InvalidParamsError('block hash is not a valid filter bound');
}

/** eth_getLogs over a range or one block hash. */
export async function queryLogs(view: EvmView, c: LogCriteria, limits: LogLimits): Promise<Json[]> {
  const out: Json[] = [];
  const test = bloomTester(c);
  if (c.blockHash) {
    const block = await view.getBlockByHash(c.blockHash);
    if (!block) throw new ServerError(GethText.unknownBlock);
    if (test(block.logsBloom)) blockLogs(block, await view.getReceipts(block.number), c, out);
    return out;
  }
  const latest = view.latestHeight();
  const fromReq = boundHeight(c.fromBlock, latest);
  const toReq = boundHeight(c.toBlock, latest);
  if (fromReq > toReq) throw new ServerError(GethText.invalidBlockRange);
  // The cap applies to the range asked for, before it is clipped to the chain.
  if (toReq - fromReq > limits.blockRangeCap) throw new ServerError(GethText.blockRangeCap(limits.blockRangeCap));
  const from = Math.max(fromReq, 1);
  const to = Math.min(toReq, latest);
  // The blooms are read without decoding the blocks; only a block whose bloom passes is decoded
  // (decoding each took ≈ 28 µs: 28 ms for a query over 1000 blocks).
  for await (const [h, bloom] of view.blooms(from, to)) {
    if (!test(bloom)) continue;
    const block = await view.getBlock(h);
    if (!block) continue;
    blockLogs(block, await view.getReceipts(h), c, out);
    if (limits.logsCap > 0 && out.length > limits.logsCap) throw new ServerError(GethText.logsCap(limits.logsCap));
  }
  return out;
}
