/**
 * The depth limits are config keys like any other: a TOML key and a `--section.key` flag each,
 * default 128 (the network test, dispatch.test.ts, shows each one enforced at its edge).
 */
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { defaultConfig, mergeConfig } from '../../src/config/defaults.js';
import { overridesFromFlags, overridesFromToml } from '../../src/config/files.js';
import { CONFIG_KEYS } from '../../src/config/keys.js';
import type { NodeConfig } from '../../src/config/types.js';

describe('max json depth keys', () => {
  it('[rpc] max_json_depth, [json-rpc] max-json-depth and [routing] max-json-depth: TOML, flags, default 128', () => {
    const keys = CONFIG_KEYS.filter((k) => k.name === 'max_json_depth' || k.name === 'max-json-depth').map((k) => `${k.file}:${k.section}.${k.name}`);
    expect(keys).toEqual(['config:rpc.max_json_depth', 'app:json-rpc.max-json-depth', 'app:routing.max-json-depth']);
    const d = defaultConfig();
    expect([d.rpc.maxJsonDepth, d.jsonRpc.maxJsonDepth, d.routing.maxJsonDepth]).toEqual([128, 128, 128]);

    const fromConfigToml = overridesFromToml('config', parseToml('[rpc]\nmax_json_depth = 16\n') as Record<string, unknown>);
    const fromAppToml = overridesFromToml('app', parseToml('[json-rpc]\nmax-json-depth = 32\n[routing]\nmax-json-depth = 0\n') as Record<string, unknown>);
    const fromFlags = overridesFromFlags({ 'json-rpc.max-json-depth': '64' });
    const c = mergeConfig(mergeConfig(mergeConfig(d, fromConfigToml as never), fromAppToml as never), fromFlags as never) as NodeConfig;
    expect([c.rpc.maxJsonDepth, c.jsonRpc.maxJsonDepth, c.routing.maxJsonDepth]).toEqual([16, 64, 0]);
  });
});
