import { describe, expect, it } from 'vitest';
import { parse } from 'smol-toml';
import { defaultConfig } from '../../src/config/defaults.js';
import { overridesFromFlags, overridesFromToml, renderToml } from '../../src/config/files.js';
import { parseDurationMs } from '../../src/config/keys.js';
import { DEFAULT_TRIE_CACHE_NODES } from '../../src/app/stores/trie-db.js';

describe('config', () => {
  it('has CometBFT and Cosmos EVM defaults', () => {
    const c = defaultConfig();
    expect(c.rpc.laddr).toBe('tcp://127.0.0.1:26657');
    expect(c.rpc.maxSubscriptionsPerClient).toBe(5);
    expect(c.mempool.size).toBe(5000);
    expect(c.consensus.timeoutCommitMs).toBe(1000);
    expect(c.jsonRpc.api).toEqual(['eth', 'web3', 'net', 'txpool']);
    expect(c.jsonRpc.gasCap).toBe(0n);
    expect(c.jsonRpc.evmTimeoutMs).toBe(10_000);
  });

  it('renders config.toml / app.toml that parse back to the same values', () => {
    const c = defaultConfig();
    for (const file of ['config', 'app'] as const) {
      const doc = parse(renderToml(file, c)) as Record<string, unknown>;
      const over = overridesFromToml(file, doc) as Record<string, any>;
      if (file === 'config') {
        expect(over.rpc.laddr).toBe(c.rpc.laddr);
        expect(over.consensus.timeoutCommitMs).toBe(1000);
        expect((doc.consensus as any).timeout_commit).toBe('1s');
      } else {
        expect(over.jsonRpc.filterTimeoutMs).toBe(300_000);
        expect((doc['json-rpc'] as any)['filter-timeout']).toBe('5m0s');
      }
    }
  });

  it('parses flags with the same key table and rejects unknown ones', () => {
    const o = overridesFromFlags({
      'rpc.laddr': 'tcp://127.0.0.1:0',
      'json-rpc.api': 'eth,debug',
      'rpc.unsafe': 'true',
      'consensus.timeout_commit': '250ms',
    }) as any;
    expect(o.rpc).toEqual({ laddr: 'tcp://127.0.0.1:0', unsafe: true });
    expect(o.jsonRpc.api).toEqual(['eth', 'debug']);
    expect(o.consensus.timeoutCommitMs).toBe(250);
    expect(() => overridesFromFlags({ 'rpc.nope': '1' })).toThrow(/unknown config flag --rpc.nope/);
    expect(() => overridesFromFlags({ 'rpc.unsafe': 'maybe' })).toThrow(/invalid value "maybe" for --rpc.unsafe: expected true or false/);
  });

  it('reads [routing] erc20-tokens from app.toml and --routing.erc20-tokens, and refuses a non-address', () => {
    const a = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    const b = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512';
    expect(defaultConfig().routing.erc20Tokens).toEqual([]);
    expect((overridesFromFlags({ 'routing.erc20-tokens': `${a}, ${b}` }) as any).routing).toEqual({ erc20Tokens: [a, b] });
    expect((overridesFromToml('app', parse(`[routing]\nerc20-tokens = ["${a}"]\n`)) as any).routing).toEqual({ erc20Tokens: [a] });
    expect(parse(renderToml('app', { ...defaultConfig(), routing: { ...defaultConfig().routing, erc20Tokens: [a] } }))).toMatchObject({
      routing: { 'erc20-tokens': [a] },
    });
    expect(() => overridesFromFlags({ 'routing.erc20-tokens': `${a},0x1234` })).toThrow(
      `invalid value "${a},0x1234" for --routing.erc20-tokens: expected a comma-separated list of 0x addresses, 40 hex digits each`,
    );
    expect(() => overridesFromToml('app', parse('[routing]\nerc20-tokens = ["usdc"]\n'))).toThrow(
      'invalid value ["usdc"] for routing.erc20-tokens: expected a comma-separated list of 0x addresses',
    );
  });

  it('bounds the EVM state-trie read cache by [evm] trie-cache-size (--evm.trie-cache-size)', () => {
    expect(defaultConfig().evm.trieCacheSize).toBe(DEFAULT_TRIE_CACHE_NODES);
    expect((overridesFromFlags({ 'evm.trie-cache-size': '0' }) as any).evm).toEqual({ trieCacheSize: 0 });
    expect((overridesFromToml('app', parse('[evm]\ntrie-cache-size = 100000\n')) as any).evm).toEqual({ trieCacheSize: 100_000 });
    expect(parse(renderToml('app', defaultConfig()))).toMatchObject({ evm: { 'trie-cache-size': DEFAULT_TRIE_CACHE_NODES } });
    expect(() => overridesFromFlags({ 'evm.trie-cache-size': 'lots' })).toThrow('invalid value "lots" for --evm.trie-cache-size: expected an integer');
  });

  it('parses Go durations', () => {
    expect(parseDurationMs('2m0s')).toBe(120_000);
    expect(parseDurationMs('1h30m')).toBe(5_400_000);
    expect(parseDurationMs('10ms')).toBe(10);
    expect(() => parseDurationMs('soon')).toThrow(/invalid duration/);
  });
});

describe('devnet control profile', () => {
  it('is on for the in-memory devnet and off for a home made by `chainlet init` unless app.toml turns it on', async () => {
    const { mkdtempSync, readFileSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { initHome } = await import('../../src/genesis/home.js');
    const { startNode } = await import('../../src/node/node.js');
    const home = mkdtempSync(join(tmpdir(), 'chainlet-profile-'));
    try {
      initHome(home);
      const appToml = join(home, 'config', 'app.toml');
      expect(readFileSync(appToml, 'utf8')).toMatch(/\[evm\][\s\S]*devnet = false/);
      const mem = await startNode({ servers: false });
      const disk = await startNode({ home, servers: false, config: { logLevel: 'silent' } });
      try {
        expect(mem.config.evm.devnet).toBe(true);
        expect(disk.config.evm.devnet).toBe(false);
      } finally {
        await Promise.all([mem.stop(), disk.stop()]);
      }
      writeFileSync(appToml, readFileSync(appToml, 'utf8').replace('devnet = false', 'devnet = true'));
      const on = await startNode({ home, servers: false, config: { logLevel: 'silent' } });
      expect(on.config.evm.devnet).toBe(true);
      await on.stop();
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
