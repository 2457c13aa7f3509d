import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chainConfigPath } from '../chain-home.js';
import { HUB_CONFIG_TOML, hubSettings, hubSpecConfig } from './settings.js';

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

function homeWith(toml: string): string {
  const home = mkdtempSync(join(tmpdir(), 'chainlet-hub-settings-'));
  homes.push(home);
  mkdirSync(join(home, 'hub', 'config'), { recursive: true });
  writeFileSync(chainConfigPath(home, 'hub'), toml);
  return home;
}

const DEFAULTS = { hubRpc: 'tcp://127.0.0.1:26757', hubBlockTime: '0' };

describe('hubSettings', () => {
  it('without a home: the flags and their defaults', () => {
    const s = hubSettings({ options: DEFAULTS, given: () => false });
    expect(s.rpc).toEqual({ value: 'tcp://127.0.0.1:26757', from: '--hub-rpc' });
    expect(s.blocks).toEqual({ value: { mode: 'automine' }, from: '--hub-block-time' });
  });

  it("a home's file over the defaults, a given flag over the file", () => {
    const home = homeWith(
      HUB_CONFIG_TOML.replace('26757', '26800').replace('mode = "automine"', 'mode = "interval"').replace('timeout_commit = "1s"', 'timeout_commit = "250ms"'),
    );
    const path = chainConfigPath(home, 'hub');
    const fromFile = hubSettings({ options: DEFAULTS, home, given: () => false });
    expect(fromFile.rpc).toEqual({ value: 'tcp://127.0.0.1:26800', from: path });
    expect(fromFile.blocks).toEqual({ value: { mode: 'interval', timeoutCommitMs: 250 }, from: path });
    expect(fromFile.config).toMatchObject({
      moniker: 'chainlet',
      rpc: { laddr: 'tcp://127.0.0.1:26800' },
      consensus: { mode: 'interval', timeoutCommitMs: 250 },
    });

    const flags = hubSettings({ options: { hubRpc: 'tcp://127.0.0.1:0', hubBlockTime: '0' }, home, given: () => true });
    expect(flags.rpc).toEqual({ value: 'tcp://127.0.0.1:0', from: '--hub-rpc' });
    expect(flags.config).toMatchObject({ rpc: { laddr: 'tcp://127.0.0.1:0' }, consensus: { mode: 'automine' } });
  });

  it("--host moves the default address, the file's included; a bad address names its file", () => {
    const home = homeWith(HUB_CONFIG_TOML);
    expect(hubSettings({ options: DEFAULTS, home, given: () => false, host: '0.0.0.0' }).rpc.value).toBe('tcp://0.0.0.0:26757');
    const bad = homeWith(HUB_CONFIG_TOML.replace('tcp://127.0.0.1:26757', 'nonsense'));
    expect(() => hubSettings({ options: DEFAULTS, home: bad, given: () => false })).toThrow(chainConfigPath(bad, 'hub'));
    const badMode = homeWith(HUB_CONFIG_TOML.replace('mode = "automine"', 'mode = "sometimes"'));
    expect(() => hubSettings({ options: DEFAULTS, home: badMode, given: () => false })).toThrow(/sometimes/);
  });
});

describe('hubSpecConfig (a hub started from code)', () => {
  it("the home's file, the spec's config over it, then its consensus", () => {
    const home = homeWith(HUB_CONFIG_TOML.replace('mode = "automine"', 'mode = "interval"').replace('timeout_commit = "1s"', 'timeout_commit = "250ms"'));
    expect(hubSpecConfig({ home })).toMatchObject({
      moniker: 'chainlet',
      rpc: { laddr: 'tcp://127.0.0.1:26757' },
      consensus: { mode: 'interval', timeoutCommitMs: 250 },
    });
    const spec = { home, config: { moniker: 'from-code', rpc: { laddr: 'tcp://127.0.0.1:0' } }, consensus: { mode: 'manual' as const } };
    expect(hubSpecConfig(spec)).toMatchObject({
      moniker: 'from-code',
      rpc: { laddr: 'tcp://127.0.0.1:0' },
      consensus: { mode: 'manual', timeoutCommitMs: 250 },
    });
    // Without a home: the spec's own config.
    expect(hubSpecConfig({ config: { moniker: 'm' } })).toEqual({ moniker: 'm' });
    expect(hubSpecConfig({})).toBeUndefined();
  });
});
