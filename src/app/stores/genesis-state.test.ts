import { describe, expect, it } from 'vitest';
import { GenesisStateError } from '../errors.js';
import { EVM_GENESIS_DEFAULTS, parseEvmGenesis, parseEvmGenesisBytes } from './genesis-state.js';

describe('parseEvmGenesis', () => {
  it('fills every field but alloc with defaults', () => {
    expect(parseEvmGenesis({ evm: {} })).toEqual({ ...EVM_GENESIS_DEFAULTS, alloc: [] });
    expect(parseEvmGenesisBytes(new Uint8Array(0))).toEqual({ ...EVM_GENESIS_DEFAULTS, alloc: [] });
    expect(EVM_GENESIS_DEFAULTS).toMatchObject({ chainId: 9000n, denom: 'achainlet', hardfork: 'prague', initialBaseFee: 1_000_000_000n, minGasPrice: 0n });
  });

  it('parses the documented shape, accepting the evm section alone too', () => {
    const evm = {
      chain_id: '262144',
      denom: 'atest',
      display_denom: 'test',
      decimals: 18,
      bech32_prefix: 'cosmos',
      hardfork: 'cancun',
      initial_base_fee: '7',
      min_gas_price: 3,
      alloc: {
        '0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266': { balance: '10000000000000000000000', nonce: '2', code: '0x6001', storage: { '0x01': '0x00ff' } },
        '0x000000000000000000000000000000000000bEEF': { balance: '0x10' },
      },
    };
    const g = parseEvmGenesis({ evm });
    expect(parseEvmGenesis(evm)).toEqual(g);
    expect(g).toMatchObject({ chainId: 262144n, denom: 'atest', bech32Prefix: 'cosmos', hardfork: 'cancun', initialBaseFee: 7n, minGasPrice: 3n });
    expect(g.alloc.map((a) => a.address)).toEqual(['0x000000000000000000000000000000000000beef', '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266']);
    const dev = g.alloc[1]!;
    expect(dev.balance).toBe(10n ** 22n);
    expect(dev.nonce).toBe(2n);
    expect(dev.code).toEqual(new Uint8Array([0x60, 0x01]));
    expect(dev.storage).toEqual([[new Uint8Array(32).fill(1, 31), new Uint8Array([0xff])]]);
    expect(g.alloc[0]!.balance).toBe(16n);
  });

  it.each([
    [{ evm: { chain_id: 'x' } }, 'chain_id'],
    [{ evm: { chain_id: '0' } }, 'chain_id'],
    [{ evm: { hardfork: 'berlin' } }, 'hardfork'],
    [{ evm: { bech32_prefix: 'Bad!' } }, 'bech32_prefix'],
    [{ evm: { alloc: { '0x1234': { balance: '1' } } } }, 'alloc.0x1234'],
    [{ evm: { alloc: { '0x000000000000000000000000000000000000beef': { balance: '-1' } } } }, 'balance'],
    [{ evm: { alloc: { '0x000000000000000000000000000000000000beef': { code: '0x123' } } } }, 'code'],
    [{ evm: { alloc: { '0x000000000000000000000000000000000000beef': { storage: { '0x01': '0xzz' } } } } }, 'storage'],
    [[1, 2], 'app_state'],
  ])('rejects %j naming the field', (json, field) => {
    expect(() => parseEvmGenesis(json)).toThrow(GenesisStateError);
    expect(() => parseEvmGenesis(json)).toThrow(field);
  });

  it('rejects bytes that are not JSON', () => {
    expect(() => parseEvmGenesisBytes(new TextEncoder().encode('{nope'))).toThrow(/not valid JSON/);
  });
});
