import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_JSON_DEPTH, jsonDepthExceeds } from './depth.js';
import { defaultConfig } from '../../config/defaults.js';

const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
const bytes = (s: string) => new TextEncoder().encode(s);

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects, and is exact at the limit (text and bytes)', () => {
    for (const text of [nested(3), '{"a":[{"b":1}]}', '[{},[[]]]']) {
      expect(jsonDepthExceeds(text, 3)).toBe(false);
      expect(jsonDepthExceeds(bytes(text), 3)).toBe(false);
      expect(jsonDepthExceeds(`[${text}]`, 3)).toBe(true);
      expect(jsonDepthExceeds(bytes(`[${text}]`), 3)).toBe(true);
    }
  });

  it('counts depth, not the number of brackets', () => {
    expect(jsonDepthExceeds(`[${'[],'.repeat(1000)}[]]`, 2)).toBe(false);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    const inString = JSON.stringify({ s: `"[[[[{{{{\\"` + '['.repeat(100) });
    expect(jsonDepthExceeds(inString, 1)).toBe(false);
    expect(jsonDepthExceeds(bytes(inString), 1)).toBe(false);
    expect(jsonDepthExceeds(`["\\\\",[[]]]`, 2)).toBe(true); // the escaped backslash ends, the string closes
    expect(jsonDepthExceeds(bytes(`["ü[[[",[]]`), 2)).toBe(false); // multi-byte UTF-8 inside a string
  });

  it('scans 5 000 000 levels without recursion', () => {
    expect(jsonDepthExceeds(nested(5_000_000), DEFAULT_MAX_JSON_DEPTH)).toBe(true);
  });

  it('0 = no limit; the default is 128, as every family config defaults to', () => {
    expect(jsonDepthExceeds(nested(10_000), 0)).toBe(false);
    expect(DEFAULT_MAX_JSON_DEPTH).toBe(128);
    const c = defaultConfig();
    expect([c.rpc.maxJsonDepth, c.jsonRpc.maxJsonDepth, c.routing.maxJsonDepth]).toEqual([128, 128, 128]);
  });
});
