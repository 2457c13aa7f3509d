/** The tags of the stored values' compact encoding (value-codec.ts), shared by its writer and readers. */

/** Format 1: lengths and counts as uint32 LE, Int32 as int32 LE, object keys written in full. */
export const FORMAT_1 = 0x01;
/** Format 2: lengths and counts as varints, Int32 zigzag, object key lists once a value, lowercase hex as bytes. */
export const FORMAT_2 = 0x02;
/** v8.serialize's first byte (values of other types, and stores written before format 1). */
export const V8_HEADER = 0xff;

export const enum Tag {
  Undefined = 0,
  Null = 1,
  False = 2,
  True = 3,
  Float64 = 4,
  Int32 = 5,
  BigInt = 6,
  String = 7,
  Bytes = 8,
  Buffer = 9,
  Array = 10,
  Object = 11,
  /** Format 2: a string of lowercase hex digits (even count), kept as its bytes. */
  Hex = 12,
  /** Format 2: the same after a `0x`. */
  Hex0x = 13,
}
