import { describe, expect, it } from 'vitest';
import { ParamError } from './errors.js';
import { decodeGoBase64, decodeGoHex, p } from './params.js';

const reason = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ParamError) return err.reason;
    throw err;
  }
  throw new Error('expected a ParamError');
};

describe('JSON-RPC decoding (cmtjson)', () => {
  it('takes 64-bit integers only as strings', () => {
    const h = p.int64Ptr('height');
    expect(h.fromJson('5')).toBe(5);
    expect(h.fromJson(null)).toBeUndefined();
    expect(h.fromJson(undefined)).toBeUndefined();
    expect(reason(() => h.fromJson(5))).toBe('invalid 64-bit integer encoding "5", expected string');
    expect(reason(() => h.fromJson('abc'))).toBe("invalid character 'a' looking for beginning of value");
    expect(reason(() => h.fromJson('5.5'))).toBe('json: cannot unmarshal number 5.5 into Go value of type int64');
    expect(reason(() => p.uint('chunk').fromJson('-1'))).toBe('json: cannot unmarshal number -1 into Go value of type uint');
    expect(reason(() => h.fromJson('99999999999999999999'))).toBe('json: cannot unmarshal number 99999999999999999999 into Go value of type int64');
    expect(p.int64('minHeight').fromJson(undefined)).toBe(0);
  });

  it('decodes []byte as base64 and HexBytes as hex', () => {
    expect(p.bytes('tx').fromJson('AQID')).toEqual(new Uint8Array([1, 2, 3]));
    expect(reason(() => p.bytes('tx').fromJson(12))).toBe('json: cannot unmarshal number into Go value of type []uint8');
    expect(reason(() => p.bytes('tx').fromJson('AQI'))).toBe('illegal base64 data at input byte 0');
    expect(reason(() => p.bytes('tx').fromJson('AQ!D'))).toBe('illegal base64 data at input byte 2');
    expect(p.hexBytes('data').fromJson('0aFF')).toEqual(new Uint8Array([0x0a, 0xff]));
    expect(reason(() => p.hexBytes('data').fromJson('0x0a'))).toBe("encoding/hex: invalid byte: U+0078 'x'");
    expect(reason(() => p.hexBytes('data').fromJson('abc'))).toBe('encoding/hex: odd length hex string');
    expect(reason(() => p.hexBytes('data').fromJson(5))).toBe('invalid hex string: 5');
  });

  it('checks bools, strings and string lists', () => {
    expect(p.bool('prove').fromJson(true)).toBe(true);
    expect(reason(() => p.bool('prove').fromJson('true'))).toBe('json: cannot unmarshal string into Go value of type bool');
    expect(reason(() => p.string('query').fromJson(1))).toBe('json: cannot unmarshal number into Go value of type string');
    expect(p.strings('peers').fromJson(['a', 'b'])).toEqual(['a', 'b']);
    expect(reason(() => p.strings('peers').fromJson('a'))).toBe('json: cannot unmarshal string into Go value of type []json.RawMessage');
  });

  it('decodes amino interfaces with a known type only', () => {
    const ev = p.amino('evidence', 'types.Evidence', ['tendermint/DuplicateVoteEvidence']);
    expect(ev.fromJson({ type: 'tendermint/DuplicateVoteEvidence', value: {} })).toEqual({ type: 'tendermint/DuplicateVoteEvidence', value: {} });
    expect(reason(() => ev.fromJson({ type: 'x/Y', value: {} }))).toBe('unknown type "x/Y"');
  });
});

describe('URI decoding (http_uri_handler)', () => {
  it('reads bare integers for integer types and JSON otherwise', () => {
    expect(p.int64Ptr('height').fromUri('5')).toBe(5);
    expect(p.int64Ptr('height').fromUri('"7"')).toBe(7);
    expect(reason(() => p.int64Ptr('height').fromUri('abc'))).toBe("invalid character 'a' looking for beginning of value");
    expect(p.bool('prove').fromUri('true')).toBe(true);
    expect(p.string('query').fromUri(`"tm.event='Tx'"`)).toBe("tm.event='Tx'");
    expect(reason(() => p.string('path').fromUri('/evm/balance'))).toBe("invalid character '/' looking for beginning of value");
    expect(p.strings('peers').fromUri('["a@b:1"]')).toEqual(['a@b:1']);
  });

  it('hex-decodes 0x values for string and byte targets only', () => {
    expect(p.bytes('hash').fromUri('0xABCD')).toEqual(new Uint8Array([0xab, 0xcd]));
    expect(p.hexBytes('data').fromUri('0x0a')).toEqual(new Uint8Array([0x0a]));
    expect(p.string('path').fromUri('0x2f61')).toBe('/a');
    expect(reason(() => p.int64Ptr('height').fromUri('0x10'))).toBe("got a hex string arg, but expected 'int64'");
    expect(reason(() => p.bool('prove').fromUri('0x01'))).toBe("got a hex string arg, but expected 'bool'");
  });

  it('takes a quoted value for a byte target as its raw bytes', () => {
    expect(p.bytes('tx').fromUri('"abc"')).toEqual(new TextEncoder().encode('abc'));
    expect(p.hexBytes('data').fromUri('"AB"')).toEqual(new TextEncoder().encode('AB'));
  });
});

describe('Go codecs', () => {
  it('reports base64 errors at Go offsets', () => {
    expect(decodeGoBase64('AQID')).toEqual(new Uint8Array([1, 2, 3]));
    expect(decodeGoBase64('AQ==')).toEqual(new Uint8Array([1]));
    expect(decodeGoBase64('')).toEqual(new Uint8Array(0));
    expect(reason(() => decodeGoBase64('AQIDBA'))).toBe('illegal base64 data at input byte 4');
    expect(reason(() => decodeGoBase64('AQ='))).toBe('illegal base64 data at input byte 3');
    expect(reason(() => decodeGoBase64('AQ==AQ=='))).toBe('illegal base64 data at input byte 4');
    expect(reason(() => decodeGoBase64('A==='))).toBe('illegal base64 data at input byte 1');
  });

  it('reports hex errors as encoding/hex', () => {
    expect(decodeGoHex('')).toEqual(new Uint8Array(0));
    expect(reason(() => decodeGoHex('zz'))).toBe("encoding/hex: invalid byte: U+007A 'z'");
  });
});
