/**
 * Field writers with gogoproto/proto3 semantics on top of the protobufjs `Writer`:
 * zero scalars, empty strings and empty bytes are omitted; embedded messages are written whenever
 * the caller asks (gogoproto `nullable=false` fields are always present, even when empty).
 */
import protobuf from './protobuf-runtime.js';
import { transientBytes } from './byte-slab.js';

export type ProtoWriter = protobuf.Writer;

const VARINT = 0;
const FIXED64 = 1;
const LEN = 2;

/** A plain protobufjs Writer (not the Buffer subclass), so results are plain Uint8Arrays. */
export function newWriter(): ProtoWriter {
  return new protobuf.Writer();
}

/**
 * The written bytes, exactly sized, in the transient slab (byte-slab.ts): these encodings feed
 * hashes and signatures (header fields, sign bytes, a block's part set) and are dropped. A caller
 * that keeps one copies it. (`Writer#finish` hands out views into protobufjs's pool.)
 */
export function finish(w: ProtoWriter): Uint8Array {
  return w.finishInto(transientBytes.alloc(w.pos));
}

/** Runs `body` on a fresh writer and returns the bytes. */
export function encodeWith<T>(body: (w: ProtoWriter, value: T) => void, value: T): Uint8Array {
  const w = newWriter();
  body(w, value);
  return finish(w);
}

function tag(w: ProtoWriter, field: number, wire: number): void {
  w.uint32((field << 3) | wire);
}

function toLong(v: bigint): protobuf.Long {
  const u = BigInt.asUintN(64, v);
  return { low: Number(u & 0xffff_ffffn) | 0, high: Number(u >> 32n) | 0, unsigned: false };
}

/** int32/int64/uint32/uint64/enum as a varint; negatives take 10 bytes as in Go. */
export function varintField(w: ProtoWriter, field: number, v: number | bigint): void {
  if (typeof v === 'bigint') {
    if (v === 0n) return;
    tag(w, field, VARINT);
    w.int64(toLong(v));
    return;
  }
  if (v === 0) return;
  tag(w, field, VARINT);
  w.int64(v);
}

/** sfixed64 (little-endian two's complement, 8 bytes). */
export function sfixed64Field(w: ProtoWriter, field: number, v: number): void {
  if (v === 0) return;
  tag(w, field, FIXED64);
  w.sfixed64(v);
}

export function bytesField(w: ProtoWriter, field: number, b: Uint8Array | null | undefined): void {
  if (!b || b.length === 0) return;
  tag(w, field, LEN);
  w.bytes(b);
}

/** One element of a `repeated bytes` field: written even when empty, as gogoproto does. */
export function repeatedBytesElement(w: ProtoWriter, field: number, b: Uint8Array): void {
  tag(w, field, LEN);
  w.bytes(b);
}

export function stringField(w: ProtoWriter, field: number, s: string): void {
  if (s.length === 0) return;
  tag(w, field, LEN);
  w.string(s);
}

/** An embedded message, always written (possibly with an empty body). */
export function messageField<T>(w: ProtoWriter, field: number, body: (w: ProtoWriter, value: T) => void, value: T): void {
  tag(w, field, LEN);
  w.fork();
  body(w, value);
  w.ldelim();
}

/** `uvarint(len) || bytes`, as CometBFT's protoio.MarshalDelimited frames sign bytes. */
export function lengthDelimited(bytes: Uint8Array): Uint8Array {
  const w = newWriter();
  w.bytes(bytes);
  return finish(w);
}
