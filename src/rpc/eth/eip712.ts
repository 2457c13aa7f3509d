/**
 * EIP-712 typed data hashing (eth_signTypedData_v4): encodeType with its sorted dependencies,
 * encodeData field by field (structs and arrays hashed, atomic types as 32-byte words), and the
 * digest keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(message)).
 */
import { keccak256 } from '../../crypto/keccak.js';
import { ParamDecodeError } from './params.js';

export interface TypedField {
  name: string;
  type: string;
}

export interface TypedData {
  types: Record<string, TypedField[]>;
  primaryType: string;
  domain: Record<string, unknown>;
  message: Record<string, unknown>;
}

const DOMAIN_FIELDS: TypedField[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
  { name: 'salt', type: 'bytes32' },
];

const utf8 = new TextEncoder();

export function typedDataOf(raw: unknown): TypedData {
  let v = raw;
  if (typeof raw === 'string') {
    try {
      v = JSON.parse(raw) as unknown;
    } catch (e) {
      throw new ParamDecodeError(`invalid typed data JSON: ${(e as Error).message}`);
    }
  }
  if (typeof v !== 'object' || v === null) throw new ParamDecodeError('typed data must be an object');
  const t = v as Partial<TypedData>;
  if (typeof t.primaryType !== 'string' || typeof t.types !== 'object' || t.types === null) {
    throw new ParamDecodeError('typed data needs types and primaryType');
  }
  // Null prototype: a type named `constructor` or `toString` is looked up in the request's own types only.
  const types = Object.assign(Object.create(null) as TypedData['types'], t.types);
  const domain = (t.domain ?? {}) as Record<string, unknown>;
  types['EIP712Domain'] ??= DOMAIN_FIELDS.filter((f) => domain[f.name] !== undefined);
  return { types, primaryType: t.primaryType, domain, message: (t.message ?? {}) as Record<string, unknown> };
}

function baseType(type: string): string {
  const i = type.indexOf('[');
  return i < 0 ? type : type.slice(0, i);
}

function dependencies(types: TypedData['types'], primary: string, found = new Set<string>()): Set<string> {
  if (found.has(primary) || types[primary] === undefined) return found;
  found.add(primary);
  for (const f of types[primary]!) dependencies(types, baseType(f.type), found);
  return found;
}

export function encodeType(types: TypedData['types'], primary: string): string {
  const deps = [...dependencies(types, primary)].filter((d) => d !== primary).sort();
  return [primary, ...deps].map((t) => `${t}(${types[t]!.map((f) => `${f.type} ${f.name}`).join(',')})`).join('');
}

function word(v: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let x = BigInt.asUintN(256, v);
  for (let i = 31; i >= 0 && x > 0n; i--, x >>= 8n) out[i] = Number(x & 0xffn);
  return out;
}

function bytesOfValue(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (typeof v === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(v)) return Buffer.from(v.slice(2), 'hex');
  throw new ParamDecodeError(`invalid bytes value ${JSON.stringify(v)}`);
}

function intOfValue(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^(-?\d+|0x[0-9a-fA-F]+)$/.test(v)) return BigInt(v);
  throw new ParamDecodeError(`invalid integer value ${JSON.stringify(v)}`);
}

function encodeField(types: TypedData['types'], type: string, value: unknown): Uint8Array {
  if (types[type] !== undefined) return hashStruct(types, type, value as Record<string, unknown>);
  if (type.endsWith(']')) {
    if (!Array.isArray(value)) throw new ParamDecodeError(`expected an array for ${type}`);
    const inner = type.slice(0, type.lastIndexOf('['));
    return keccak256(Buffer.concat(value.map((item) => encodeField(types, inner, item))));
  }
  if (type === 'string') return keccak256(utf8.encode(String(value)));
  if (type === 'bytes') return keccak256(bytesOfValue(value));
  if (type === 'bool') return word(value === true || value === 'true' ? 1n : 0n);
  if (type === 'address') return word(intOfValue(value));
  if (/^bytes\d+$/.test(type)) {
    const out = new Uint8Array(32);
    out.set(bytesOfValue(value).subarray(0, 32));
    return out;
  }
  if (/^u?int\d*$/.test(type)) return word(intOfValue(value));
  throw new ParamDecodeError(`unknown typed data type ${type}`);
}

export function hashStruct(types: TypedData['types'], type: string, value: Record<string, unknown>): Uint8Array {
  const fields = types[type]!;
  const parts: Uint8Array[] = [keccak256(utf8.encode(encodeType(types, type)))];
  for (const f of fields) parts.push(encodeField(types, f.type, value[f.name]));
  return keccak256(Buffer.concat(parts));
}

export function typedDataDigest(td: TypedData): Uint8Array {
  const domain = hashStruct(td.types, 'EIP712Domain', td.domain);
  const parts = [Uint8Array.of(0x19, 0x01), domain];
  if (td.primaryType !== 'EIP712Domain') parts.push(hashStruct(td.types, td.primaryType, td.message));
  return keccak256(Buffer.concat(parts));
}
