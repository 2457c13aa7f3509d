import { describe, expect, it } from 'vitest';
import { formatHostPort, normalizeIp } from './remote-address.js';

describe('normalizeIp', () => {
  it('turns IPv4-mapped IPv6 (both backends’ spellings) into dotted IPv4', () => {
    expect(normalizeIp('0000:0000:0000:0000:0000:ffff:7f00:0001')).toBe('127.0.0.1');
    expect(normalizeIp('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeIp('::ffff:c0a8:0102')).toBe('192.168.1.2');
  });

  it('leaves plain IPv4 and real IPv6 alone', () => {
    expect(normalizeIp('10.0.0.7')).toBe('10.0.0.7');
    expect(normalizeIp('::1')).toBe('::1');
  });
});

describe('formatHostPort', () => {
  it('brackets IPv6', () => {
    expect(formatHostPort('127.0.0.1', 26657)).toBe('127.0.0.1:26657');
    expect(formatHostPort('::1', 8545)).toBe('[::1]:8545');
  });
});
