/**
 * Response envelopes written as strings directly (no intermediate object), keeping the field
 * order `jsonrpc, id, result|error` that CometBFT and geth both use.
 */
import type { JsonRpcError, JsonRpcId } from './types.js';

function idJson(id: JsonRpcId | undefined): string {
  if (typeof id === 'number') return String(id);
  if (typeof id === 'string') return JSON.stringify(id);
  return 'null';
}

/** Throws (TypeError) if `result` is not serialisable (a cycle; a bigint unless `stringify` writes it). */
export function successJson(id: JsonRpcId | undefined, result: unknown, stringify: (value: unknown) => string | undefined = JSON.stringify): string {
  const r = stringify(result);
  return `{"jsonrpc":"2.0","id":${idJson(id)},"result":${r === undefined ? 'null' : r}}`;
}

export function errorJson(id: JsonRpcId | undefined, error: JsonRpcError): string {
  return `{"jsonrpc":"2.0","id":${idJson(id)},"error":${errorObjectJson(error)}}`;
}

function errorObjectJson(error: JsonRpcError): string {
  const head = `{"code":${error.code},"message":${JSON.stringify(error.message)}`;
  if (error.data === undefined) return `${head}}`;
  try {
    const d = JSON.stringify(error.data);
    return d === undefined ? `${head}}` : `${head},"data":${d}}`;
  } catch {
    return `${head},"data":${JSON.stringify(String(error.data))}}`;
  }
}

/** UTF-8 size without encoding when the answer is obvious from the UTF-16 length. */
export function exceedsBytes(text: string, limit: number): boolean {
  if (text.length > limit) return true;
  if (text.length * 3 <= limit) return false;
  return Buffer.byteLength(text) > limit;
}
