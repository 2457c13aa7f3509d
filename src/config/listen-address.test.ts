import { describe, expect, it } from 'vitest';
import { InvalidListenAddressError, parseListenAddress } from './listen-address.js';

describe('parseListenAddress', () => {
  it('reads CometBFT and Cosmos EVM forms', () => {
    expect(parseListenAddress('tcp://127.0.0.1:26657', '[rpc] laddr')).toEqual({ host: '127.0.0.1', port: 26657 });
    expect(parseListenAddress('0.0.0.0:8545', 'address')).toEqual({ host: '0.0.0.0', port: 8545 });
    expect(parseListenAddress('[::1]:0', 'address')).toEqual({ host: '::1', port: 0 });
    expect(parseListenAddress(':8080', 'address')).toEqual({ host: '127.0.0.1', port: 8080 });
  });

  it('names the key in its error', () => {
    for (const bad of ['localhost', 'host:', 'host:70000', 'host:x']) {
      expect(() => parseListenAddress(bad, '[rpc] laddr')).toThrow(InvalidListenAddressError);
    }
    expect(() => parseListenAddress('nope', '[rpc] laddr')).toThrow('invalid [rpc] laddr "nope": expected host:port');
  });
});
