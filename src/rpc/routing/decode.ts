/**
 * Request decoders: query strings and JSON bodies into typed parameters, with the API's own error
 * texts. Decoders check shape only; whether a chain is hosted or a tx exists is the handlers' job.
 */
import { base58 } from '@scure/base';
import { InvalidArgumentError, TxNotBase64Error } from './errors.js';

/** What the server hands to a route's decoder. */
export interface RequestInput {
  query: URLSearchParams;
  /** The parsed JSON body (POST), else undefined. */
  body: unknown;
  /** Values of `:name` segments of the route's path. */
  pathParams: Record<string, string>;
  /** Request headers (lower-case names) and the unparsed body, for routes that read them (explorer proxies). */
  headers?: Readonly<Record<string, string>>;
  rawBody?: Uint8Array;
}

export interface ChainsQuery {
  /** Empty = all chains. */
  chainIds: string[];
  includeEvm: boolean;
  includeSvm: boolean;
  onlyTestnets: boolean;
}

export interface BalanceQueryEntry {
  address: string;
  denoms: string[];
}

export interface BalancesRequest {
  /** In request order. */
  chains: [chainId: string, entry: BalanceQueryEntry][];
}

export interface SubmitRequest {
  chainId: string;
  tx: Uint8Array;
}

export interface TxRef {
  chainId: string;
  txHash: Uint8Array;
}

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;
const BASE64URL_RE = /^[A-Za-z0-9_-]+={0,2}$/;
const HASH_RE = /^(?:0x|0X)?([0-9a-fA-F]{64})$/;
const SIGNATURE_RE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;

export function parseBool(q: URLSearchParams, name: string, dflt: boolean): boolean {
  const v = q.get(name);
  if (v === null || v === '') return dflt;
  switch (v.toLowerCase()) {
    case 'true':
    case '1':
    case 't':
      return true;
    case 'false':
    case '0':
    case 'f':
      return false;
    default:
      throw new InvalidArgumentError(`invalid value "${v}" for ${name}: expected true or false`);
  }
}

/** Repeated keys (`chain_ids=a&chain_ids=b`, the official client's form), `chain_ids[]=`, or comma lists. */
export function stringList(q: URLSearchParams, name: string): string[] {
  const raw = [...q.getAll(name), ...q.getAll(`${name}[]`)];
  return raw
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function decodeChainsQuery(input: RequestInput): ChainsQuery {
  const q = input.query;
  return {
    chainIds: stringList(q, 'chain_ids'),
    includeEvm: parseBool(q, 'include_evm', false),
    includeSvm: parseBool(q, 'include_svm', false),
    onlyTestnets: parseBool(q, 'only_testnets', false),
  };
}

/** A JSON object, else InvalidArgument `<what> must be a JSON object`. */
export function asObject(body: unknown, what: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidArgumentError(`${what} must be a JSON object`);
  return body as Record<string, unknown>;
}

export function decodeBalancesBody(input: RequestInput): BalancesRequest {
  const body = asObject(input.body, 'request body');
  const chains = asObject(body.chains ?? {}, 'chains');
  const out: BalancesRequest['chains'] = [];
  for (const [chainId, v] of Object.entries(chains)) {
    const e = asObject(v, `chains.${chainId}`);
    if (typeof e.address !== 'string' || e.address === '') throw new InvalidArgumentError(`chains.${chainId}.address is required`);
    const denoms = e.denoms ?? [];
    if (!Array.isArray(denoms) || !denoms.every((d): d is string => typeof d === 'string')) {
      throw new InvalidArgumentError(`chains.${chainId}.denoms must be an array of strings`);
    }
    out.push([chainId, { address: e.address, denoms }]);
  }
  if (out.length === 0) throw new InvalidArgumentError('chains must name at least one chain');
  return { chains: out };
}

/** Standard base64 (padding optional) or base64url; anything else is `tx must be base64 encoded`. */
export function decodeBase64Tx(v: unknown): Uint8Array {
  if (typeof v !== 'string') throw new TxNotBase64Error();
  const s = v.trim();
  if (s === '') throw new TxNotBase64Error();
  if (BASE64_RE.test(s)) return new Uint8Array(Buffer.from(s, 'base64'));
  if (BASE64URL_RE.test(s) && s.replace(/=+$/, '').length % 4 !== 1) return new Uint8Array(Buffer.from(s, 'base64url'));
  throw new TxNotBase64Error();
}

function chainIdOf(v: unknown): string {
  return typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
}

export function decodeSubmitBody(input: RequestInput): SubmitRequest {
  const body = asObject(input.body, 'request body');
  return { tx: decodeBase64Tx(body.tx), chainId: chainIdOf(body.chain_id) };
}

/** A 32-byte hash as hex (with or without 0x, any case), or a 64-byte Solana signature in base58. */
export function parseTxHash(v: unknown, field = 'tx_hash'): Uint8Array {
  if (typeof v !== 'string' || v.trim() === '') throw new InvalidArgumentError(`${field} is required`);
  const m = HASH_RE.exec(v.trim());
  if (m) return new Uint8Array(Buffer.from(m[1]!, 'hex'));
  if (SIGNATURE_RE.test(v.trim())) {
    const sig = base58.decode(v.trim());
    if (sig.length === 64) return sig;
  }
  throw new InvalidArgumentError(`${field} must be a hex encoded 32-byte transaction hash or a base58 Solana signature`);
}

export function decodeTrackBody(input: RequestInput): TxRef {
  const body = asObject(input.body, 'request body');
  return { txHash: parseTxHash(body.tx_hash), chainId: chainIdOf(body.chain_id) };
}

export function decodeStatusQuery(input: RequestInput): TxRef {
  return { txHash: parseTxHash(input.query.get('tx_hash') ?? undefined), chainId: chainIdOf(input.query.get('chain_id') ?? '') };
}

export function decodeExplorerPath(input: RequestInput): { txHash: Uint8Array } {
  return { txHash: parseTxHash(input.pathParams.hash, 'hash') };
}

export function decodeNothing(): Record<string, never> {
  return {};
}
